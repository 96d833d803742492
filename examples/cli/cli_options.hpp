// Command-line and environment configuration of the hermes CLI.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace hermes_cli {

struct CliOptions {
  std::string model;        // --model, $HERMES_MODEL
  std::string provider;     // --provider, $HERMES_PROVIDER
  std::string base_url;     // --base-url, $OPENAI_BASE_URL
  std::string api_key;      // $OPENAI_API_KEY
  std::string home;         // --home, $HERMES_HOME
  std::vector<std::string> toolsets;  // --toolsets a,b
  std::string resume;       // --resume ID
  std::optional<std::string> query;   // -q TEXT: one question, then exit
  std::optional<std::string> search;  // --search QUERY
  bool list = false;        // --list
  bool quiet = false;       // --quiet: only the answer
  bool no_stream = false;   // --no-stream
  int max_iterations = 90;
  bool help = false;
  bool version = false;
};

// Parses argv and the environment. Returns an error message for bad arguments.
std::optional<std::string> parse_cli(int argc, char** argv, CliOptions& out);

const char* usage_text();

}  // namespace hermes_cli
