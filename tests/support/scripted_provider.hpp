// An in-process Provider that answers from a script, for unit tests of the loop. (Tests
// of the real HTTP path use the loopback MockServer instead.)
#pragma once

#include <deque>
#include <functional>
#include <mutex>
#include <vector>

#include "hermes/provider.hpp"

namespace hermes::testing {

class ScriptedProvider : public Provider {
 public:
  using Step = std::function<Result<ProviderResponse>(const ProviderRequest&, const CallContext&)>;

  ScriptedProvider();

  const ProviderInfo& info() const override { return info_; }
  Result<ProviderResponse> complete(const ProviderRequest& request,
                                    const CallContext& context) override;

  // Queues an answer. Text answers are streamed to the context word by word.
  void text(const std::string& content, const std::string& finish_reason = "stop");
  // Queues an assistant message with tool calls: {name, arguments JSON text} pairs.
  void tool_calls(const std::vector<std::pair<std::string, std::string>>& calls,
                  const std::string& content = "");
  // Queues a failure.
  void error(int http_status, const std::string& message,
             std::optional<double> retry_after_seconds = std::nullopt);
  // Queues an arbitrary step.
  void step(Step step);

  std::vector<ProviderRequest> requests() const;
  // The CallContext::api_key of every call, in order.
  std::vector<std::string> api_keys() const;
  std::size_t remaining() const;

 private:
  ProviderInfo info_;
  mutable std::mutex mu_;
  std::deque<Step> steps_;
  std::vector<ProviderRequest> requests_;
  std::vector<std::string> api_keys_;
  int next_call_id_ = 1;
};

}  // namespace hermes::testing
