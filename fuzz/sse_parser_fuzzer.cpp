// The SSE parser on arbitrary body bytes. Checks that slicing never changes the events
// (a network may cut a body anywhere: inside a line, a CRLF pair or a character), nor
// where a size limit stops the stream; that no field value carries a line break it should
// have split on, nor an event more bytes than the limit; and that no event outlives the
// slice it was parsed from (the slices are freed as soon as each feed returns).
#include <string>
#include <vector>

#include "fuzz/fuzz_support.hpp"
#include "providers/sse_parser.hpp"

namespace {

using hermes::internal::SseEvent;
using hermes::internal::SseParser;

struct Recorded {
  std::string event, data, error;
  bool has_data = false;
  bool has_error = false;
  bool operator==(const Recorded&) const = default;
};

void check(const SseEvent& e, std::size_t limit) {
  using hermes::fuzz::require;
  require(e.data.size() + e.error.size() <= limit, "an event larger than the limit");
  require(e.event.find_first_of("\r\n") == std::string_view::npos, "event name has a line break");
  require(e.data.find('\r') == std::string_view::npos, "data has a CR");
  require(e.error.find('\r') == std::string_view::npos, "error has a CR");
  require(e.has_data || e.data.empty(), "data without a data line");
  require(e.has_error || e.error.empty(), "error without an error line");
}

struct Parsed {
  std::vector<Recorded> events;
  std::string error;
  bool operator==(const Parsed&) const = default;
};

Parsed parse(std::string_view body, const std::vector<std::size_t>& cuts, std::size_t limit) {
  Parsed out;
  SseParser parser(
      [&out, limit](const SseEvent& e) {
        check(e, limit);
        out.events.push_back({std::string(e.event), std::string(e.data), std::string(e.error),
                              e.has_data, e.has_error});
      },
      limit);
  hermes::fuzz::feed_in_slices(body, cuts, [&](std::string_view slice) { parser.feed(slice); });
  parser.finish();
  out.error = parser.error();
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view body = hermes::fuzz::as_text(data, size);
  hermes::fuzz::no_throw("SseParser", [&] {
    const std::vector<std::size_t> cuts = hermes::fuzz::slice_cuts(body);
    // The default limit, and one small enough for the inputs to reach.
    for (std::size_t limit : {hermes::internal::kMaxSseEventBytes, std::size_t{64}}) {
      const Parsed whole = parse(body, {}, limit);
      const Parsed sliced = parse(body, cuts, limit);
      hermes::fuzz::require(whole == sliced,
                            "slicing changed the events or where the limit stopped");
    }
  });
  return 0;
}
