#include "providers/reasoning_models.hpp"

#include <doctest/doctest.h>

using hermes::internal::reasoning_stale_timeout_floor;
using namespace std::chrono_literals;

TEST_CASE("known reasoning models get a stale-stream floor") {
  CHECK(reasoning_stale_timeout_floor("deepseek-reasoner") == 600s);
  CHECK(reasoning_stale_timeout_floor("openrouter/openai/o3-mini:free") == 300s);
  CHECK(reasoning_stale_timeout_floor("O3") == 600s);
  CHECK(reasoning_stale_timeout_floor("qwen3-235b-a22b") == 180s);
  CHECK(reasoning_stale_timeout_floor("anthropic/claude-opus-4.1") == 240s);
}

TEST_CASE("look-alike names get no floor") {
  CHECK_FALSE(reasoning_stale_timeout_floor("olmo-1").has_value());
  CHECK_FALSE(reasoning_stale_timeout_floor("llama-4-70b-o1-preview").has_value());
  CHECK_FALSE(reasoning_stale_timeout_floor("some-other-qwen3").has_value());
  CHECK_FALSE(reasoning_stale_timeout_floor("o3community").has_value());
  CHECK_FALSE(reasoning_stale_timeout_floor("").has_value());
}
