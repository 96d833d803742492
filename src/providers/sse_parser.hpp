// Server-Sent Events, decoded incrementally from raw body bytes.
//
// The WHATWG event-stream algorithm, fed arbitrary byte slices: a slice may end inside a
// line, inside a CRLF pair or inside a multi-byte character, so lines are split on bytes
// and never decoded. One extension: a field named `error` carries an error payload, as
// llama.cpp servers built before September 2025 send it instead of `data`.
//
// Bounded: a line, or the data and error text of one event, longer than the parser's
// limit ends the stream with an error naming it, so a server that never sends a line
// break (or never ends an event) cannot make the client buffer without end. The limit
// on a whole stream is the HTTP client's (kMaxStreamedBodyBytes in http_client.hpp).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace hermes::internal {

// One dispatched event. The views are valid only during the callback.
// The default limit on one line and on one event's data. Far beyond any real event: the
// largest a provider sends is a whole response object (Responses' response.completed),
// and MCP messages are capped at the same size (McpServerConfig::max_message_bytes).
inline constexpr std::size_t kMaxSseEventBytes = std::size_t{16} << 20;

struct SseEvent {
  std::string_view event;  // The `event` field; empty when the server sent none.
  std::string_view data;   // The `data` lines joined with "\n".
  std::string_view error;  // The value of an `error` field (see has_error).
  bool has_data = false;   // At least one `data` line arrived (data may still be empty).
  bool has_error = false;  // An `error` line arrived.
};

// Splits a byte stream into events.
//
// Thread-safety: none; one parser per stream.
class SseParser {
 public:
  using Handler = std::function<void(const SseEvent&)>;

  // `max_event_bytes` bounds each line and each event's data (plus error) text.
  explicit SseParser(Handler on_event, std::size_t max_event_bytes = kMaxSseEventBytes)
      : on_event_(std::move(on_event)), max_event_bytes_(max_event_bytes) {}

  // Consumes the next slice of the body, dispatching every event it completes. Returns
  // false once the stream broke the limit (see error()): the rest of the stream, this
  // slice included, is ignored. Where the body is cut into slices never matters.
  bool feed(std::string_view bytes);

  // The body ended: a last unterminated line is processed and a pending event is
  // dispatched, as servers that omit the final blank line expect. Does nothing after
  // the limit was broken.
  void finish();

  // Empty while the stream stays within the limit; then what broke it, naming the limit.
  const std::string& error() const { return limit_error_; }

  // What a client reconnecting to the stream needs: the last event id (the `id` field,
  // which carries over to later events and is taken when an event ends, even one without
  // data; empty before any) and the reconnection delay the server asked for with `retry`.
  const std::string& last_event_id() const { return last_event_id_; }
  std::optional<std::chrono::milliseconds> retry() const { return retry_; }

 private:
  std::size_t skip_bom(std::string_view bytes);
  // `borrowable`: the line lies in the slice being fed, so its data need not be copied
  // until the slice ends.
  void process_line(std::string_view line, bool borrowable);
  void process_field(std::string_view name, std::string_view value, bool borrowable);
  void append_data(std::string_view value, bool borrowable);
  void dispatch();
  void keep_borrowed_data();
  std::size_t data_size() const { return data_borrowed_ ? data_view_.size() : data_.size(); }
  // Records that `what` ("a line", "an event") outgrew the limit; returns false.
  bool exceed(const char* what);
  bool failed() const { return !limit_error_.empty(); }

  Handler on_event_;
  std::size_t max_event_bytes_;
  std::string limit_error_;
  std::string partial_;          // An incomplete line carried over from an earlier slice.
  bool after_cr_ = false;        // The last byte seen ended a line with CR: skip a next LF.
  std::size_t bom_matched_ = 0;  // Bytes of a leading UTF-8 byte-order mark seen so far.
  bool started_ = false;         // Past the point where a byte-order mark may appear.

  std::string event_;
  std::string error_;
  bool has_error_ = false;
  // The data buffer. A single data line inside the current slice is only borrowed
  // (data_view_); it is copied into data_ when a second line arrives or the slice ends.
  std::string data_;
  std::string_view data_view_;
  bool data_borrowed_ = false;
  bool has_data_ = false;

  std::string id_buffer_;  // The `id` field seen so far; committed when an event ends.
  std::string last_event_id_;
  std::optional<std::chrono::milliseconds> retry_;
};

}  // namespace hermes::internal
