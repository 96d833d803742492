// Assembles one Anthropic Messages answer: from the events of a stream, reporting stream
// events on the way, or from a whole message body.
//
// Blocks are keyed by index. Thinking deltas append and the signature delta replaces;
// tool_use input is buffered as text from empty (the {} of content_block_start is a
// placeholder, not a prefix) and parsed at content_block_stop. Usage starts from
// message_start and takes the cumulative counts of each message_delta. The stream ends
// with message_stop; one that closes before it was cut, and its partial tool input is
// never returned.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/api_error.hpp"
#include "hermes/json.hpp"
#include "hermes/provider.hpp"
#include "providers/anthropic_answer.hpp"
#include "providers/anthropic_event.hpp"
#include "providers/model_exchange.hpp"

namespace hermes::internal {

// Thread-safety: none; one assembler per call.
class AnthropicStreamAssembler final : public AnswerAssembler {
 public:
  // `on_event` may be null or empty.
  explicit AnthropicStreamAssembler(const StreamCallback* on_event = nullptr)
      : on_event_(on_event) {}

  bool add_event(const SseEvent& event) override;
  void add_body(std::string_view body) override;
  bool failed() const override { return error_.has_value(); }
  bool complete() const override { return stopped_; }
  Result<ProviderResponse> finish() override;

 private:
  struct Block {
    Json start;        // content_block_start's block, updated by the deltas below.
    std::string text;  // text_delta
    std::string thinking;
    std::string signature;
    std::string input;   // input_json_delta, joined.
    int tool_slot = -1;  // The call's position among the answer's tool calls.
    bool stopped = false;
  };

  void dispatch(std::string_view type, std::string_view json);
  Block* block_at(std::optional<int> index);
  void block_started();
  void block_delta();
  void message_started();
  void message_delta();
  AnthropicContent content() const;
  void fail(ApiError error);
  void fail_invalid(std::string what, std::string_view payload);
  void emit(const StreamEvent& event) const;

  const StreamCallback* on_event_;
  AnthropicEventReader reader_;
  AnthropicEvent event_;
  std::vector<Block> blocks_;
  int tool_calls_ = 0;
  AnthropicUsage usage_;
  Usage reported_usage_;  // Backs the usage stream events.
  std::string stop_reason_;
  std::string reported_stop_reason_;  // The one a kFinish event announced.
  std::string message_id_;
  std::string model_;
  bool stopped_ = false;
  std::optional<ProviderResponse> body_answer_;
  std::optional<ApiError> error_;
};

}  // namespace hermes::internal
