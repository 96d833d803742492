// Assembles one Responses API answer: from the `response.*` events of a stream, reporting
// stream events on the way, or from a whole response body.
//
// The stream ends after exactly one terminal event (response.completed, .incomplete or
// .failed); a stream that closes without one was cut. Items are keyed by output_index,
// or by item id where a server leaves the index out (llama.cpp's closing events), and
// encrypted reasoning is taken from output_item.done, never from output_item.added.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/api_error.hpp"
#include "hermes/json.hpp"
#include "hermes/provider.hpp"
#include "providers/model_exchange.hpp"
#include "providers/responses_event.hpp"

namespace hermes::internal {

// Thread-safety: none; one assembler per call.
class ResponsesStreamAssembler final : public AnswerAssembler {
 public:
  // `issuer` stamps the reasoning items (see ResponsesDialect::issuer). `on_event` may be
  // null or empty.
  explicit ResponsesStreamAssembler(std::string issuer, const StreamCallback* on_event = nullptr);

  bool add_event(const SseEvent& event) override;
  void add_body(std::string_view body) override;
  bool failed() const override { return error_.has_value(); }
  bool complete() const override { return answer_.has_value(); }
  Result<ProviderResponse> finish() override;

 private:
  struct Item {
    std::string id;
    std::string type;
    std::string phase;
    std::optional<int> output_index;
    std::string text;       // output_text deltas.
    std::string arguments;  // function_call argument deltas.
    Json done;              // The complete item from output_item.done.
    int tool_slot = -1;     // The call's position among the answer's tool calls.
  };

  void dispatch(std::string_view type, std::string_view json);
  Item& item_for(std::optional<int> output_index, std::string_view item_id);
  void item_added(bool done);
  void text_delta();
  void reasoning_delta();
  void arguments_delta();
  void terminal();
  Json streamed_items() const;
  void fail(ApiError error);
  void fail_invalid(std::string what, std::string_view payload);
  void emit(const StreamEvent& event) const;

  const std::string issuer_;
  const StreamCallback* on_event_;
  ResponsesEventReader reader_;
  ResponsesEvent event_;
  std::vector<Item> items_;
  int tool_calls_ = 0;
  std::optional<ProviderResponse> answer_;
  std::optional<ApiError> error_;
  bool is_body_ = false;
};

}  // namespace hermes::internal
