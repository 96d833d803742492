#include "support/socket_reader.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <string_view>

namespace hermes::testing {
namespace {

// Limits that keep a confused peer from making a reader buffer without end.
constexpr std::size_t kMaxLine = 64 * 1024;
constexpr std::size_t kMaxBody = 512 * 1024 * 1024;

// The size line of a chunk: hex digits, then optional ";extensions".
bool parse_chunk_size(std::string_view line, std::size_t& size) {
  std::string_view digits = trim_ows(line.substr(0, line.find(';')));
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), size, 16);
  return !digits.empty() && error == std::errc() && end == digits.data() + digits.size();
}

}  // namespace

std::string_view trim_ows(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool SocketReader::fill() {
  if (consumed_ == buffer_.size()) {
    buffer_.clear();
  } else if (consumed_ > 0) {
    buffer_.erase(0, consumed_);
  }
  consumed_ = 0;
  for (;;) {
    ssize_t got = recv(fd_, scratch_.data(), scratch_.size(), 0);
    if (got > 0) {
      buffer_.append(scratch_.data(), static_cast<std::size_t>(got));
      return true;
    }
    if (got < 0 && errno == EINTR) continue;
    return false;
  }
}

ReadResult SocketReader::read_line(std::string& line) {
  std::size_t searched = consumed_;
  for (;;) {
    std::size_t newline = buffer_.find('\n', searched);
    if (newline != std::string::npos) {
      std::size_t end = newline;
      if (end > consumed_ && buffer_[end - 1] == '\r') --end;
      line.assign(buffer_, consumed_, end - consumed_);
      consumed_ = newline + 1;
      return ReadResult::kOk;
    }
    if (buffer_.size() - consumed_ > kMaxLine) return ReadResult::kMalformed;
    searched = buffer_.size() - consumed_;  // fill() moves the unread bytes to the front.
    if (!fill()) return ReadResult::kClosed;
  }
}

ReadResult SocketReader::read_exact(std::size_t count, std::string& out) {
  if (count > kMaxBody || out.size() > kMaxBody - count) return ReadResult::kMalformed;
  out.reserve(out.size() + count);
  for (;;) {
    std::size_t take = std::min(count, buffer_.size() - consumed_);
    out.append(buffer_, consumed_, take);
    consumed_ += take;
    count -= take;
    if (count == 0) return ReadResult::kOk;
    if (!fill()) return ReadResult::kClosed;
  }
}

ReadResult SocketReader::read_chunked(std::string& out, std::vector<std::string>* chunks) {
  std::string line;
  for (;;) {
    if (ReadResult r = read_line(line); r != ReadResult::kOk) return r;
    std::size_t size = 0;
    if (!parse_chunk_size(line, size)) return ReadResult::kMalformed;
    if (size == 0) break;
    const std::size_t start = out.size();
    if (ReadResult r = read_exact(size, out); r != ReadResult::kOk) return r;
    if (chunks != nullptr) chunks->emplace_back(out, start, size);
    if (ReadResult r = read_line(line); r != ReadResult::kOk) return r;
    if (!line.empty()) return ReadResult::kMalformed;
  }
  do {
    if (ReadResult r = read_line(line); r != ReadResult::kOk) return r;
  } while (!line.empty());
  return ReadResult::kOk;
}

ReadResult SocketReader::read_to_end(std::string& out) {
  for (;;) {
    out.append(buffer_, consumed_, std::string::npos);
    consumed_ = buffer_.size();
    if (out.size() > kMaxBody) return ReadResult::kMalformed;
    if (!fill()) return ReadResult::kOk;
  }
}

}  // namespace hermes::testing
