// Project context files: the instructions a repository keeps for coding agents, loaded
// once per session into the context tier of the system prompt.
#pragma once

#include <cstdint>
#include <string>

#include "context/context_file_text.hpp"

namespace hermes::internal {

// The "# Project Context" block for the working directory `dir`, or "" when `dir` is
// empty, missing or holds none of the files. Only the first kind found is loaded:
//   1. .hermes.md or HERMES.md, the nearest one from `dir` up to the git root;
//   2. AGENTS.override.md, AGENTS.md or agents.md (the first per directory) in every
//      directory from the git root down to `dir`, outermost first;
//   3. CLAUDE.md or claude.md in `dir`;
//   4. .cursorrules and .cursor/rules/*.mdc in `dir`.
// Each file is screened for prompt injection and capped for a window of
// `context_length` tokens (see context_file_text.hpp); a file that is skipped, blocked or
// truncated is reported to `notice`.
std::string load_project_context(const std::string& dir, int64_t context_length,
                                 const ContextFileNotice& notice = {});

}  // namespace hermes::internal
