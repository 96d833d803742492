// The V4A patch format the patch tool accepts in mode "patch":
//
//   *** Begin Patch
//   *** Update File: src/app.py
//   @@ def main():
//    context line
//   -removed line
//   +added line
//   *** Add File: docs/new.md
//   +every line of the new file
//   *** Delete File: old.txt
//   *** End Patch
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hermes/status.hpp"

namespace hermes::internal {

struct V4aHunk {
  std::string old_text;  // Context and removed lines.
  std::string new_text;  // Context and added lines.
};

struct V4aFileOp {
  enum class Kind { kAdd, kUpdate, kDelete };
  Kind kind = Kind::kUpdate;
  std::string path;
  std::string move_to;         // Update: rename after applying, when set.
  std::string content;         // Add: the new file.
  std::vector<V4aHunk> hunks;  // Update.
};

// InvalidArgument names the offending line.
Result<std::vector<V4aFileOp>> parse_v4a_patch(std::string_view text);

}  // namespace hermes::internal
