#include "context/compression_triggers.hpp"

#include <doctest/doctest.h>

namespace hermes::internal {
namespace {

TEST_CASE("turn start looks closer only past the protected messages or the threshold") {
  CHECK_FALSE(preflight_worth_checking(24, 3, 20, 5'000, 100'000));
  CHECK(preflight_worth_checking(25, 3, 20, 5'000, 100'000));
  // One huge pasted message in a short conversation.
  CHECK(preflight_worth_checking(3, 3, 20, 150'000, 100'000));
}

TEST_CASE("a pass made progress when it removed messages or 5% of the tokens") {
  CHECK(compression_pass_made_progress({40, 100'000}, {39, 100'000}));
  CHECK(compression_pass_made_progress({40, 100'000}, {40, 94'999}));
  CHECK_FALSE(compression_pass_made_progress({40, 100'000}, {40, 95'000}));
  CHECK(compression_pass_made_progress({40, 100'000}, {41, 90'000}));  // Tokens alone suffice.
  CHECK_FALSE(compression_pass_made_progress({40, 100'000}, {41, 99'000}));
}

TEST_CASE("preflight passes continue while over the threshold and making progress, three at most") {
  const int64_t threshold = 100'000;
  CHECK(should_run_another_preflight_pass(1, {80, 300'000}, {40, 200'000}, threshold));
  CHECK_FALSE(
      should_run_another_preflight_pass(1, {80, 300'000}, {40, 90'000}, threshold));  // Fits now.
  CHECK_FALSE(
      should_run_another_preflight_pass(1, {40, 200'000}, {40, 199'000}, threshold));  // Stuck.
  CHECK(should_run_another_preflight_pass(2, {40, 200'000}, {38, 199'000}, threshold));
  CHECK_FALSE(should_run_another_preflight_pass(3, {80, 300'000}, {40, 200'000}, threshold));
}

TEST_CASE("after a tool round the provider's prompt size decides, the sentinel counting as 0") {
  CHECK(post_tool_prompt_tokens(42'000, 99'999) == 42'000);
  CHECK(post_tool_prompt_tokens(-1, 99'999) == 0);
  CHECK(post_tool_prompt_tokens(0, 99'999) == 99'999);
}

TEST_CASE("the idle trigger needs quiet and growth since the last compaction") {
  // floor = 100,000 × 0.2 = 20,000.
  CHECK_FALSE(should_compact_after_idle(4'000, 0, 90'000, 100'000, 0.2, 0));    // Off.
  CHECK_FALSE(should_compact_after_idle(100, 3'600, 90'000, 100'000, 0.2, 0));  // Not idle long.
  CHECK(should_compact_after_idle(4'000, 3'600, 20'001, 100'000, 0.2, 0));
  CHECK_FALSE(should_compact_after_idle(4'000, 3'600, 20'000, 100'000, 0.2, 0));
  CHECK_FALSE(should_compact_after_idle(4'000, 3'600, 50'000, 100'000, 0.2, 40'000));
  CHECK(should_compact_after_idle(4'000, 3'600, 60'001, 100'000, 0.2, 40'000));
}

TEST_CASE("an overflow lowers the window only to a smaller stated limit") {
  CHECK(context_length_after_overflow(200'000, 128'000) == 128'000);
  CHECK_FALSE(context_length_after_overflow(200'000, 400'000));
  CHECK_FALSE(context_length_after_overflow(200'000, std::nullopt));
  CHECK(context_length_after_overflow(200'000, std::nullopt, true) == 128'000);
  CHECK(context_length_after_overflow(256'000, std::nullopt, true) == 128'000);
  CHECK(context_length_after_overflow(300'000, std::nullopt, true) == 256'000);
  CHECK_FALSE(context_length_after_overflow(8'000, std::nullopt, true));
  CHECK(next_probe_tier(64'000) == 32'000);
}

}  // namespace
}  // namespace hermes::internal
