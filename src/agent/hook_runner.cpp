#include "agent/hook_runner.hpp"

#include <exception>

#include "safety/log.hpp"

namespace hermes::internal {
namespace {

template <typename Fn>
void isolated(const char* hook, Fn&& fn) {
  try {
    fn();
  } catch (const std::exception& e) {
    HERMES_LOG_WARN("plugin hook {} threw: {}", hook, e.what());
  } catch (...) {
    HERMES_LOG_WARN("plugin hook {} threw a non-standard exception", hook);
  }
}

}  // namespace

std::string HookRunner::pre_llm_call(const std::string& session_id, const std::string& user_message) const {
  std::string joined;
  for (const auto& h : hooks_) {
    isolated("pre_llm_call", [&] {
      std::string text = h->pre_llm_call(session_id, user_message);
      if (text.empty()) return;
      if (!joined.empty()) joined += "\n\n";
      joined += text;
    });
  }
  return joined;
}

void HookRunner::pre_api_request(const ProviderRequest& request) const {
  for (const auto& h : hooks_) isolated("pre_api_request", [&] { h->pre_api_request(request); });
}

void HookRunner::post_api_request(const ProviderRequest& request, const ProviderResponse& response) const {
  for (const auto& h : hooks_) isolated("post_api_request", [&] { h->post_api_request(request, response); });
}

void HookRunner::api_request_error(const ProviderRequest& request, const ApiError& error) const {
  for (const auto& h : hooks_) isolated("api_request_error", [&] { h->api_request_error(request, error); });
}

ToolCallDecision HookRunner::pre_tool_call(const std::string& tool_name, const Json& arguments) const {
  ToolCallDecision out;
  Json args = arguments;
  for (const auto& h : hooks_) {
    bool stop = false;
    isolated("pre_tool_call", [&] {
      ToolCallDecision d = h->pre_tool_call(tool_name, args);
      if (d.block) {
        out.block = true;
        out.block_message = d.block_message.empty() ? "Blocked by a plugin" : d.block_message;
        stop = true;
        return;
      }
      if (d.arguments && d.arguments->is_object()) {
        args = std::move(*d.arguments);
        out.arguments = args;
      }
    });
    if (stop) break;
  }
  return out;
}

void HookRunner::post_tool_call(const std::string& tool_name, const Json& arguments, std::string_view result,
                                std::chrono::milliseconds duration, bool is_error) const {
  for (const auto& h : hooks_) {
    isolated("post_tool_call", [&] { h->post_tool_call(tool_name, arguments, result, duration, is_error); });
  }
}

std::optional<std::string> HookRunner::transform_tool_result(const std::string& tool_name,
                                                             const Json& arguments,
                                                             std::string_view result) const {
  std::optional<std::string> out;
  for (const auto& h : hooks_) {
    isolated("transform_tool_result", [&] { out = h->transform_tool_result(tool_name, arguments, result); });
    if (out) break;
  }
  return out;
}

std::optional<std::string> HookRunner::transform_llm_output(std::string_view response) const {
  std::optional<std::string> out;
  for (const auto& h : hooks_) {
    isolated("transform_llm_output", [&] { out = h->transform_llm_output(response); });
    if (out) break;
  }
  return out;
}

void HookRunner::post_llm_call(const std::string& user_message, const std::string& response) const {
  for (const auto& h : hooks_) isolated("post_llm_call", [&] { h->post_llm_call(user_message, response); });
}

void HookRunner::on_session_start(const std::string& session_id) const {
  for (const auto& h : hooks_) isolated("on_session_start", [&] { h->on_session_start(session_id); });
}

void HookRunner::on_session_end(const std::string& session_id, const std::vector<Message>& messages) const {
  for (const auto& h : hooks_) isolated("on_session_end", [&] { h->on_session_end(session_id, messages); });
}

void HookRunner::subagent_start(const std::string& parent_session_id, std::size_t task_index,
                                const std::string& goal) const {
  for (const auto& h : hooks_) {
    isolated("subagent_start", [&] { h->subagent_start(parent_session_id, task_index, goal); });
  }
}

void HookRunner::subagent_stop(const std::string& parent_session_id, std::size_t task_index,
                               const std::string& status, const std::string& summary,
                               std::chrono::milliseconds duration) const {
  for (const auto& h : hooks_) {
    isolated("subagent_stop", [&] {
      h->subagent_stop(parent_session_id, task_index, status, summary, duration);
    });
  }
}

}  // namespace hermes::internal
