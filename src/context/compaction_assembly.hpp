// Phase 4 of compaction: head, summary and tail put back together as a transcript every
// provider accepts, and the repairs that keep it that way.
#pragma once

#include <string>
#include <vector>

#include "hermes/context_compressor.hpp"
#include "hermes/message.hpp"

namespace hermes::internal {

// What replaces an older user image once a newer image-bearing user message exists.
inline constexpr std::string_view kImageStripped =
    "[Attached image \xE2\x80\x94 stripped after compression]";

struct AssemblyParts {
  std::vector<Message> head;  // Summaries already removed.
  std::vector<Message> tail;  // Summaries already removed.
  std::string summary;        // The summary text with its prefix, without the end marker.
};

struct Assembly {
  std::vector<Message> messages;
  Role summary_role = Role::kUser;
  bool merged_into_tail = false;
};

// head + summary + tail. The summary's role keeps user and assistant turns alternating:
// user after an assistant or tool message, and whenever it would open the conversation or
// no user message survives; flipped when the first tail message has the same role; merged
// into that message when both roles collide. A system message heading the list gets the
// compaction note (once). The summary message carries the "_compressed_summary" key.
Assembly assemble_compacted(AssemblyParts parts);

// Makes every tool call answered and every result attached: results that do not follow
// their call's assistant message are dropped; calls left without a result get a stub
// result or are removed (an assistant message left empty reads "(tool call removed)").
std::vector<Message> sanitize_tool_pairs(std::vector<Message> messages, MissingResultRepair repair);

// Replaces the images of every message before the newest image-bearing user message, so
// the same base64 payloads stop riding along on every request.
std::vector<Message> strip_historical_media(std::vector<Message> messages);

}  // namespace hermes::internal
