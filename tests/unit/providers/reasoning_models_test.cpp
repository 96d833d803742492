#include "providers/reasoning_models.hpp"

#include <doctest/doctest.h>

using hermes::internal::bare_model;
using hermes::internal::is_openai_classic_model;
using hermes::internal::is_openai_reasoning_model;
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

TEST_CASE("a bare model id drops the aggregator prefix, case and surrounding space") {
  CHECK(bare_model(" OpenRouter/OpenAI/O3-Mini ") == "o3-mini");
  CHECK(bare_model("gpt-5") == "gpt-5");
  CHECK(bare_model("") == "");
}

TEST_CASE("OpenAI reasoning and classic families are told apart") {
  for (const char* model : {"gpt-5", "gpt-5.1-codex", "o1", "o3-mini", "o4-mini-high", "o3-pro"}) {
    CAPTURE(model);
    CHECK(is_openai_reasoning_model(model));
    CHECK_FALSE(is_openai_classic_model(model));
  }
  for (const char* model : {"gpt-4.1-mini", "gpt-4o", "gpt-3.5-turbo", "chatgpt-4o-latest"}) {
    CAPTURE(model);
    CHECK(is_openai_classic_model(model));
    CHECK_FALSE(is_openai_reasoning_model(model));
  }
  for (const char* model : {"o3community-7b", "olmo-2", "qwen3-32b", "grok-4"}) {
    CAPTURE(model);
    CHECK_FALSE(is_openai_reasoning_model(model));
    CHECK_FALSE(is_openai_classic_model(model));
  }
}
