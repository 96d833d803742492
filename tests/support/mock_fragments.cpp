#include "support/mock_fragments.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>

namespace hermes::testing {
namespace {

std::atomic<std::uint64_t> next_id{1};

}  // namespace

std::string dump(const OrderedJson& value) {
  return value.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

std::string next_mock_id(std::string_view prefix) {
  return std::string(prefix) + std::to_string(next_id++);
}

std::vector<MockToolCall> with_ids(std::vector<MockToolCall> calls, std::string_view prefix) {
  for (MockToolCall& call : calls) {
    if (call.id.empty()) call.id = next_mock_id(prefix);
  }
  return calls;
}

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = start;
    while (end < text.size() && is_space(text[end])) ++end;
    while (end < text.size() && !is_space(text[end])) ++end;
    words.push_back(text.substr(start, end - start));
    start = end;
  }
  return words;
}

std::vector<std::string> split_fragments(const std::string& text) {
  const std::size_t size = std::max<std::size_t>(8, (text.size() + 63) / 64);
  std::vector<std::string> pieces;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = std::min(start + size, text.size());
    while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
    pieces.push_back(text.substr(start, end - start));
    start = end;
  }
  return pieces;
}

MockResponse json_response(const OrderedJson& body, int status) {
  MockResponse response;
  response.status = status;
  response.headers = {{"Content-Type", "application/json"}};
  response.body = dump(body);
  return response;
}

std::string sse_event(std::string_view name, const OrderedJson& data) {
  return "event: " + std::string(name) + "\ndata: " + dump(data) + "\n\n";
}

MockResponse sse_response(std::vector<std::string> events) {
  MockResponse response;
  response.headers = {{"Content-Type", "text/event-stream"}, {"Cache-Control", "no-cache"}};
  response.chunks = std::move(events);
  return response;
}

}  // namespace hermes::testing
