#include "context/summary_markers.hpp"

#include <doctest/doctest.h>

#include "context/compaction_assembly.hpp"
#include "context/tool_result_pruning.hpp"
#include "unit/context/transcript_builder.hpp"

namespace hermes::internal {
namespace {

using testing::fixture_text;

TEST_CASE("the framing texts match the reference byte for byte") {
  CHECK(kContextSummaryPrefix == fixture_text("summary_prefix"));
  CHECK(kContextSummaryEndMarker == fixture_text("summary_end_marker"));
  CHECK(kCompactionSystemNote == fixture_text("system_note"));
  CHECK(kDuplicateToolOutput == fixture_text("duplicate_tool_output"));
  CHECK(kScreenshotRemoved == fixture_text("screenshot_removed"));
  CHECK(kImageStripped == fixture_text("image_stripped"));
  CHECK(kSummarizedResultStub == fixture_text("summarized_result_stub"));
  CHECK(kToolCallRemovedContent == fixture_text("tool_call_removed"));
  CHECK(kMergedPriorContextHeader == fixture_text("merged_prior_context_header"));
  CHECK(kMergedSummaryDelimiter == fixture_text("merged_summary_delimiter"));
}

TEST_CASE("summaries are recognised by metadata, current, legacy and older prefixes") {
  Message flagged = Message::assistant("anything");
  flagged.extra = Json{{"_compressed_summary", true}};
  CHECK(is_summary_message(flagged));
  CHECK(is_summary_message(Message::user(with_summary_prefix("body"))));
  CHECK(is_summary_message(Message::user(fixture_text("legacy_summary_prefix") + " body")));
  CHECK(is_summary_message(Message::user(fixture_text("older_summary_prefix") + "\nbody")));
  CHECK_FALSE(is_summary_message(Message::user("[CONTEXT is a word] hello")));
  CHECK_FALSE(is_summary_message(Message::user("hello")));
}

TEST_CASE("stripping a summary leaves only its body, whatever prefix it had") {
  CHECK(strip_summary_prefix(with_summary_prefix("## Goal\nship it")) == "## Goal\nship it");
  CHECK(strip_summary_prefix(fixture_text("legacy_summary_prefix") + " old body") == "old body");
  CHECK(strip_summary_prefix(fixture_text("older_summary_prefix") + "\n## Active Task\nx") ==
        "## Active Task\nx");
  const std::string standalone =
      with_summary_prefix("body") + "\n\n" + std::string(kContextSummaryEndMarker);
  CHECK(strip_summary_prefix(standalone) == "body");
  const std::string merged = std::string(kMergedPriorContextHeader) + "\nold tail text\n\n" +
                             std::string(kMergedSummaryDelimiter) + "\n\n" +
                             with_summary_prefix("merged body") + "\n\n" +
                             std::string(kContextSummaryEndMarker);
  CHECK(strip_summary_prefix(merged) == "merged body");
  CHECK(summary_shape(merged) == SummaryShape::kMerged);
  CHECK(summary_shape(standalone) == SummaryShape::kStandalone);
}

TEST_CASE("a merged summary gives back the message it was merged into") {
  Message merged = Message::assistant(
      std::string(kMergedPriorContextHeader) + "\nI ran the tests.\n\n" +
      std::string(kMergedSummaryDelimiter) + "\n\n" + with_summary_prefix("body") + "\n\n" +
      std::string(kContextSummaryEndMarker));
  merged.extra = Json{{"_compressed_summary", true}};
  const auto unwrapped = without_summary(merged);
  REQUIRE(unwrapped);
  CHECK(unwrapped->content == "I ran the tests.");
  CHECK(unwrapped->extra.is_null());
  CHECK_FALSE(without_summary(Message::user(with_summary_prefix("only a summary"))));
  // A summary with the live request after its end marker keeps the request.
  const auto leading =
      without_summary(Message::user(with_summary_prefix("b") + "\n\n" +
                                    std::string(kContextSummaryEndMarker) + "\n\nfix the bug"));
  REQUIRE(leading);
  CHECK(leading->content == "fix the bug");
}

TEST_CASE("runtime-written user rows are not user turns") {
  CHECK(is_real_user_turn(Message::user("please fix it")));
  CHECK_FALSE(is_real_user_turn(Message::user("   ")));
  CHECK_FALSE(is_real_user_turn(Message::user(with_summary_prefix("x"))));
  CHECK_FALSE(is_real_user_turn(Message::user(std::string(kContinuationUserContent))));
  CHECK_FALSE(is_real_user_turn(Message::user(std::string(kTodoSnapshotHeader) + "\n- [ ] a")));
  Message scaffold = Message::user("Continue.");
  scaffold.scaffolding = true;
  CHECK_FALSE(is_real_user_turn(scaffold));
  CHECK_FALSE(is_real_user_turn(Message::assistant("hi")));
}

TEST_CASE("the public check agrees with the engine's") {
  CHECK(is_context_summary(Message::user(with_summary_prefix("x"))));
  CHECK_FALSE(is_context_summary(Message::user("x")));
}

}  // namespace
}  // namespace hermes::internal
