// Assembles one Chat Completions answer: from streamed chunks (SSE events) as they
// arrive, reporting stream events on the way, or from a whole response body.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "hermes/api_error.hpp"
#include "hermes/provider.hpp"
#include "providers/chat_chunk.hpp"
#include "providers/model_exchange.hpp"
#include "providers/sse_parser.hpp"
#include "providers/tool_call_accumulator.hpp"

namespace hermes::internal {

// Thread-safety: none; one assembler per call.
class ChatStreamAssembler final : public AnswerAssembler {
 public:
  // `on_event` receives stream events as chunks are handled; it may be null or empty.
  explicit ChatStreamAssembler(const StreamCallback* on_event = nullptr) : on_event_(on_event) {}

  // Handles one SSE event of a stream. Returns false once the stream has failed, when
  // reading further is pointless.
  bool add_event(const SseEvent& event) override;

  // Handles a whole chat.completion body (a non-streamed answer).
  void add_completion(std::string_view body);
  void add_body(std::string_view body) override { add_completion(body); }

  bool failed() const override { return error_.has_value(); }
  // A terminal signal arrived: [DONE], a finish_reason, or a closing usage chunk.
  bool complete() const override { return done_ || !finish_reason_.empty() || closing_usage_; }

  // The answer, once the body has ended. A stream that failed, or ended without a
  // terminal signal (cut: TransportFailure::kDisconnect), gives kApiError; its partial
  // text and tool calls are never returned as an answer.
  Result<ProviderResponse> finish() override;

 private:
  void add_chunk(std::string_view json, bool is_completion);
  void handle_choice(const ChatChunk& chunk);
  void handle_tool_calls(const ChatChunk& chunk);
  void handle_finish_reason(std::string_view reason, std::string_view chunk_json);
  void merge_reasoning_details(std::string_view json);
  void fail_with_error_payload(std::string_view json);
  void fail(ApiError error);
  void emit(const StreamEvent& event) const;

  const StreamCallback* on_event_;
  ChatChunkReader reader_;
  ChatChunk chunk_;
  ToolCallAccumulator tool_calls_;
  bool is_completion_ = false;

  std::string content_;
  std::string reasoning_;
  Json reasoning_details_;
  Usage usage_;
  std::string finish_reason_;
  std::string model_;
  std::string response_id_;
  bool done_ = false;
  bool closing_usage_ = false;
  std::optional<ApiError> error_;
};

// The normalised finish reason for a Chat Completions value: function_call becomes
// tool_calls; the rest pass through.
std::string normalize_finish_reason(std::string_view reason);

}  // namespace hermes::internal
