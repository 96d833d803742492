// Models that think for minutes before they answer. Their streams go quiet for long
// stretches, so stale-stream watchdogs wait longer for them, and a dropped connection
// on such a model is read as an idle kill rather than as a context overflow.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace hermes::internal {

// The least time a stale-stream watchdog should allow `model` (an id such as
// "deepseek-reasoner" or "openrouter/o3-mini:free"), or nullopt for a model not known
// to reason at length. Aggregator prefixes up to the last '/' are ignored; a slug
// matches the start of the id up to its end or a separator ("-", ".", "_", ":").
std::optional<std::chrono::seconds> reasoning_stale_timeout_floor(std::string_view model);

// `model` trimmed, lower-cased and without an aggregator prefix ("OpenAI/o3-mini" ->
// "o3-mini"). The family tests below take ids in this form.
std::string bare_model(std::string_view model);

// gpt-5*, o1, o3, o4 and their suffixed variants, but not "o3-community-7b"-style local
// models that merely start with the letters. They reject sampling parameters.
bool is_openai_reasoning_model(std::string_view bare);

// GPT-4*, GPT-3.5 and chatgpt-4o: OpenAI models that reject every reasoning parameter.
bool is_openai_classic_model(std::string_view bare);

}  // namespace hermes::internal
