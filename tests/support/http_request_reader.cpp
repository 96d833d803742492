#include "support/http_request_reader.hpp"

#include <cctype>
#include <charconv>
#include <string>
#include <string_view>

#include "common/text_utils.hpp"

namespace hermes::testing {
namespace {

constexpr std::size_t kMaxHeaders = 256;

bool has_token(std::string_view value, std::string_view token) {
  return internal::lower_ascii(value).find(token) != std::string::npos;
}

// "METHOD SP target SP HTTP/x.y"
bool parse_request_line(std::string_view line, RecordedRequest& request, bool& http10) {
  std::size_t first = line.find(' ');
  std::size_t last = line.rfind(' ');
  if (first == std::string_view::npos || first == last) return false;
  std::string_view version = line.substr(last + 1);
  if (version.substr(0, 5) != "HTTP/") return false;
  request.method = line.substr(0, first);
  request.path = trim_ows(line.substr(first + 1, last - first - 1));
  http10 = version == "HTTP/1.0";
  return !request.method.empty() && !request.path.empty();
}

// Repeated fields are joined with ", ", which is what they mean (RFC 9110 5.3).
bool add_header(std::string_view line, RecordedRequest& request) {
  std::size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  std::string name = internal::lower_ascii(trim_ows(line.substr(0, colon)));
  std::string_view value = trim_ows(line.substr(colon + 1));
  auto [it, inserted] = request.headers.try_emplace(std::move(name), value);
  if (!inserted) it->second.append(", ").append(value);
  return true;
}

bool parse_framing(const RecordedRequest& request, bool http10, RequestFraming& framing) {
  framing = RequestFraming{};
  const auto& headers = request.headers;
  if (auto it = headers.find("transfer-encoding"); it != headers.end()) {
    framing.chunked = has_token(it->second, "chunked");
  }
  if (auto it = headers.find("content-length"); it != headers.end() && !framing.chunked) {
    std::string_view text = it->second;
    auto [end, error] =
        std::from_chars(text.data(), text.data() + text.size(), framing.content_length);
    if (error != std::errc() || end != text.data() + text.size()) return false;
  }
  if (auto it = headers.find("expect"); it != headers.end()) {
    framing.expects_continue = has_token(it->second, "100-continue");
  }
  auto connection = headers.find("connection");
  bool says_close = connection != headers.end() && has_token(connection->second, "close");
  bool says_keep = connection != headers.end() && has_token(connection->second, "keep-alive");
  framing.keep_alive = !says_close && (!http10 || says_keep);
  return true;
}

}  // namespace

ReadResult HttpRequestReader::read_head(RecordedRequest& request, RequestFraming& framing) {
  std::string line;
  do {  // Blank lines before a request line are tolerated (RFC 9112 2.2).
    if (ReadResult r = socket_.read_line(line); r != ReadResult::kOk) return r;
  } while (line.empty());
  bool http10 = false;
  if (!parse_request_line(line, request, http10)) return ReadResult::kMalformed;
  for (std::size_t count = 0;; ++count) {
    if (ReadResult r = socket_.read_line(line); r != ReadResult::kOk) return r;
    if (line.empty()) break;
    if (count == kMaxHeaders || !add_header(line, request)) return ReadResult::kMalformed;
  }
  return parse_framing(request, http10, framing) ? ReadResult::kOk : ReadResult::kMalformed;
}

ReadResult HttpRequestReader::read_body(const RequestFraming& framing, RecordedRequest& request) {
  if (framing.chunked) return socket_.read_chunked(request.body);
  return socket_.read_exact(framing.content_length, request.body);
}

}  // namespace hermes::testing
