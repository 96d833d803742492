// Whole-file reads and crash-safe writes, shared by the file tools, memory and skills.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "hermes/status.hpp"

namespace hermes::internal {

// Writes `content` to `path` through a temporary file in the same directory, fsync and
// rename: readers see the old file or the new one, never a torn one. Creates missing
// parent directories. An existing file keeps its permission bits.
Status write_file_atomically(const std::string& path, std::string_view content);

// The contents of `path`. NotFound when it does not exist; ResourceExhausted when it is
// larger than `max_bytes`.
Result<std::string> read_whole_file(const std::string& path, std::size_t max_bytes = 64u << 20);

// Creates `dir` and its parents.
Status make_directories(const std::string& dir);

}  // namespace hermes::internal
