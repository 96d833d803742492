// The JSON body of a Chat Completions request, built from a ProviderRequest.
//
// Strict servers (Fireworks, Mistral, Kimi, some gateways) reject any field outside the
// schema, so only schema fields are written: hermes' own message fields (timestamps,
// display hints, scaffolding marks, Responses and Anthropic replay data) never leave.
#pragma once

#include <string>
#include <string_view>

#include "hermes/json.hpp"
#include "hermes/provider.hpp"
#include "hermes/status.hpp"

namespace hermes::internal {

// How one endpoint and model want their requests. Derived from the provider name, the
// base URL and the model id.
struct ChatDialect {
  // OpenAI (and Azure, GitHub Copilot) and OpenAI's reasoning models reject max_tokens.
  bool max_completion_tokens = false;
  // GPT-5 and Codex models weigh a "developer" system prompt more.
  bool developer_role = false;
  // DeepSeek, Kimi and MiMo thinking modes want reasoning_content replayed on assistant
  // turns, and reject an empty one on turns with tool calls.
  bool echo_reasoning_content = false;
  // OpenRouter replays reasoning_details for reasoning continuity across tool calls.
  bool send_reasoning_details = false;
  // Gemini needs its tool-call thought signatures back; everyone else rejects them.
  bool keep_thought_signatures = false;
  // GPT-4 and GPT-3.5 reject any reasoning effort; everything else gets the caller's.
  bool send_reasoning_effort = true;
  // OpenRouter takes reasoning as {"reasoning": {"effort": ...}}.
  bool nested_reasoning_effort = false;
  // Generic compatible servers accept only low, medium and high.
  bool clamp_reasoning_effort = false;
  // OpenAI's reasoning models reject sampling parameters such as temperature.
  bool send_temperature = true;
  // stream_options.include_usage; off for servers that rejected it.
  bool include_usage = true;
  // Claude through OpenRouter or the Nous portal: Anthropic cache breakpoints on content
  // parts (chat_cache_markers.hpp).
  bool cache_markers = false;
};

ChatDialect chat_dialect_for(std::string_view provider, std::string_view base_url,
                             std::string_view model);

// The request body, for request.model or, when that is empty, `default_model`.
// InvalidArgument names the field that cannot be encoded.
Result<Json> build_chat_request(const ProviderRequest& request, const ChatDialect& dialect,
                                std::string_view default_model = {});

// The same body as text (dump_json of build_chat_request, byte for byte), written with
// the request's encoding cache: messages it holds are copied, the others encoded and
// stored in it.
Result<std::string> encode_chat_request(const ProviderRequest& request, const ChatDialect& dialect,
                                        std::string_view default_model = {});

}  // namespace hermes::internal
