// The command line of the hermes CLI: what the user asked for on this run. Values left
// unset here fall back to the environment and <home>/config.json (see settings.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace hermes_cli {

struct CliOptions {
  std::optional<std::string> model;                  // --model
  std::optional<std::string> provider;               // --provider
  std::optional<std::string> base_url;               // --base-url
  std::optional<std::string> api_mode;               // --api-mode
  std::optional<std::string> home;                   // --home
  std::optional<std::vector<std::string>> toolsets;  // --toolsets a,b
  std::optional<int> max_iterations;                 // --max-iterations
  std::optional<bool> stream;                        // --no-stream sets false
  std::optional<bool> quiet;                         // --quiet
  std::string resume;                                // --resume ID
  std::optional<std::string> query;                  // -q TEXT: one question, then exit
  std::optional<std::string> search;                 // --search QUERY
  bool list = false;                                 // --list
  bool help = false;
  bool version = false;
};

// Parses argv. Returns an error message for bad arguments.
std::optional<std::string> parse_cli(int argc, char** argv, CliOptions& out);

// "a,b,,c" -> {"a", "b", "c"}.
std::vector<std::string> split_commas(const std::string& text);

// The help text, with the table of provider presets.
std::string usage_text();

}  // namespace hermes_cli
