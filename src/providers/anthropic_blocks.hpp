// Anthropic content blocks built from hermes' message parts, and stored blocks cleaned
// for replay. The request schema is strict: output-only fields copied from a response
// (citations: null, parsed_output, caller) and blank text blocks are rejected with 400.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "hermes/json.hpp"

namespace hermes::internal::anthropic {

inline constexpr const char* kEmptyPlaceholder = "(empty)";

Json text_block(std::string text);

// True for a text block whose text is missing, not a string, or only whitespace.
bool is_blank_text(const Json& block);

bool is_thinking(const Json& block);  // thinking or redacted_thinking.

// Text and tool_use blocks can carry a cache breakpoint; thinking blocks never may.
bool is_cacheable(const Json& block);

// A tool id as the API accepts it: [a-zA-Z0-9_-]+, other characters replaced by '_',
// "tool_0" for an empty id.
std::string sanitize_tool_id(std::string_view id);

// sanitize_tool_id(a) compared with sanitize_tool_id(b) (<0, 0, >0), without building
// either: an order for sorting and finding ids as the request will write them.
int compare_sanitized_tool_ids(std::string_view a, std::string_view b);

// Tool-call arguments as the object tool_use.input wants; {} when they do not parse.
Json parse_arguments(std::string_view arguments);

// A chat content part (text, image_url) as an Anthropic block, or nullopt to drop it.
std::optional<Json> block_from_part(const Json& part);

// A stored block whitelisted to the fields the request schema accepts, or nullopt for a
// block that cannot be replayed (unknown type, blank text, redacted thinking without
// data).
std::optional<Json> replayable_block(const Json& block);

// Whether a message's stored blocks (`stored`) are replayed in place of its other fields:
// they hold a block replayable_block keeps, or text (all of it blank: a placeholder).
bool replays_stored_blocks(const Json& stored);

// Sets `marker` as the cache_control of the last text or tool_use block, unless it has
// one. False when there is no such block.
bool mark_last_cacheable(Json& blocks, const Json& marker);

}  // namespace hermes::internal::anthropic
