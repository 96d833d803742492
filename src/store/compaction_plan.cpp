#include "store/compaction_plan.hpp"

#include <string>

namespace hermes::store {
namespace {

bool same_message(const MessageRow& a, const MessageRow& b) {
  return a.role == b.role && a.content == b.content && a.tool_calls == b.tool_calls &&
         a.tool_call_id == b.tool_call_id && a.tool_name == b.tool_name;
}

}  // namespace

CompactionPlan plan_compaction(const std::vector<LiveRow>& live,
                               const std::vector<MessageRow>& compacted, int64_t watermark) {
  CompactionPlan plan;
  std::size_t archived_end = 0;  // live[0, archived_end) are at or below the watermark.
  for (const LiveRow& row : live) {
    if (row.id > watermark) {
      plan.carried.push_back(&row);
      plan.hidden.push_back(row.id);
    } else {
      ++archived_end;
    }
  }
  // Match the compacted messages against the originals from the end, in order: the
  // protected tail a compressor keeps is the end of the old transcript.
  std::size_t next_original = archived_end;
  for (auto it = compacted.rbegin(); it != compacted.rend() && next_original > 0; ++it) {
    for (std::size_t i = next_original; i > 0; --i) {
      if (same_message(live[i - 1].row, *it)) {
        plan.hidden.push_back(live[i - 1].id);
        next_original = i - 1;
        break;
      }
    }
  }
  return plan;
}

Result<std::vector<MessageRow>> encode_batch(const std::vector<Message>& messages,
                                             int64_t* tool_calls) {
  std::vector<MessageRow> rows;
  rows.reserve(messages.size());
  for (std::size_t i = 0; i < messages.size(); ++i) {
    auto row = encode_message(messages[i]);
    if (!row.ok()) {
      return Status::invalid_argument("messages[" + std::to_string(i) +
                                      "]: " + row.status().message());
    }
    if (tool_calls != nullptr) *tool_calls += row->tool_call_count;
    rows.push_back(std::move(*row));
  }
  return rows;
}

}  // namespace hermes::store
