// The iteration budget of a turn: a step takes one, a refund gives one back, and nothing
// goes past the limit or below zero.
#include "agent/iteration_budget.hpp"

#include <doctest/doctest.h>

using hermes::internal::IterationBudget;

TEST_CASE("a budget of two allows two steps and refuses the third") {
  IterationBudget budget(2);
  CHECK(budget.consume());
  CHECK(budget.consume());
  CHECK_FALSE(budget.consume());
  CHECK(budget.used() == 2);
  CHECK(budget.remaining() == 0);
  CHECK(budget.max_total() == 2);
}

TEST_CASE("a refunded step can be taken again") {
  IterationBudget budget(2);
  REQUIRE(budget.consume());
  budget.refund();  // The step did not count.
  CHECK(budget.used() == 0);
  CHECK(budget.consume());
  CHECK(budget.consume());
  CHECK_FALSE(budget.consume());
  budget.refund();
  CHECK(budget.remaining() == 1);
  CHECK(budget.consume());
}

TEST_CASE("a refund with nothing used gives nothing") {
  IterationBudget budget(1);
  budget.refund();
  CHECK(budget.used() == 0);
  CHECK(budget.remaining() == 1);
  CHECK(budget.consume());
  CHECK_FALSE(budget.consume());
}
