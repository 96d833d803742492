// Anthropic prompt-cache breakpoints in a Chat Completions request: Claude
// served through OpenRouter or the Nous portal honours `cache_control` on content parts
// (the "envelope" layout), so a long conversation is billed mostly as cache reads there too.
#pragma once

#include <cstddef>

#include "hermes/json.hpp"

namespace hermes::internal {

// Marks `messages` (Chat Completions wire messages) with the "system and 3" layout: the
// leading system message and the last three other messages that can carry a marker, each
// on its last content part (a string becomes one text part). Markers already present are
// removed first, so at most four are ever sent. Messages without content (an assistant
// turn that only calls tools) cannot carry one and are passed over.
void apply_envelope_cache_markers(Json& messages);

// The parts of that layout, for an encoder that writes the messages one at a time.
inline constexpr std::size_t kCacheMarkedTailMessages = 3;
void strip_cache_markers(Json& message);           // Removes every marker of one message.
bool can_carry_cache_marker(const Json& message);  // It has content to put a marker on.
void add_cache_marker(Json& message);              // Marks its last content part.

}  // namespace hermes::internal
