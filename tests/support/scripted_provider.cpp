#include "support/scripted_provider.hpp"

namespace hermes::testing {

ScriptedProvider::ScriptedProvider() {
  info_.name = "scripted";
  info_.api_mode = "chat_completions";
  info_.base_url = "scripted://";
  info_.model = "scripted-model";
}

Result<ProviderResponse> ScriptedProvider::complete(const ProviderRequest& request,
                                                    const CallContext& context) {
  Step step;
  {
    std::lock_guard<std::mutex> lock(mu_);
    requests_.push_back(request);
    api_keys_.push_back(context.api_key);
    if (steps_.empty()) {
      ApiError e;
      e.http_status = 500;
      e.message = "scripted provider: no response left";
      return Status::api_error(e);
    }
    step = std::move(steps_.front());
    steps_.pop_front();
  }
  return step(request, context);
}

void ScriptedProvider::text(const std::string& content, const std::string& finish_reason) {
  step([content, finish_reason](const ProviderRequest&, const CallContext& ctx) -> Result<ProviderResponse> {
    if (ctx.on_event) {
      std::size_t start = 0;
      while (start < content.size()) {
        std::size_t end = content.find(' ', start + 1);
        if (end == std::string::npos) end = content.size();
        StreamEvent ev;
        ev.kind = StreamEvent::Kind::kTextDelta;
        ev.text = std::string_view(content).substr(start, end - start);
        ctx.on_event(ev);
        start = end;
      }
    }
    ProviderResponse r;
    r.message = Message::assistant(content);
    r.message.finish_reason = finish_reason;
    r.usage.input_tokens = 10;
    r.usage.output_tokens = 5;
    r.usage.reported = true;
    return r;
  });
}

void ScriptedProvider::tool_calls(const std::vector<std::pair<std::string, std::string>>& calls,
                                  const std::string& content) {
  Message m = Message::assistant(content);
  m.finish_reason = "tool_calls";
  for (const auto& [name, args] : calls) {
    ToolCall call;
    call.id = "call_" + std::to_string(next_call_id_++);
    call.name = name;
    call.arguments = args;
    m.tool_calls.push_back(std::move(call));
  }
  step([m](const ProviderRequest&, const CallContext&) -> Result<ProviderResponse> {
    ProviderResponse r;
    r.message = m;
    r.usage.input_tokens = 10;
    r.usage.output_tokens = 5;
    r.usage.reported = true;
    return r;
  });
}

void ScriptedProvider::error(int http_status, const std::string& message,
                             std::optional<double> retry_after_seconds) {
  step([=](const ProviderRequest&, const CallContext&) -> Result<ProviderResponse> {
    ApiError e;
    e.http_status = http_status;
    e.message = message;
    e.retry_after_seconds = retry_after_seconds;
    return Status::api_error(e);
  });
}

void ScriptedProvider::step(Step s) {
  std::lock_guard<std::mutex> lock(mu_);
  steps_.push_back(std::move(s));
}

std::vector<ProviderRequest> ScriptedProvider::requests() const {
  std::lock_guard<std::mutex> lock(mu_);
  return requests_;
}

std::vector<std::string> ScriptedProvider::api_keys() const {
  std::lock_guard<std::mutex> lock(mu_);
  return api_keys_;
}

std::size_t ScriptedProvider::remaining() const {
  std::lock_guard<std::mutex> lock(mu_);
  return steps_.size();
}

}  // namespace hermes::testing
