// The pattern tables of the command guards: the hardline floor (never runs) and the
// dangerous table (runs only with a human's approval). Descriptions double as approval
// keys, so they are kept word for word compatible with stored allowlists.
#pragma once

#include <string_view>
#include <vector>

#include "safety/regex.hpp"

namespace hermes::internal {

struct CommandRule {
  Regex regex;
  std::string_view description;
  // Matched against the command with quoted prose blanked: rules with no command word to
  // anchor on (a redirection, a fork bomb) would otherwise fire on text inside quotes.
  bool quote_masked = false;
};

// Commands that can never run: unrecoverable damage to the host.
const std::vector<CommandRule>& hardline_rules();

// Commands that need approval. First match wins.
const std::vector<CommandRule>& dangerous_rules();

}  // namespace hermes::internal
