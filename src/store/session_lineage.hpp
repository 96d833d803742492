// How sessions relate through parent_session_id. A child is a compression continuation, a
// /branch copy, a reset boundary or a sub-agent run; markers in the child's model_config
// (_branched_from, _delegate_from, _reset_from) say which, with the parent's end_reason as
// the fallback for rows written before the markers existed.
//
// The SQLite store expresses the same rules in SQL (sqlite_store.cpp); the memory store
// uses these functions.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
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

// The row a compression child is created with: `child` as given, with the parent's model,
// user, lane key, model_config, system prompt and billing route where `child` has none,
// and parent_session_id set to the parent. The title is left to the store.
SessionInfo continuation_row(const SessionInfo& parent, const SessionInfo& child);

// The direct children of a session (any kind; the walks below pick the continuations).
using ChildrenOf = std::function<Result<std::vector<SessionInfo>>(const std::string& parent_id)>;
// Whether a session has any live message.
using HasMessages = std::function<Result<bool>(const std::string& session_id)>;

// The preferred compression continuation among `children` of `parent`: one itself ended by
// compression, then a live one, then the most recently started, then the greatest id.
// nullptr when none continues `parent`.
const SessionInfo* preferred_continuation(const SessionInfo& parent,
                                          const std::vector<SessionInfo>& children);

// The compression tip of `start` (see SessionCompaction::compression_tip).
Result<std::string> walk_to_compression_tip(
    const SessionInfo& start, const ChildrenOf& children,
    const std::function<Result<std::optional<SessionInfo>>(const std::string&)>& get);

// The session to resume for `start` (see SessionCompaction::resolve_resume_session_id).
Result<std::string> walk_to_resume_session(
    const SessionInfo& start, const ChildrenOf& children,
    const std::function<Result<std::optional<SessionInfo>>(const std::string&)>& get,
    const HasMessages& has_messages);

}  // namespace hermes::store
