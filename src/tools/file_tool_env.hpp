// What the file tools share: where they may go, the guards, and each agent's memory of
// what it has read (for the repeated-read guard and staleness warnings).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "hermes/builtin_tools.hpp"
#include "safety/approval.hpp"
#include "tools/file_paths.hpp"

namespace hermes::internal {

struct FileToolEnv {
  FileToolEnv(const FileToolOptions& o, const ApprovalOptions& approvals)
      : options(o), roots(o.root, o.allowed_roots), gate(approvals, "") {}

  FileToolOptions options;
  FileRoots roots;
  ApprovalGate gate;
};

// A file's identity for "has it changed": size and modification time.
struct FileStamp {
  int64_t size = -1;
  int64_t mtime_ns = 0;
  bool operator==(const FileStamp& o) const { return size == o.size && mtime_ns == o.mtime_ns; }
  bool operator!=(const FileStamp& o) const { return !(*this == o); }
};
std::optional<FileStamp> stamp_of(const std::string& path);

// Per agent (kept in ToolSessionState).
struct FileReadTracker {
  std::mutex mu;
  std::map<std::string, FileStamp> last_read;  // Path -> stamp when it was last read or written.
  std::string last_call;                       // The previous read/search, as a signature.
  int repeats = 0;                             // How many times in a row it was made.
  std::map<std::string, int> patch_failures;   // Consecutive failed patches per path.
};

std::shared_ptr<FileReadTracker> file_tracker(ToolContext& ctx);

// Counts a read or search call; returns how many times in a row this exact call was made.
// Any other call of the file tools breaks the run.
int note_file_call(ToolContext& ctx, const std::string& signature);

// The resolved path of `raw` for reading: inside the roots and not a guarded file.
Result<std::string> resolve_for_read(const FileToolEnv& env, const std::string& raw,
                                     ToolContext& ctx);

// The resolved path of `raw` for writing: inside the roots, not a protected file, and
// approved by a human when the path needs it (ctx.tool_name names the write).
Result<std::string> resolve_for_write(const FileToolEnv& env, const std::string& raw,
                                      ToolContext& ctx);

// Whether `path` is binary by extension or content; the description for the refusal.
std::optional<std::string> binary_file_description(const std::string& path);

}  // namespace hermes::internal
