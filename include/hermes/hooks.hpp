// hermes/hooks.hpp — plugin hooks: code that observes or shapes a turn at fixed points.
//
// A host registers Hooks objects on AgentOptions::hooks. Every method has a do-nothing
// default, so a plugin overrides only what it needs. Hooks run on the turn's thread
// (tool hooks: on the tool's worker thread) in registration order. An exception thrown
// by a hook is logged and skipped: a hook can never break a turn.
#pragma once

#include "hermes/export.hpp"

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/api_error.hpp"
#include "hermes/json.hpp"
#include "hermes/message.hpp"
#include "hermes/provider.hpp"

namespace hermes {

// What pre_tool_call decides about a call.
struct ToolCallDecision {
  // Refuse the call; the model receives {"error": block_message}.
  bool block = false;
  std::string block_message;
  // Run the call with these arguments instead (a JSON object).
  std::optional<Json> arguments;
};

class HERMES_API Hooks {
 public:
  virtual ~Hooks() = default;

  // Once per turn, before the first model call. Returned text (non-empty returns of all
  // hooks joined by a blank line) is added to the API copy of the user message, never to
  // the system prompt, so the prompt cache stays warm.
  virtual std::string pre_llm_call(const std::string& session_id, const std::string& user_message) {
    (void)session_id;
    (void)user_message;
    return {};
  }

  // Around every model call.
  virtual void pre_api_request(const ProviderRequest& request) { (void)request; }
  virtual void post_api_request(const ProviderRequest& request, const ProviderResponse& response) {
    (void)request;
    (void)response;
  }
  virtual void api_request_error(const ProviderRequest& request, const ApiError& error) {
    (void)request;
    (void)error;
  }

  // Before a tool runs: may block it or rewrite its arguments.
  virtual ToolCallDecision pre_tool_call(const std::string& tool_name, const Json& arguments) {
    (void)tool_name;
    (void)arguments;
    return {};
  }
  // After a tool ran (exactly once per call, also for blocked and failed calls).
  virtual void post_tool_call(const std::string& tool_name, const Json& arguments,
                              std::string_view result, std::chrono::milliseconds duration,
                              bool is_error) {
    (void)tool_name;
    (void)arguments;
    (void)result;
    (void)duration;
    (void)is_error;
  }
  // May replace a tool's result text; the first hook returning a value wins.
  virtual std::optional<std::string> transform_tool_result(const std::string& tool_name,
                                                           const Json& arguments,
                                                           std::string_view result) {
    (void)tool_name;
    (void)arguments;
    (void)result;
    return std::nullopt;
  }

  // Once per turn on the final answer; the first hook returning a value wins.
  virtual std::optional<std::string> transform_llm_output(std::string_view response) {
    (void)response;
    return std::nullopt;
  }
  // After the final answer is settled.
  virtual void post_llm_call(const std::string& user_message, const std::string& response) {
    (void)user_message;
    (void)response;
  }

  // A fresh system prompt was built for a new session.
  virtual void on_session_start(const std::string& session_id) { (void)session_id; }
  // A sub-agent of delegate_task is about to start on task `task_index` of the call
  // (on the delegating turn's thread).
  virtual void subagent_start(const std::string& parent_session_id, std::size_t task_index,
                              const std::string& goal) {
    (void)parent_session_id;
    (void)task_index;
    (void)goal;
  }
  // That sub-agent has finished: `status` is completed, failed, interrupted or error, and
  // `summary` its final answer (what the delegating model receives).
  virtual void subagent_stop(const std::string& parent_session_id, std::size_t task_index,
                             const std::string& status, const std::string& summary,
                             std::chrono::milliseconds duration) {
    (void)parent_session_id;
    (void)task_index;
    (void)status;
    (void)summary;
    (void)duration;
  }
  // The end of every turn (not only of the process), with the transcript.
  virtual void on_session_end(const std::string& session_id, const std::vector<Message>& messages) {
    (void)session_id;
    (void)messages;
  }
};

}  // namespace hermes
