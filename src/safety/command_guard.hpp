// Command classification behind detect_dangerous_command / detect_hardline_command, with
// the hermes home made explicit so an agent's own home folds to ~/.hermes.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/safety.hpp"
#include "safety/command_normalization.hpp"

namespace hermes::internal {

CommandFinding detect_dangerous(std::string_view command, const std::vector<HomeFold>& folds);
CommandFinding detect_hardline(std::string_view command, const std::vector<HomeFold>& folds);

// The texts the rules are matched against: the normalised command, with command starts
// marked, with command words unquoted, and the payloads of `sh -c` and friends.
std::vector<std::string> command_detection_variants(std::string_view command,
                                                    const std::vector<HomeFold>& folds);

// A mechanism that runs code the command text does not show: `bash -c PAYLOAD`,
// `python -c`, interpreter heredocs, `rg --pre PROGRAM`.
struct ExecutionFinding {
  std::string description;
  std::optional<std::string> payload;
};
std::vector<ExecutionFinding> execution_findings(std::string_view command);

// For the allow-list approval mode: the first program `command` runs (wrappers included,
// in pipelines, substitutions, sh -c and eval payloads, find -exec) whose base name is not
// in `allowed`, or a placeholder in parentheses for one that cannot be known (a command
// word held in a variable); nullopt when every one is listed.
std::optional<std::string> first_unlisted_program(std::string_view command,
                                                  const std::vector<HomeFold>& folds,
                                                  const std::vector<std::string>& allowed);

// Commands too long or too fragmented to inspect are treated as hardline.
bool command_exceeds_parser_limits(std::string_view command);

}  // namespace hermes::internal
