// How sessions relate through parent_session_id. A child is a compression continuation, a
// /branch copy, a reset boundary or a sub-agent run; markers in the child's model_config
// (_branched_from, _delegate_from, _reset_from) say which, with the parent's end_reason as
// the fallback for rows written before the markers existed.
//
// The SQLite store expresses the same rules in SQL (sqlite_store.cpp); the memory store
// uses these functions.
#pragma once

#include <cstddef>
#include <vector>

#include "hermes/message.hpp"
#include "hermes/session_store.hpp"

namespace hermes::store {

// Lineage walks stop after this many steps, whatever the data says (cycles, corruption).
inline constexpr std::size_t kMaxLineageDepth = 1000;

// True when `child` continues `parent`'s conversation after a compression.
bool is_compression_continuation(const SessionInfo& child, const SessionInfo& parent);

// True when `session` belongs in a list of conversations: a root, a /branch copy or the
// fresh start after a reset; false for compression continuations and sub-agent runs.
// `parent` is the parent row, or nullptr when there is none.
bool is_listed_as_root(const SessionInfo& session, const SessionInfo* parent);

// Appends `segment` to `conversation`, dropping user messages that a compression replayed
// into the child (the same user text again with no assistant answer in between).
void append_lineage_segment(std::vector<Message>& conversation, std::vector<Message> segment);

}  // namespace hermes::store
