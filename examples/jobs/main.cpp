// hermes-jobs — runs the scheduled jobs of <home>/jobs.json.
#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <string>

#include "hermes/hermes.hpp"
#include "job_state.hpp"
#include "provider_choice.hpp"
#include "provider_presets.hpp"
#include "scheduler.hpp"

namespace {

constexpr const char* kUsage = R"(usage: hermes-jobs [--once] [--now TIME] [options]

Runs the jobs of <home>/jobs.json when they are due and records their runs in
<home>/jobs_state.json. A job seen for the first time is scheduled from now; a slot
is taken once, even across restarts and crashes.

options:
  --once            run the jobs due now and exit (for system cron and tests)
  --now TIME        pretend the time is TIME (2024-05-01T10:00:00Z or epoch seconds)
  --home DIR        hermes home (env HERMES_HOME, default ~/.hermes)
  --provider NAME   model service              (env HERMES_PROVIDER; see below)
  --model NAME      default model of the jobs  (env HERMES_MODEL)
  --base-url URL    API base URL               (env HERMES_BASE_URL, OPENAI_BASE_URL)
  --api-mode MODE   wire format                (env HERMES_API_MODE)
  -h, --help        this text

The model service is --provider's, or the first whose key is set:
{providers}
Exit status with --once: 0 when every due job completed, 1 when a job failed or
was malformed, 2 for a usage error or when another scheduler holds the home.
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

struct Options {
  bool once = false;
  bool help = false;
  std::optional<std::time_t> now;
  hermes::AgentOptions agent;
  hermes_cli::ProviderSources sources;
};

std::optional<std::string> parse(int argc, char** argv, Options& o) {
  o.agent.home = env_or("HERMES_HOME", hermes::default_home());
  // Nobody is there to answer a clarify question.
  o.agent.tool_use.disabled_toolsets = {"clarify"};
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--once") {
      o.once = true;
    } else if (flag == "-h" || flag == "--help") {
      o.help = true;
    } else if (i + 1 >= argc) {
      return flag + " needs a value (or is unknown)";
    } else if (flag == "--now") {
      o.now = hermes_jobs::parse_time(argv[++i]);
      if (!o.now) return std::string("--now: not a time: ") + argv[i];
    } else if (flag == "--home") {
      o.agent.home = argv[++i];
    } else if (flag == "--model") {
      o.sources.model = argv[++i];
    } else if (flag == "--provider") {
      o.sources.provider = argv[++i];
    } else if (flag == "--base-url") {
      o.sources.base_url = argv[++i];
    } else if (flag == "--api-mode") {
      o.sources.api_mode = argv[++i];
    } else {
      return "unknown option: " + flag;
    }
  }
  return std::nullopt;
}

// Waits until `until` (at most a minute, so edits to jobs.json are picked up) or a stop
// signal; false when asked to stop.
bool sleep_until(std::time_t until, const sigset_t& stop) {
  const std::time_t now = std::time(nullptr);
  timespec wait{std::clamp<std::time_t>(until - now, 1, 60), 0};
  return sigtimedwait(&stop, nullptr, &wait) < 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (auto err = parse(argc, argv, o)) {
    std::fprintf(stderr, "hermes-jobs: %s\n\n%s", err->c_str(), usage_text().c_str());
    return 2;
  }
  if (o.help) {
    std::printf("%s", usage_text().c_str());
    return 0;
  }
  if (auto problem = hermes_cli::apply_provider(o.sources, o.agent)) {
    std::fprintf(stderr, "hermes-jobs: %s\n", problem->c_str());
    return 2;
  }
  hermes_jobs::SchedulerLock lock(o.agent.home);
  if (!lock.held()) {
    std::fprintf(stderr, "hermes-jobs: another scheduler is running on %s\n", o.agent.home.c_str());
    return 2;
  }
  if (o.once) {
    auto report =
        hermes_jobs::run_due_jobs(o.agent.home, o.now.value_or(std::time(nullptr)), o.agent);
    return report.failed == 0 && report.problems == 0 ? 0 : 1;
  }
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);
  for (;;) {
    auto report = hermes_jobs::run_due_jobs(o.agent.home, std::time(nullptr), o.agent);
    const std::time_t wake = report.next_wake != 0 ? report.next_wake : std::time(nullptr) + 60;
    if (!sleep_until(wake, stop)) return 0;
  }
}
