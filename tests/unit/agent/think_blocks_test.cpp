// Reasoning blocks some models inline in their visible text are removed from answers.
#include <doctest/doctest.h>

#include "common/text_utils.hpp"

using hermes::internal::strip_think_blocks;

TEST_CASE("every kind of think block is removed, whatever the case of its tags") {
  CHECK(strip_think_blocks("<think>plan</think>Answer.") == "Answer.");
  CHECK(strip_think_blocks("<THINKING>a</Thinking> Hi <reasoning>b</reasoning>there") == "Hi there");
  CHECK(strip_think_blocks("x<reasoning_scratchpad>y</reasoning_scratchpad>z") == "xz");
  CHECK(strip_think_blocks("<think>one</think>A<think>two</think>B") == "AB");
}

TEST_CASE("an unclosed think block hides everything after it") {
  CHECK(strip_think_blocks("Visible. <think>still thinking") == "Visible.");
}

TEST_CASE("text without think tags is only trimmed, other angle brackets included") {
  CHECK(strip_think_blocks("  plain answer \n") == "plain answer");
  CHECK(strip_think_blocks("a < b and <b>bold</b> <thin>") == "a < b and <b>bold</b> <thin>");
  CHECK(strip_think_blocks("ends with <") == "ends with <");
  CHECK(strip_think_blocks("") == "");
}

TEST_CASE("removing think blocks keeps the whitespace a continuation part starts with") {
  using hermes::internal::remove_think_blocks;
  CHECK(remove_think_blocks(" two, as computed.") == " two, as computed.");
  CHECK(remove_think_blocks("<think>go on</think> two.") == " two.");
  CHECK(remove_think_blocks("forty <think>unclosed") == "forty ");
}
