// Retries of truncated responses get a larger output cap, within bounds.
#include <doctest/doctest.h>

#include "agent/output_boost.hpp"

using hermes::internal::boosted_output_cap;

TEST_CASE("without a configured cap the boost doubles 4096 per attempt up to 32768") {
  CHECK(boosted_output_cap(std::nullopt, 1) == 8192);
  CHECK(boosted_output_cap(std::nullopt, 2) == 16384);
  CHECK(boosted_output_cap(std::nullopt, 3) == 32768);
  CHECK(boosted_output_cap(std::nullopt, 4) == 32768);
}

TEST_CASE("a configured cap is the base, and one above 32768 is never lowered") {
  CHECK(boosted_output_cap(1000, 1) == 2000);
  CHECK(boosted_output_cap(100000, 1) == 100000);
  CHECK(boosted_output_cap(100000, 4) == 100000);
}
