// Which stored rows an in-place compaction archives, and which it takes out of search
// because the new live transcript repeats them verbatim. Shared by every store, so all of
// them archive the same rows.
#pragma once

#include <cstdint>
#include <vector>

#include "store/message_codec.hpp"

namespace hermes::store {

// A live row of the session before the compaction.
struct LiveRow {
  int64_t id = 0;
  MessageRow row;
};

// What becomes of the live rows.
struct CompactionPlan {
  // Rows above the watermark, carried over after the compacted messages (in order).
  std::vector<const LiveRow*> carried;
  // Originals hidden from search (active = 0, compacted = 0): the carried rows and the
  // originals the compacted messages repeat verbatim. Every other live row is archived
  // (active = 0, compacted = 1).
  std::vector<int64_t> hidden;
};

// Plans the compaction of `live` (ordered by id) into `compacted` at `watermark`.
CompactionPlan plan_compaction(const std::vector<LiveRow>& live,
                               const std::vector<MessageRow>& compacted, int64_t watermark);

// Encodes `messages` for storage, naming the index of the first one that cannot be stored.
// Counts their tool calls into `tool_calls` when given.
Result<std::vector<MessageRow>> encode_batch(const std::vector<Message>& messages,
                                             int64_t* tool_calls = nullptr);

}  // namespace hermes::store
