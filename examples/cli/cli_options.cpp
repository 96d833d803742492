#include "cli_options.hpp"

#include <cstdlib>
#include <sstream>

namespace hermes_cli {

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

const char* usage_text() {
  return R"(usage: hermes [options]

Chat with a model that can use tools. Sessions are saved in <home>/state.db;
settings are read from <home>/config.json, the environment and these options
(options win over the environment, the environment over the file).

options:
  -q, --query TEXT      ask one question, print the answer and exit
                        (exit status 0 when the turn completed, 1 otherwise)
  --resume ID           continue a saved session
  --list                list saved sessions
  --search QUERY        full-text search over saved sessions
  --model NAME          model name            (env HERMES_MODEL)
  --provider NAME       provider name         (env HERMES_PROVIDER)
  --base-url URL        API base URL          (env OPENAI_BASE_URL)
  --home DIR            hermes home directory (env HERMES_HOME, default ~/.hermes)
  --toolsets A,B        enable only these toolsets (e.g. coding, safe, file,terminal)
  --max-iterations N    model calls per turn (default 90)
  --no-stream           do not stream responses
  --quiet               print only answers
  --version             print the version
  -h, --help            this text

The API key is read from OPENAI_API_KEY. In a chat, /help lists the commands.
)";
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
                             a == "--home" || a == "--toolsets" || a == "--max-iterations";
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
