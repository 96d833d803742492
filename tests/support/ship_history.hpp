// A conversation long enough to compact, and a summary to answer the summariser with:
// what the unit tests of compaction drive the agent with.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "hermes/context_compressor.hpp"
#include "hermes/message.hpp"

namespace hermes::testing {

inline constexpr const char* kShipSummary =
    "## Historical Task Snapshot\nThe user asked about the history of ships.\n"
    "## Goal\nAnswer questions about ships.\n## Completed Actions\nExplained many ships.\n"
    "## Critical Context\nThe user likes frigates.";

// 40 alternating messages of ~600 characters: plenty of middle to summarise.
inline std::vector<Message> ship_history() {
  std::vector<Message> history;
  for (int i = 0; i < 20; ++i) {
    history.push_back(Message::user("Question " + std::to_string(i) + ": tell me about ship " +
                                    std::to_string(i) + ". " + std::string(550, 'q')));
    history.push_back(Message::assistant("Ship " + std::to_string(i) + " was a frigate. " +
                                         std::string(550, 'a')));
  }
  return history;
}

inline std::size_t count_summaries(const std::vector<Message>& messages) {
  std::size_t n = 0;
  for (const Message& m : messages) n += is_context_summary(m) ? 1 : 0;
  return n;
}

}  // namespace hermes::testing
