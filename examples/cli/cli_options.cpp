#include "cli_options.hpp"

#include <cstdlib>
#include <sstream>

namespace hermes_cli {
namespace {

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return (v != nullptr && *v != '\0') ? v : fallback;
}

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

}  // namespace

const char* usage_text() {
  return R"(usage: hermes [options]

Chat with a model that can use tools. Sessions are saved in <home>/state.db.

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
  --toolsets A,B        enable only these toolsets
  --max-iterations N    model calls per turn (default 90)
  --no-stream           do not stream responses
  --quiet               print only answers
  --version             print the version
  -h, --help            this text

The API key is read from OPENAI_API_KEY.
)";
}

std::optional<std::string> parse_cli(int argc, char** argv, CliOptions& o) {
  o.model = env_or("HERMES_MODEL", "gpt-4.1-mini");
  o.provider = env_or("HERMES_PROVIDER", "");
  o.base_url = env_or("OPENAI_BASE_URL", "https://api.openai.com/v1");
  o.api_key = env_or("OPENAI_API_KEY", "");
  o.home = env_or("HERMES_HOME", "");
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](std::string& into) -> std::optional<std::string> {
      if (i + 1 >= argc) return a + " needs a value";
      into = argv[++i];
      return std::nullopt;
    };
    std::string v;
    std::optional<std::string> err;
    if (a == "-h" || a == "--help") {
      o.help = true;
    } else if (a == "--version") {
      o.version = true;
    } else if (a == "-q" || a == "--query") {
      if ((err = value(v))) return err;
      o.query = v;
    } else if (a == "--resume") {
      if ((err = value(o.resume))) return err;
    } else if (a == "--list") {
      o.list = true;
    } else if (a == "--search") {
      if ((err = value(v))) return err;
      o.search = v;
    } else if (a == "--model") {
      if ((err = value(o.model))) return err;
    } else if (a == "--provider") {
      if ((err = value(o.provider))) return err;
    } else if (a == "--base-url") {
      if ((err = value(o.base_url))) return err;
    } else if (a == "--home") {
      if ((err = value(o.home))) return err;
    } else if (a == "--toolsets") {
      if ((err = value(v))) return err;
      o.toolsets = split_commas(v);
    } else if (a == "--max-iterations") {
      if ((err = value(v))) return err;
      char* end = nullptr;
      long n = std::strtol(v.c_str(), &end, 10);
      if (end == v.c_str() || *end != '\0' || n < 1) return "--max-iterations: not a positive number: " + v;
      o.max_iterations = static_cast<int>(n);
    } else if (a == "--no-stream") {
      o.no_stream = true;
    } else if (a == "--quiet") {
      o.quiet = true;
    } else {
      return "unknown option: " + a;
    }
  }
  return std::nullopt;
}

}  // namespace hermes_cli
