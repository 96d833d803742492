// Compaction of a transcript: take the session's compression lease, let
// the context engine compress, re-inject the active todo list, rebuild the system prompt,
// and commit in the store — rotating to a child session, or compacting in place. Either
// the whole compaction happens or nothing changes. A store without the compaction
// capability keeps its full transcript; the compacted one lives in memory, and the host is
// told once (status "store_cannot_compact").
#pragma once

#include <string>
#include <vector>

#include "agent/agent_core.hpp"

namespace hermes::internal {

struct CompactionRequest {
  std::string reason;  // "preflight", "pre_api", "post_tool", "overflow", "manual", "idle"
  std::string focus_topic;
  bool force = false;  // Manual: ignore the guards.
  std::optional<int64_t> current_tokens;
};

struct CompactionOutcome {
  bool compacted = false;  // The transcript shrank and the store (if any) has it.
  bool skipped = false;    // Another process holds the lease, or the engine had nothing to do.
  std::string error;       // Why it did not happen, for the status line.
  std::string note;        // What the host should know about a compaction that happened.
  std::size_t messages_before = 0;
  std::size_t messages_after = 0;
  int64_t tokens_before = 0;
  int64_t tokens_after = 0;
};

// Compacts `messages` (the agent's working transcript, without the system prompt) in
// place. On success the agent's session id, writer and system prompt follow the commit.
CompactionOutcome compact_transcript(AgentCore& core, std::vector<Message>& messages,
                                     const CompactionRequest& request);

}  // namespace hermes::internal
