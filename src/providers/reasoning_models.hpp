// Models that think for minutes before they answer. Their streams go quiet for long
// stretches, so stale-stream watchdogs wait longer for them, and a dropped connection
// on such a model is read as an idle kill rather than as a context overflow.
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

namespace hermes::internal {

// The least time a stale-stream watchdog should allow `model` (an id such as
// "deepseek-reasoner" or "openrouter/o3-mini:free"), or nullopt for a model not known
// to reason at length. Aggregator prefixes up to the last '/' are ignored; a slug
// matches the start of the id up to its end or a separator ("-", ".", "_", ":").
std::optional<std::chrono::seconds> reasoning_stale_timeout_floor(std::string_view model);

}  // namespace hermes::internal
