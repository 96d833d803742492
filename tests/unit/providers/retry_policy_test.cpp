#include "providers/retry_policy.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <set>

using namespace std::chrono_literals;
using hermes::internal::jittered_backoff;

TEST_CASE("backoff doubles per attempt and adds at most half again as jitter") {
  for (int attempt = 1; attempt <= 8; ++attempt) {
    CAPTURE(attempt);
    const auto base = std::min<std::chrono::milliseconds>(2000ms * (1 << (attempt - 1)), 60s);
    for (int i = 0; i < 20; ++i) {
      const auto delay = jittered_backoff(attempt, 2s, 60s);
      CHECK(delay >= base);
      CHECK(delay <= base + base / 2);
    }
  }
}

TEST_CASE("backoff treats attempts below one as the first and survives huge attempts") {
  CHECK(jittered_backoff(0, 5s, 120s) <= 7500ms);
  CHECK(jittered_backoff(-3, 5s, 120s) >= 5s);
  const auto capped = jittered_backoff(10'000, 5s, 120s);
  CHECK(capped >= 120s);
  CHECK(capped <= 180s);
}

TEST_CASE("consecutive backoffs do not repeat in lockstep") {
  std::set<int64_t> delays;
  for (int i = 0; i < 50; ++i)
    delays.insert(jittered_backoff(3, hermes::internal::kApiErrorBackoff).count());
  CHECK(delays.size() > 40);
}

TEST_CASE("a server-requested delay is capped at ten minutes") {
  using hermes::internal::retry_after_delay;
  CHECK(retry_after_delay(7) == 7s);
  CHECK(retry_after_delay(1.25) == 1250ms);
  CHECK(retry_after_delay(3600) == 600s);
  CHECK(retry_after_delay(-1) == 0ms);
  CHECK(retry_after_delay(std::nan("")) == 0ms);
}

TEST_CASE("rate-limit messages suggest a delay when no header does") {
  using hermes::internal::retry_hint_from_message;
  CHECK(retry_hint_from_message("Please try again in 1.146s. Visit ...") == doctest::Approx(1.146));
  CHECK(retry_hint_from_message("Rate limit reached. Please try again in 84ms.") ==
        doctest::Approx(0.084));
  CHECK(retry_hint_from_message("Please retry after 20 seconds") == doctest::Approx(20));
  CHECK(retry_hint_from_message("try again in 1m30s") == doctest::Approx(90));
  CHECK_FALSE(retry_hint_from_message("Please try again later.").has_value());
  CHECK_FALSE(retry_hint_from_message("").has_value());
}
