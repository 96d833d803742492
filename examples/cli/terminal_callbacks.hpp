// The callbacks that show a turn in the terminal: the answer as it streams, a progress
// line while the model thinks or tools run, a line per finished tool, notices, and the
// approval and clarify questions asked through the PromptBroker.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "hermes/hermes.hpp"
#include "prompt_broker.hpp"
#include "terminal.hpp"

namespace hermes_cli {

struct CallbackContext {
  Terminal* terminal = nullptr;
  PromptBroker* prompts = nullptr;  // nullptr: nobody can answer (approvals are denied).
  std::chrono::milliseconds question_timeout{std::chrono::seconds(300)};
};

// The objects referred to by `context` must outlive every agent given the callbacks.
hermes::Callbacks make_terminal_callbacks(const CallbackContext& context);

// A library notice (Callbacks::on_status) as this program shows it: the message, and for
// the kinds a slash command can help with, the command to type.
std::string status_notice(std::string_view kind, std::string_view message);

// How a typed line answers an approval request: o/once/y/yes, s/session, a/always;
// anything else (and no answer) denies.
hermes::ApprovalDecision parse_approval_answer(const std::string& line);

// How a typed line answers a clarify question with `choices`: a number picks a choice,
// other text is the answer itself.
std::string parse_clarify_answer(const std::string& line, const std::vector<std::string>& choices);

}  // namespace hermes_cli
