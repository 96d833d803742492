// Whatever the shape of the transcript, a compaction leaves turns alternating: the
// summary takes the role its neighbours leave free, or merges into the first tail message
// when neither role is free.
#include <doctest/doctest.h>

#include <random>

#include "hermes/context_compressor.hpp"
#include "unit/context/transcript_builder.hpp"

namespace hermes {
namespace {

using testing::bulk;
using testing::transcript_problem;
using testing::TranscriptBuilder;

// A valid transcript of random shape: an optional system prompt, user turns answered by
// plain replies or by tool rounds (one or several calls) ending in a reply or not.
std::vector<Message> random_transcript(std::mt19937& rng) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  TranscriptBuilder t;
  if (pick(3) != 0) t.system("system prompt");
  const int turns = 2 + pick(7);
  for (int turn = 0; turn < turns; ++turn) {
    t.user("question " + std::to_string(turn) + " " + bulk("u", 50 + pick(400)));
    const int rounds = pick(4);
    for (int r = 0; r < rounds; ++r) {
      if (pick(4) == 0) {
        t.parallel_round({{"read_file", "{}", bulk("p", 200 + pick(3'000))},
                          {"search", "{}", bulk("q", 200 + pick(3'000))}});
      } else {
        t.tool_round("terminal", R"({"command":"ls"})", bulk("t", 200 + pick(4'000)));
      }
    }
    if (rounds == 0 || pick(3) != 0 || turn + 1 < turns)
      t.assistant("answer " + bulk("a", 100 + pick(800)));
  }
  return t.build();
}

}  // namespace

TEST_CASE("no compaction leaves two user or two assistant turns in a row") {
  std::mt19937 rng(20260702);
  int compacted = 0;
  for (int i = 0; i < 300; ++i) {
    const std::vector<Message> input = random_transcript(rng);
    REQUIRE(transcript_problem(input).empty());
    ContextCompressorOptions o;
    o.context_length = 16'000;
    o.protect_first_n = static_cast<int>(rng() % 4);
    o.protect_last_n = 3 + static_cast<int>(rng() % 6);
    auto c = ContextCompressor::create(std::move(o));
    REQUIRE(c.ok());
    const auto out = (*c)->compress(input, CompressOptions{});
    REQUIRE(out.ok());
    CAPTURE(i);
    CHECK(transcript_problem(*out) == "");
    compacted += (*c)->last_report().compacted ? 1 : 0;
    // A second compaction of the result keeps the rule too.
    const auto again = (*c)->compress(*out, CompressOptions{});
    REQUIRE(again.ok());
    CHECK(transcript_problem(*again) == "");
  }
  CHECK(compacted > 100);  // The property was tested on real compactions.
}

}  // namespace hermes
