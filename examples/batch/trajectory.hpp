// The trajectory of one batch prompt in the ShareGPT shape training pipelines read:
//
//   [{"from": "system", "value": <tool-use instructions and the tool list>},
//    {"from": "human", "value": <prompt>},
//    {"from": "gpt", "value": "<think>\n...\n</think>\n<text><tool_call>\n{...}\n</tool_call>"},
//    {"from": "tool", "value": "<tool_response>\n{...}\n</tool_response>"}, ...]
//
// Every gpt message carries a <think> block (empty without reasoning) so that samples
// look alike; the results of one batch of tool calls form one tool message.
#pragma once

#include <string>
#include <vector>

#include "hermes/hermes.hpp"

namespace hermes_batch {

// The system message: how to call tools, and the tools (`definitions` as OpenAI
// function definitions) inside <tools></tools>.
std::string trajectory_system_message(const hermes::Json& definitions);

// `text` with secrets masked, whatever HERMES_REDACT_SECRETS says, URL userinfo and
// credential query parameters included: trajectories are shared as training data, far
// from where they were made.
std::string redact_trajectory_text(const std::string& text);

// Converts a turn's transcript (starting at the user prompt) to the conversation list.
// Every turn but the generated system message is masked with redact_trajectory_text:
// the model's text and reasoning, its tool calls' arguments, and tool results from tools
// that do not mask their own output.
hermes::Json to_conversations(const std::vector<hermes::Message>& transcript,
                              const std::string& prompt, const hermes::Json& definitions);

}  // namespace hermes_batch
