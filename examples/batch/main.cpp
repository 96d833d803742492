// hermes-batch — runs a file of prompts through fresh agents and writes trajectories.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "batch_runner.hpp"
#include "hermes/hermes.hpp"
#include "provider_choice.hpp"
#include "provider_presets.hpp"
#include "tracing_sink.hpp"

namespace {

constexpr const char* kUsage =
    R"(usage: hermes-batch --input PROMPTS.jsonl --output OUT.jsonl [options]

Runs each prompt ({"id": "...", "prompt": "..."} per line) in a fresh agent and appends
one trajectory per line to the output. Prompts already in the output are skipped, so
running the same command again resumes an interrupted batch.

options:
  --workers N           prompts run at once (default 4)
  --provider NAME       model service         (env HERMES_PROVIDER; see below)
  --model NAME          model name            (env HERMES_MODEL)
  --base-url URL        API base URL          (env HERMES_BASE_URL, OPENAI_BASE_URL)
  --api-mode MODE       wire format           (env HERMES_API_MODE)
  --home DIR            hermes home: skills and memories (env HERMES_HOME)
  --toolsets A,B        toolsets offered (default: safe, without memory: no shell,
                        no file access, nothing a prompt could leave behind in the
                        memories; name file, terminal or headless to allow them)
  --max-iterations N    model calls per prompt (default 90)
  --quiet               no progress output
  -h, --help            this text

The model service is --provider's, or the first whose key is set:
{providers}
Trajectories are written with secrets masked,
to a file only the user can read. Exit status: 0 when every prompt completed,
1 when a prompt failed or an input line was skipped, 2 for a usage error. With
OTEL_EXPORTER_OTLP_ENDPOINT set, spans and metrics go to that OpenTelemetry collector.
)";

// kUsage with the table of model services in its place.
std::string usage_text() {
  std::string text = kUsage;
  const std::string slot = "{providers}\n";
  text.replace(text.find(slot), slot.size(), hermes_cli::provider_presets_help());
  return text;
}

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : fallback;
}

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

std::optional<int> positive(const std::string& text) {
  char* end = nullptr;
  long n = std::strtol(text.c_str(), &end, 10);
  if (end == text.c_str() || *end != '\0' || n < 1 || n > 1024) return std::nullopt;
  return static_cast<int>(n);
}

// Parses argv into `c`; returns an error message.
std::optional<std::string> parse(int argc, char** argv, hermes_batch::BatchConfig& c,
                                 hermes_cli::ProviderSources& sources, bool& help) {
  hermes::AgentOptions& a = c.agent;
  a.home = env_or("HERMES_HOME", "");
  // Prompts come from a dataset nobody reviews turn by turn: by default they get no shell,
  // no file tools, and no memory (which every later session would read), as upstream's
  // batch runner keeps memory out of batch runs.
  a.tool_use.enabled_toolsets = {"safe"};
  a.tool_use.disabled_toolsets = {"memory"};
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "-h" || flag == "--help") {
      help = true;
      continue;
    }
    if (flag == "--quiet") {
      c.show_progress = false;
      continue;
    }
    if (i + 1 >= argc)
      return flag == "--input" || flag == "--output" ? flag + " needs a value"
                                                     : "unknown option: " + flag;
    const std::string v = argv[++i];
    if (flag == "--input") {
      c.input = v;
    } else if (flag == "--output") {
      c.output = v;
    } else if (flag == "--workers" || flag == "--max-iterations") {
      std::optional<int> n = positive(v);
      if (!n) return flag + ": not a number from 1 to 1024: " + v;
      (flag == "--workers" ? c.workers : a.max_iterations) = *n;
    } else if (flag == "--model") {
      sources.model = v;
    } else if (flag == "--provider") {
      sources.provider = v;
    } else if (flag == "--base-url") {
      sources.base_url = v;
    } else if (flag == "--api-mode") {
      sources.api_mode = v;
    } else if (flag == "--home") {
      a.home = v;
    } else if (flag == "--toolsets") {
      a.tool_use.enabled_toolsets = split_commas(v);
      a.tool_use.disabled_toolsets.clear();
    } else {
      return "unknown option: " + flag;
    }
  }
  if (!help && (c.input.empty() || c.output.empty())) return "--input and --output are required";
  return std::nullopt;
}

void print_summary(const hermes_batch::BatchSummary& s) {
  std::fprintf(
      stderr,
      "hermes-batch: %d prompts: %d completed, %d failed, %d skipped (already in the output), "
      "%d broken input lines; %d model calls, %lld input + %lld output tokens; %.1fs\n",
      s.prompts, s.completed, s.failed, s.skipped, s.broken_lines, s.api_calls,
      static_cast<long long>(s.usage.input_tokens), static_cast<long long>(s.usage.output_tokens),
      s.seconds);
}

}  // namespace

int main(int argc, char** argv) {
  hermes_batch::BatchConfig config;
  hermes_cli::ProviderSources sources;
  bool help = false;
  if (auto err = parse(argc, argv, config, sources, help)) {
    std::fprintf(stderr, "hermes-batch: %s\n\n%s", err->c_str(), usage_text().c_str());
    return 2;
  }
  if (help) {
    std::printf("%s", usage_text().c_str());
    return 0;
  }
  if (auto problem = hermes_cli::apply_provider(sources, config.agent)) {
    std::fprintf(stderr, "hermes-batch: %s\n", problem->c_str());
    return 2;
  }
  auto tools = std::make_shared<hermes::ToolRegistry>();
  if (hermes::Status s = hermes::register_builtin_tools(*tools); !s.ok()) {
    std::fprintf(stderr, "hermes-batch: %s\n", s.to_string().c_str());
    return 2;
  }
  config.agent.tools = tools;
  const std::shared_ptr<hermes::TraceSink> sink =
      hermes_cli::tracing_sink_from_environment("hermes-batch");
  config.agent.tracing.sink = sink;
  hermes_batch::BatchSummary summary = hermes_batch::run_batch(config);
  if (sink) sink->flush(std::chrono::seconds(5));
  if (!summary.input_readable) return 2;
  if (!summary.output_writable) {
    std::fprintf(stderr, "hermes-batch: cannot write %s\n", config.output.c_str());
    return 2;
  }
  print_summary(summary);
  return summary.failed == 0 && summary.broken_lines == 0 ? 0 : 1;
}
