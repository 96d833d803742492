#include "context/compaction_boundaries.hpp"

#include <doctest/doctest.h>

#include "unit/context/transcript_builder.hpp"

namespace hermes::internal {
namespace {

using testing::bulk;
using testing::TranscriptBuilder;

TEST_CASE("the head is the system message plus the first n others") {
  TranscriptBuilder t;
  t.system("sys").user("a").assistant("b").user("c").assistant("d");
  CHECK(protected_head_size(t.messages(), 3) == 4);
  CHECK(protected_head_size(t.messages(), 0) == 1);
  CHECK(protected_head_size(t.messages(), 50) == 5);
  TranscriptBuilder no_system;
  no_system.user("a").assistant("b");
  CHECK(protected_head_size(no_system.messages(), 1) == 1);
}

TEST_CASE("boundaries never fall between a tool call and its results") {
  TranscriptBuilder t;
  t.user("go")
      .parallel_round({{"a", "{}", "1"}, {"b", "{}", "2"}, {"c", "{}", "3"}})
      .assistant("done");
  // 0 user, 1 assistant(calls), 2-4 results, 5 assistant
  CHECK(align_boundary_forward(t.messages(), 2) == 5);
  CHECK(align_boundary_forward(t.messages(), 1) == 1);
  CHECK(align_boundary_backward(t.messages(), 4) == 1);
  CHECK(align_boundary_backward(t.messages(), 5) == 1);
  CHECK(align_boundary_backward(t.messages(), 1) == 1);
  CHECK(align_boundary_backward(t.messages(), 0) == 0);
}

// Many rounds of ~1,000-token outputs, across several user turns.
std::vector<Message> long_session(int turns, int rounds_per_turn) {
  TranscriptBuilder t;
  for (int u = 0; u < turns; ++u) {
    t.user("task " + std::to_string(u));
    for (int r = 0; r < rounds_per_turn; ++r) {
      t.tool_round("read_file", R"({"path":"f"})",
                   bulk("turn" + std::to_string(u) + "r" + std::to_string(r), 4000));
    }
    t.assistant("finished task " + std::to_string(u));
  }
  return t.build();
}

TEST_CASE("the tail walks back under the budget with a soft 1.5x ceiling") {
  const auto m = long_session(6, 3);  // 6 × (1 + 6 + 1) = 48 messages.
  const std::size_t cut = find_tail_cut(m, 3, BoundarySettings{20, 2000, 1});
  // The latest user message (index 40) must be in the tail, so the tail is at least its turn.
  CHECK(cut <= 40);
  CHECK(cut > 3);
  CHECK(m[cut].role != Role::kTool);
}

TEST_CASE("the latest user message is kept even when its turn overflows the budget") {
  TranscriptBuilder t;
  t.user("first").assistant("ok").user("second").assistant("ok");
  // A visible reply right after the request, so only the user anchor can reach back to it.
  t.user("the live request");
  for (int r = 0; r < 8; ++r) {
    t.tool_round("terminal", "{}", bulk("out" + std::to_string(r), 8000),
                 r == 0 ? "starting on it" : "");
  }
  const auto m = t.build();
  const std::size_t cut = find_tail_cut(m, 1, BoundarySettings{20, 1000, 1});
  CHECK(cut <= 4);
  CHECK(m[4].content == "the live request");
}

TEST_CASE("the tail keeps at least three messages even when one is huge") {
  TranscriptBuilder t;
  t.user("a").assistant("b").user("c").assistant("d").user("e").assistant("f");
  t.user("g").assistant(bulk("huge", 200000));
  const auto m = t.build();
  const std::size_t cut = find_tail_cut(m, 1, BoundarySettings{20, 100, 1});
  CHECK(m.size() - cut >= 2);
  CHECK(cut > 1);
}

TEST_CASE("a short transcript that fits the budget still leaves something to summarise") {
  TranscriptBuilder t;
  for (int i = 0; i < 6; ++i) t.user("q" + std::to_string(i)).assistant("a" + std::to_string(i));
  const auto m = t.build();
  const std::size_t cut = find_tail_cut(m, 1, BoundarySettings{20, 100000, 1});
  CHECK(cut > 1);
  CHECK(cut < m.size());
}

TEST_CASE("the last n user messages are kept when asked") {
  TranscriptBuilder t;
  for (int i = 0; i < 6; ++i)
    t.user("q" + std::to_string(i)).tool_round("x", "{}", bulk("r", 8000)).assistant("a");
  const auto m = t.build();  // users at 0, 4, 8, 12, 16, 20
  CHECK(find_tail_cut(m, 1, BoundarySettings{3, 100, 3}) <= 12);
  CHECK(find_tail_cut(m, 1, BoundarySettings{3, 100, 1}) <= 20);
}

TEST_CASE("the tail start moves back to the assistant turn before the live request") {
  TranscriptBuilder t;
  t.user("a").assistant("b").user("c").tool_round("x", "{}", "r").assistant("d").user("live");
  const auto m = t.build();  // 0 u, 1 a, 2 u, 3 a(call), 4 tool, 5 a, 6 u
  CHECK(keep_bridge_before_latest_user(m, 1, 6) == 5);
  CHECK(keep_bridge_before_latest_user(m, 5, 6) == 6);  // Would reach into the head.
  CHECK(keep_bridge_before_latest_user(m, 1, 5) == 5);  // Not at the live request.
  TranscriptBuilder tools_first;
  tools_first.user("a").assistant("b").user("c").tool_round("x", "{}", "r").user("live");
  const auto m2 = tools_first.build();  // 0 u, 1 a, 2 u, 3 a(call), 4 tool, 5 u
  CHECK(keep_bridge_before_latest_user(m2, 1, 5) == 3);
}

}  // namespace
}  // namespace hermes::internal
