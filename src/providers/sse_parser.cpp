#include "providers/sse_parser.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>

#include "common/text_utils.hpp"

namespace hermes::internal {
namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

// A `retry` value: ASCII digits only, else the field is ignored.
std::optional<std::chrono::milliseconds> parse_retry(std::string_view value) {
  if (value.empty() ||
      !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  std::int64_t ms = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), ms);
  if (error == std::errc::result_out_of_range) ms = INT64_MAX;  // Digits, just too many.
  return std::chrono::milliseconds(ms);
}

}  // namespace

bool SseParser::feed(std::string_view bytes) {
  if (failed()) return false;
  std::size_t pos = skip_bom(bytes);
  if (pos < bytes.size() && after_cr_) {
    // The CR that ended the previous slice was the first half of a CRLF.
    if (bytes[pos] == '\n') ++pos;
    after_cr_ = false;
  }
  while (pos < bytes.size()) {
    const std::size_t end = bytes.find_first_of("\r\n", pos);
    const std::size_t line_end = end == std::string_view::npos ? bytes.size() : end;
    if (partial_.size() + (line_end - pos) > max_event_bytes_) return exceed("a line");
    if (end == std::string_view::npos) {
      partial_.append(bytes.substr(pos));
      break;
    }
    const std::string_view line = bytes.substr(pos, end - pos);
    if (partial_.empty()) {
      process_line(line, /*borrowable=*/true);
    } else {
      partial_.append(line);
      process_line(partial_, /*borrowable=*/false);
      partial_.clear();
    }
    if (failed()) return false;
    pos = end + 1;
    if (bytes[end] == '\r') {
      if (pos == bytes.size()) {
        after_cr_ = true;
      } else if (bytes[pos] == '\n') {
        ++pos;
      }
    }
  }
  // Borrowed data points into `bytes`, which the caller may reuse after this call.
  keep_borrowed_data();
  return true;
}

bool SseParser::exceed(const char* what) {
  limit_error_ = std::string("the event stream sent ") + what + " longer than " +
                 byte_size_text(max_event_bytes_);
  partial_.clear();
  data_.clear();
  data_borrowed_ = false;
  error_.clear();
  return false;
}

void SseParser::finish() {
  if (failed()) return;
  if (!started_) {
    partial_.insert(0, kByteOrderMark.substr(0, bom_matched_));
    started_ = true;
  }
  if (!partial_.empty()) {
    const std::string line = std::move(partial_);
    partial_.clear();
    process_line(line, /*borrowable=*/false);
  }
  if (!failed()) dispatch();
  after_cr_ = false;
}

std::size_t SseParser::skip_bom(std::string_view bytes) {
  if (started_) return 0;
  const std::size_t already = bom_matched_;
  std::size_t i = 0;
  while (bom_matched_ < kByteOrderMark.size() && i < bytes.size() &&
         bytes[i] == kByteOrderMark[bom_matched_]) {
    ++bom_matched_;
    ++i;
  }
  if (bom_matched_ == kByteOrderMark.size()) {
    started_ = true;
    return i;
  }
  if (i == bytes.size()) return i;  // Still a possible mark: wait for the next slice.
  // Not a mark after all: the bytes matched in earlier slices are content.
  started_ = true;
  partial_.append(kByteOrderMark.substr(0, already));
  return 0;
}

void SseParser::process_line(std::string_view line, bool borrowable) {
  if (line.empty()) {
    dispatch();
    return;
  }
  if (line.front() == ':') return;  // A comment: keep-alive noise.
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) {
    process_field(line, {}, borrowable);
    return;
  }
  std::string_view value = line.substr(colon + 1);
  if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  process_field(line.substr(0, colon), value, borrowable);
}

void SseParser::process_field(std::string_view name, std::string_view value, bool borrowable) {
  if (name == "data") {
    append_data(value, borrowable);
  } else if (name == "event") {
    event_.assign(value);
  } else if (name == "error") {
    if (data_size() + (has_error_ ? error_.size() + 1 : 0) + value.size() > max_event_bytes_) {
      exceed("an event");
      return;
    }
    if (has_error_) error_.push_back('\n');
    error_.append(value);
    has_error_ = true;
  } else if (name == "id") {
    // An id with NUL in it is ignored (WHATWG): it could not be sent back in a header.
    if (value.find('\0') == std::string_view::npos) id_buffer_.assign(value);
  } else if (name == "retry") {
    if (auto delay = parse_retry(value)) retry_ = delay;
  }
  // Unknown fields are ignored.
}

void SseParser::append_data(std::string_view value, bool borrowable) {
  const std::size_t grown = (has_data_ ? data_size() + 1 : 0) + value.size();
  if (grown + error_.size() > max_event_bytes_) {
    exceed("an event");
    return;
  }
  if (!has_data_) {
    has_data_ = true;
    if (borrowable) {
      data_view_ = value;
      data_borrowed_ = true;
    } else {
      data_.assign(value);
    }
    return;
  }
  keep_borrowed_data();
  data_.push_back('\n');
  data_.append(value);
}

void SseParser::keep_borrowed_data() {
  if (!data_borrowed_) return;
  data_.assign(data_view_);
  data_borrowed_ = false;
}

void SseParser::dispatch() {
  last_event_id_ = id_buffer_;  // Even an event without data moves the resume point.
  if (!has_data_ && event_.empty() && !has_error_) return;
  SseEvent event;
  event.event = event_;
  event.data = data_borrowed_ ? data_view_ : std::string_view(data_);
  event.error = error_;
  event.has_data = has_data_;
  event.has_error = has_error_;
  on_event_(event);
  event_.clear();
  data_.clear();
  data_borrowed_ = false;
  has_data_ = false;
  error_.clear();
  has_error_ = false;
}

}  // namespace hermes::internal
