// Environment hints: the machine the agent's tools run on, for the stable tier of the
// system prompt. They do not change while the process runs, so the prompt stays stable.
#pragma once

#include <string>

namespace hermes::internal {

// The host's operating system and release, the user's home directory and
// `working_dir` (the process's working directory when empty), then a note on WSL paths
// when running under WSL, then the host's own description from HERMES_ENVIRONMENT_HINT
// when set; paragraphs separated by a blank line.
std::string build_environment_hints(const std::string& working_dir);

}  // namespace hermes::internal
