// MEMORY.md and USER.md: §-delimited entries under a character budget, edited under a
// file lock with atomic rewrites. Every operation re-reads the file, so writes from other
// sessions are never lost.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hermes/json.hpp"
#include "hermes/memory.hpp"

namespace hermes::internal {

enum class MemoryTarget { kMemory, kUser };

// The entry delimiter: newline, section sign, newline.
constexpr std::string_view kMemoryDelimiter = "\n\xC2\xA7\n";

// Splits file text into trimmed, non-empty entries (duplicates kept).
std::vector<std::string> parse_memory_entries(std::string_view raw);
// Joins entries with the delimiter, without a trailing one.
std::string join_memory_entries(const std::vector<std::string>& entries);
// `entries` without exact duplicates, first occurrences kept.
std::vector<std::string> dedupe_memory_entries(std::vector<std::string> entries);

std::string memory_file_path(const std::string& home, MemoryTarget target);
std::size_t memory_limit(const MemoryLimits& limits, MemoryTarget target);
std::string memory_file_name(MemoryTarget target);

// `entries` as they may be shown to the model: entries matching a threat pattern (or too
// large to scan) replaced by a [BLOCKED: ...] notice.
std::vector<std::string> sanitize_memory_entries(const std::vector<std::string>& entries,
                                                 MemoryTarget target);

// The tool operations. Each returns the tool's result object ({"success": ...}).
// Thread-safety: safe from many threads and processes at once (a lock file serialises
// writers).
class MemoryStore {
 public:
  MemoryStore(std::string home, MemoryLimits limits);

  Json add(MemoryTarget target, const std::string& content);
  Json replace(MemoryTarget target, const std::string& old_text, const std::string& content);
  Json remove(MemoryTarget target, const std::string& old_text);
  // All-or-nothing; only the final size is checked against the budget.
  Json apply_batch(MemoryTarget target, const Json& operations);

  // The error for replace/remove without old_text: it lists the entries to pick from.
  Json missing_old_text(MemoryTarget target, const std::string& action) const;

 private:
  struct Snapshot;
  Snapshot load(MemoryTarget target, bool check_drift) const;
  Json save(MemoryTarget target, const std::vector<std::string>& entries,
            const std::string& message) const;
  Json success(MemoryTarget target, const std::vector<std::string>& entries,
               const std::string& message) const;
  Json failure(MemoryTarget target, const std::vector<std::string>& entries,
               const std::string& error) const;

  std::string home_;
  MemoryLimits limits_;
};

}  // namespace hermes::internal
