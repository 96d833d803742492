// Keeps FTS5 indexes from fragmenting in a long-lived store: every so many writes, a few
// bounded 'merge' commands per index. Each command stops after about `pages` pages of
// output, so it holds the write lock for milliseconds whatever the index's size
// ('optimize' would rewrite the whole index in one transaction: seconds on a large store,
// long enough to exhaust another writer's patience).
//
// Thread-safety: not thread-safe; run on the writer connection under its mutex.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "store/sqlite_connection.hpp"

namespace hermes::store {

// Upstream's cadence and bounds: a pass every 1,000th successful write, up to 4 commands of
// 500 pages per index.
inline constexpr uint64_t kFtsMergeEveryWrites = 1000;
inline constexpr int kFtsMergePages = 500;
inline constexpr int kFtsMergeCommands = 4;

class FtsMaintenance {
 public:
  explicit FtsMaintenance(std::vector<std::string> tables, int pages = kFtsMergePages,
                          int commands = kFtsMergeCommands)
      : tables_(std::move(tables)), pages_(pages), commands_(commands) {}

  // One pass, outside any transaction: each command is its own transaction, so other
  // processes' writes interleave. Stops on a table when a merge finds nothing to do.
  // The first failure (another process holding the lock past the busy timeout, a damaged
  // index) is logged and ends the pass, so a busy file costs one busy timeout, not one per
  // command; failures never reach the write that triggered the pass.
  // Returns the number of merge commands that ran.
  int run(Connection& db);

 private:
  // FTS5's 'usermerge' (persisted in the index's config) lowered to its minimum, 2, so a
  // merge works on any level holding two segments; at the default of 4 the small levels
  // a store of short turns leaves behind are never merged. Set once per store (again on
  // the next pass when it fails). Returns whether it was set.
  bool lower_usermerge(Connection& db, const std::string& table);

  std::vector<std::string> tables_;
  int pages_;
  int commands_;
  bool usermerge_lowered_ = false;
};

}  // namespace hermes::store
