#include "providers/sse_parser.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "unit/providers/fixture_files.hpp"

using hermes::internal::SseEvent;
using hermes::internal::SseParser;

namespace {

struct Recorded {
  std::string event;
  std::string data;
  std::string error;
  bool has_data = false;
  bool has_error = false;
  bool operator==(const Recorded& o) const {
    return event == o.event && data == o.data && error == o.error && has_data == o.has_data &&
           has_error == o.has_error;
  }
};

// Feeds `text` in slices ending at each of `cuts` (and at the end), then finishes.
std::vector<Recorded> parse(std::string_view text, const std::vector<std::size_t>& cuts = {}) {
  std::vector<Recorded> out;
  SseParser parser([&out](const SseEvent& e) {
    out.push_back(
        {std::string(e.event), std::string(e.data), std::string(e.error), e.has_data, e.has_error});
  });
  std::size_t start = 0;
  for (std::size_t cut : cuts) {
    parser.feed(text.substr(start, cut - start));
    start = cut;
  }
  parser.feed(text.substr(start));
  parser.finish();
  return out;
}

std::vector<std::size_t> every_byte(std::string_view text) {
  std::vector<std::size_t> cuts;
  for (std::size_t i = 1; i < text.size(); ++i) cuts.push_back(i);
  return cuts;
}

// Cuts in the middle of every multi-byte UTF-8 character.
std::vector<std::size_t> inside_multibyte_characters(std::string_view text) {
  std::vector<std::size_t> cuts;
  for (std::size_t i = 1; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) cuts.push_back(i);
  }
  return cuts;
}

std::string replace_all(std::string text, std::string_view from, std::string_view to) {
  std::string out;
  std::size_t pos = 0, hit;
  while ((hit = text.find(from, pos)) != std::string::npos) {
    out.append(text, pos, hit - pos);
    out.append(to);
    pos = hit + from.size();
  }
  out.append(text, pos);
  return out;
}

std::vector<std::string> stream_fixtures() {
  std::vector<std::string> names;
  for (const auto& entry :
       std::filesystem::directory_iterator(hermes::testing::fixture_path("streams"))) {
    if (entry.path().extension() == ".sse") names.push_back(entry.path().filename().string());
  }
  return names;
}

}  // namespace

TEST_CASE("every recorded transcript parses the same however its bytes are sliced") {
  const std::vector<std::string> names = stream_fixtures();
  REQUIRE(names.size() >= 15);
  for (const std::string& name : names) {
    CAPTURE(name);
    const std::string text = hermes::testing::read_fixture("streams/" + name);
    const std::vector<Recorded> whole = parse(text);
    REQUIRE_FALSE(whole.empty());
    CHECK(parse(text, every_byte(text)) == whole);
    CHECK(parse(text, inside_multibyte_characters(text)) == whole);

    const std::string crlf = replace_all(text, "\n", "\r\n");
    CHECK(parse(crlf) == whole);
    CHECK(parse(crlf, every_byte(crlf)) == whole);
    const std::string cr = replace_all(text, "\n", "\r");
    CHECK(parse(cr) == whole);
    CHECK(parse(cr, every_byte(cr)) == whole);

    // Servers that end without the final blank line, or without any line break.
    std::string unterminated = text;
    while (!unterminated.empty() && unterminated.back() == '\n') {
      unterminated.pop_back();
      CHECK(parse(unterminated) == whole);
      CHECK(parse(unterminated, every_byte(unterminated)) == whole);
    }
  }
}

TEST_CASE("the A.1 transcript yields its seven data events in order") {
  const auto events = parse(hermes::testing::read_fixture("streams/a1_text.sse"));
  REQUIRE(events.size() == 7);
  CHECK(events[0].data.rfind(R"({"id":"chatcmpl-TESTA1")", 0) == 0);
  CHECK(events[3].data.find("ça va ?") != std::string::npos);
  CHECK(events[6].data == "[DONE]");
  for (const auto& e : events) CHECK(e.event.empty());
}

TEST_CASE("event names are kept and comments are skipped") {
  const auto events = parse(hermes::testing::read_fixture("streams/a6_2_anthropic_overloaded.sse"));
  REQUIRE(events.size() == 4);
  CHECK(events[0].event == "message_start");
  CHECK(events[3].event == "error");
  CHECK(events[3].data ==
        R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})");

  const auto with_comment = parse(": OPENROUTER PROCESSING\n\n:\n\ndata: x\n\n");
  REQUIRE(with_comment.size() == 1);
  CHECK(with_comment[0].data == "x");
}

TEST_CASE("llama.cpp's error field is surfaced as an error payload") {
  const auto events = parse(hermes::testing::read_fixture("streams/a6_4_llamacpp_error_field.sse"));
  REQUIRE(events.size() == 2);
  CHECK(events[0].has_error);
  CHECK_FALSE(events[0].has_data);
  CHECK(events[0].error.rfind(R"({"code":400,"message":"the request exceeds)", 0) == 0);
  CHECK(events[1].data == "[DONE]");
}

TEST_CASE("multi-line data is joined with line feeds") {
  const auto events = parse("data: first\ndata:second\ndata:  third\n\n");
  REQUIRE(events.size() == 1);
  // One leading space is dropped, a second one is data.
  CHECK(events[0].data == "first\nsecond\n third");
}

TEST_CASE("a data line without a colon is an empty data field") {
  const auto events = parse("data\n\n");
  REQUIRE(events.size() == 1);
  CHECK(events[0].has_data);
  CHECK(events[0].data.empty());
}

TEST_CASE("blank lines without a pending event dispatch nothing") {
  CHECK(parse("\n\n\r\n\r\r\n").empty());
  CHECK(parse("id: 7\nretry: 10\n\n").empty());
}

TEST_CASE("an event with only an event name is dispatched") {
  const auto events = parse("event: ping\n\n");
  REQUIRE(events.size() == 1);
  CHECK(events[0].event == "ping");
  CHECK_FALSE(events[0].has_data);
}

TEST_CASE("a carriage return at the end of a slice waits for the next byte") {
  std::vector<Recorded> out;
  SseParser parser([&out](const SseEvent& e) {
    out.push_back({"", std::string(e.data), "", true, false});
  });
  parser.feed("data: a\r");
  parser.feed("\n");  // Completes the CRLF: no extra blank line.
  CHECK(out.empty());
  parser.feed("\r");
  parser.feed("\ndata: b\r\n\r\n");
  REQUIRE(out.size() == 2);
  CHECK(out[0].data == "a");
  CHECK(out[1].data == "b");
}

TEST_CASE("a leading byte-order mark is skipped, even when split") {
  const std::string text =
      "\xEF\xBB\xBF"
      "data: x\n\n";
  CHECK(parse(text) == parse("data: x\n\n"));
  CHECK(parse(text, {1, 2}) == parse("data: x\n\n"));
  // Bytes that only start like a mark are content.
  const auto events = parse(
      "\xEF\xBB"
      "data: y\n\n",
      {1});
  CHECK(events.empty());  // "\xEF\xBBdata" is an unknown field.
}

TEST_CASE("trailing spaces in data are kept for the JSON parser to skip") {
  const auto events = parse("data: {\"a\":1}   \n\n");
  REQUIRE(events.size() == 1);
  CHECK(events[0].data == "{\"a\":1}   ");
}

TEST_CASE("the last event id is taken when an event ends, data or not, and carries over") {
  SseParser parser([](const SseEvent&) {});
  CHECK(parser.last_event_id().empty());
  parser.feed("id: prime\ndata: \n");
  CHECK(parser.last_event_id().empty());  // The event has not ended yet.
  parser.feed("\n");
  CHECK(parser.last_event_id() == "prime");
  parser.feed("id: 7\n\n");  // No data: nothing dispatched, but the id still counts.
  CHECK(parser.last_event_id() == "7");
  parser.feed("data: no id of its own\n\n");
  CHECK(parser.last_event_id() == "7");
  parser.feed(std::string("id: a\0b\n\n", 9));  // An id with NUL is ignored.
  CHECK(parser.last_event_id() == "7");
}

TEST_CASE("a retry field sets the reconnection delay and anything but digits is ignored") {
  SseParser parser([](const SseEvent&) {});
  CHECK_FALSE(parser.retry().has_value());
  parser.feed("retry: 500\n");
  CHECK(parser.retry() == std::chrono::milliseconds(500));
  parser.feed("retry: 1.5\nretry: -1\nretry:\n\n");
  CHECK(parser.retry() == std::chrono::milliseconds(500));
  parser.feed("retry: 99999999999999999999999\n");
  CHECK(parser.retry() > std::chrono::hours(24));
}

namespace {

// What a parser with `limit` makes of `text` fed in slices ending at `cuts`: the events
// it dispatched and its error.
std::pair<std::vector<Recorded>, std::string> parse_limited(std::string_view text,
                                                            std::size_t limit,
                                                            const std::vector<std::size_t>& cuts) {
  std::vector<Recorded> out;
  SseParser parser(
      [&out](const SseEvent& e) {
        out.push_back({std::string(e.event), std::string(e.data), std::string(e.error), e.has_data,
                       e.has_error});
      },
      limit);
  std::size_t start = 0;
  for (std::size_t cut : cuts) {
    parser.feed(text.substr(start, cut - start));
    start = cut;
  }
  parser.feed(text.substr(start));
  parser.finish();
  return {out, parser.error()};
}

}  // namespace

TEST_CASE("a line that never ends stops the stream at the default limit, naming it") {
  CHECK(hermes::internal::kMaxSseEventBytes == 16u << 20);
  std::size_t dispatched = 0;
  SseParser parser([&](const SseEvent&) { ++dispatched; });
  CHECK(parser.feed("data: first\n\ndata: "));
  const std::string slice(64 << 10, 'x');
  bool accepted = true;
  std::size_t fed = 0;
  for (; accepted && fed < (17u << 20); fed += slice.size()) accepted = parser.feed(slice);
  CHECK_FALSE(accepted);
  CHECK(fed <= (16u << 20) + slice.size());  // Stopped at the limit, not at the end.
  CHECK(parser.error() == "the event stream sent a line longer than 16 MiB");
  CHECK_FALSE(parser.feed("\n\ndata: later\n\n"));  // Nothing after the error counts.
  parser.finish();
  CHECK(dispatched == 1);
}

TEST_CASE("an event whose data lines add up past the limit stops the stream") {
  std::string text = "data: ok\n\n";
  for (int i = 0; i < 20; ++i) text += "data: " + std::string(10, 'a' + i % 26) + "\n";
  text += "\ndata: never\n\n";
  const auto [events, error] = parse_limited(text, 100, {});
  REQUIRE(events.size() == 1);
  CHECK(events[0].data == "ok");
  CHECK(error == "the event stream sent an event longer than 100 bytes");
}

TEST_CASE("error lines count towards an event's size") {
  const auto [events, error] = parse_limited(
      "error: " + std::string(60, 'e') + "\nerror: " + std::string(60, 'e') + "\n\n", 100, {});
  CHECK(events.empty());
  CHECK(error == "the event stream sent an event longer than 100 bytes");
}

TEST_CASE("a line or an event exactly at the limit is accepted") {
  const std::string data(94, 'd');  // "data: " + 94 bytes: a line of exactly 100.
  const auto [events, error] = parse_limited("data: " + data + "\n\n", 100, {});
  CHECK(error.empty());
  REQUIRE(events.size() == 1);
  CHECK(events[0].data == data);
}

TEST_CASE("where the body is sliced never changes what the limit stops") {
  for (const std::string& text :
       {"data: a\n\ndata: " + std::string(300, 'x') + "\n\ndata: b\n\n",
        "data: a\r\n\r\n: " + std::string(300, 'c') + "\r\ndata: b\r\n\r\n",
        "data: a\n\n" + std::string(120, 'y'),
        "data: " + std::string(60, 'p') + "\ndata: " + std::string(60, 'q') + "\n\n"}) {
    CAPTURE(text);
    const auto whole = parse_limited(text, 100, {});
    CHECK_FALSE(whole.second.empty());
    CHECK(parse_limited(text, 100, every_byte(text)) == whole);
  }
}
