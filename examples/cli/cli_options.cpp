#include "cli_options.hpp"

#include <cstdlib>
#include <sstream>

#include "provider_presets.hpp"

namespace hermes_cli {

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

std::string usage_text() {
  std::string text = R"(usage: hermes [options]

Chat with a model that can use tools. Sessions are saved in <home>/state.db;
settings are read from <home>/config.json, the environment and these options
(options win over the environment, the environment over the file).

options:
  -q, --query TEXT      ask one question, print the answer and exit
                        (exit status 0 when the turn completed, 1 otherwise)
  --resume ID           continue a saved session
  --list                list saved sessions
  --search QUERY        full-text search over saved sessions
  --provider NAME       provider preset, below (env HERMES_PROVIDER)
  --model NAME          model name            (env HERMES_MODEL)
  --base-url URL        API base URL          (env HERMES_BASE_URL; OPENAI_BASE_URL
                        for openai and custom)
  --api-mode MODE       wire format: chat_completions, codex_responses or
                        anthropic_messages    (env HERMES_API_MODE)
  --home DIR            hermes home directory (env HERMES_HOME, default ~/.hermes)
  --toolsets A,B        enable only these toolsets (e.g. coding, safe, file,terminal)
  --max-iterations N    model calls per turn (default 90)
  --no-stream           do not stream responses
  --quiet               print only answers
  --version             print the version
  -h, --help            this text

providers (name, API key variable, base URL):
)";
  text += provider_presets_help();
  text += R"(
Without --provider the first key set picks the provider, in the order above
(with none set, --base-url alone talks to a server that needs no key). A
preset's base URL, wire format and model can each be overridden. In a chat,
/help lists the commands. With OTEL_EXPORTER_OTLP_ENDPOINT set, spans and metrics
go to that OpenTelemetry collector (OTLP/HTTP JSON; the OTEL_* variables apply).
)";
  return text;
}

namespace {

std::optional<std::string> parse_positive(const std::string& flag, const std::string& v, int& out) {
  char* end = nullptr;
  long n = std::strtol(v.c_str(), &end, 10);
  if (end == v.c_str() || *end != '\0' || n < 1 || n > 100000) {
    return flag + ": not a positive number: " + v;
  }
  out = static_cast<int>(n);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> parse_cli(int argc, char** argv, CliOptions& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    std::string v;
    auto value = [&]() -> bool {
      if (i + 1 >= argc) return false;
      v = argv[++i];
      return true;
    };
    const bool takes_value = a == "-q" || a == "--query" || a == "--resume" || a == "--search" ||
                             a == "--model" || a == "--provider" || a == "--base-url" ||
                             a == "--api-mode" || a == "--home" || a == "--toolsets" ||
                             a == "--max-iterations";
    if (takes_value && !value()) return a + " needs a value";
    if (a == "-h" || a == "--help") {
      o.help = true;
    } else if (a == "--version") {
      o.version = true;
    } else if (a == "-q" || a == "--query") {
      o.query = v;
    } else if (a == "--resume") {
      o.resume = v;
    } else if (a == "--list") {
      o.list = true;
    } else if (a == "--search") {
      o.search = v;
    } else if (a == "--model") {
      o.model = v;
    } else if (a == "--provider") {
      o.provider = v;
    } else if (a == "--base-url") {
      o.base_url = v;
    } else if (a == "--api-mode") {
      o.api_mode = v;
    } else if (a == "--home") {
      o.home = v;
    } else if (a == "--toolsets") {
      o.toolsets = split_commas(v);
    } else if (a == "--max-iterations") {
      int n = 0;
      if (auto err = parse_positive(a, v, n)) return err;
      o.max_iterations = n;
    } else if (a == "--no-stream") {
      o.stream = false;
    } else if (a == "--quiet") {
      o.quiet = true;
    } else {
      return "unknown option: " + a;
    }
  }
  return std::nullopt;
}

}  // namespace hermes_cli
