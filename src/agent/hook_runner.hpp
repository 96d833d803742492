// Runs the plugin hooks of an agent in order, isolating each: a hook that throws is
// logged and skipped.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hermes/hooks.hpp"

namespace hermes::internal {

class HookRunner {
 public:
  explicit HookRunner(std::vector<std::shared_ptr<Hooks>> hooks) : hooks_(std::move(hooks)) {}

  bool empty() const { return hooks_.empty(); }

  // Non-empty returns joined by a blank line.
  std::string pre_llm_call(const std::string& session_id, const std::string& user_message) const;
  void pre_api_request(const ProviderRequest& request) const;
  void post_api_request(const ProviderRequest& request, const ProviderResponse& response) const;
  void api_request_error(const ProviderRequest& request, const ApiError& error) const;
  // The first block wins; argument rewrites apply in order.
  ToolCallDecision pre_tool_call(const std::string& tool_name, const Json& arguments) const;
  void post_tool_call(const std::string& tool_name, const Json& arguments, std::string_view result,
                      std::chrono::milliseconds duration, bool is_error) const;
  std::optional<std::string> transform_tool_result(const std::string& tool_name, const Json& arguments,
                                                   std::string_view result) const;
  std::optional<std::string> transform_llm_output(std::string_view response) const;
  void post_llm_call(const std::string& user_message, const std::string& response) const;
  void on_session_start(const std::string& session_id) const;
  void on_session_end(const std::string& session_id, const std::vector<Message>& messages) const;
  void subagent_start(const std::string& parent_session_id, std::size_t task_index,
                      const std::string& goal) const;
  void subagent_stop(const std::string& parent_session_id, std::size_t task_index,
                     const std::string& status, const std::string& summary,
                     std::chrono::milliseconds duration) const;

 private:
  std::vector<std::shared_ptr<Hooks>> hooks_;
};

}  // namespace hermes::internal
