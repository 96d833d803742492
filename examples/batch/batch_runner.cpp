#include "batch_runner.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "prompt_file.hpp"
#include "trajectory.hpp"

namespace hermes_batch {
namespace {

using hermes::Json;
using Clock = std::chrono::steady_clock;

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// How often each tool was called and how often it failed ({"error": ...} results).
Json tool_stats(const std::vector<hermes::Message>& transcript) {
  std::map<std::string, std::pair<int, int>> stats;
  for (const hermes::Message& m : transcript) {
    if (m.role != hermes::Role::kTool) continue;
    auto& [calls, errors] = stats[m.name];
    ++calls;
    Json parsed = Json::parse(m.content, nullptr, false);
    if (parsed.is_object() && parsed.contains("error")) ++errors;
  }
  Json out = Json::object();
  for (const auto& [name, counts] : stats)
    out[name] = Json{{"calls", counts.first}, {"errors", counts.second}};
  return out;
}

// The output line of one finished prompt.
Json trajectory_line(const Prompt& p, const hermes::ConversationResult& r, const Json& definitions,
                     const std::string& started_at, double seconds) {
  return Json{{"id", p.id},
              {"prompt_index", p.line},
              {"conversations", to_conversations(r.messages, p.prompt, definitions)},
              {"completed", r.completed},
              {"partial", r.partial},
              {"interrupted", r.interrupted},
              {"exit_reason", r.exit_reason},
              {"error", redact_trajectory_text(r.error)},
              {"api_calls", r.api_calls},
              {"usage", hermes::usage_to_json(r.usage)},
              {"usage_reported", r.usage.reported},
              {"estimated_cost_usd", r.estimated_cost_usd},
              {"model", r.model},
              {"tool_stats", tool_stats(r.messages)},
              {"timing", {{"started_at", started_at}, {"duration_seconds", seconds}}}};
}

// The shared state of one run: the queue of prompts, the output file, the counters.
class Run {
 public:
  Run(const BatchConfig& config, std::vector<Prompt> prompts, BatchSummary& summary)
      : config_(config),
        prompts_(std::move(prompts)),
        summary_(summary),
        tty_(config.show_progress && isatty(STDERR_FILENO) == 1) {}

  bool open_output() {
    // Trajectories hold whole conversations: a new file is the user's alone, whatever the
    // umask.
    const int fd = ::open(config_.output.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd >= 0) ::close(fd);
    // A line cut short by a crash must not swallow the first line appended now.
    std::ifstream existing(config_.output, std::ios::binary | std::ios::ate);
    bool needs_newline = false;
    if (existing && existing.tellg() > 0) {
      existing.seekg(-1, std::ios::end);
      needs_newline = existing.get() != '\n';
    }
    out_.open(config_.output, std::ios::binary | std::ios::app);
    if (needs_newline) out_ << '\n';
    return static_cast<bool>(out_);
  }

  void work() {
    for (std::size_t i = next_++; i < prompts_.size(); i = next_++) run_one(prompts_[i]);
  }

 private:
  void run_one(const Prompt& p) {
    running_++;
    progress();
    hermes::AgentOptions options = config_.agent;
    options.persistence.enabled = false;
    options.review.enabled = false;  // It would save memories and skills unasked.
    options.source = "batch";
    options.ephemeral_system_prompt = p.system;
    const std::string started_at = utc_now();
    const auto start = Clock::now();
    hermes::ConversationResult result;
    Json definitions = Json::array();
    auto agent = hermes::Agent::create(options);
    if (agent.ok()) {
      result = (*agent)->run_conversation(p.prompt);
      if (options.tools)
        definitions = options.tools->definitions(options.tools->resolve(
            options.tool_use.enabled_toolsets, options.tool_use.disabled_toolsets));
    } else {
      result.failed = true;
      result.exit_reason = "agent_setup_failed";
      result.error = agent.status().to_string();
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    record(p, result, trajectory_line(p, result, definitions, started_at, seconds));
  }

  void record(const Prompt& p, const hermes::ConversationResult& r, const Json& line) {
    std::lock_guard<std::mutex> lock(mu_);
    out_ << line.dump(-1, ' ', false, Json::error_handler_t::replace) << '\n';
    out_.flush();
    if (!out_) summary_.output_writable = false;
    (r.completed ? summary_.completed : summary_.failed)++;
    if (r.usage.reported) summary_.usage += r.usage;
    summary_.api_calls += r.api_calls;
    running_--;
    ++done_;
    if (!tty_ && config_.show_progress) {
      std::fprintf(stderr, "[%d/%zu] %s %s (%d model calls)\n", done_, prompts_.size(),
                   p.id.c_str(), r.completed ? "completed" : ("failed: " + r.exit_reason).c_str(),
                   r.api_calls);
    }
    progress_locked();
  }

  void progress() {
    std::lock_guard<std::mutex> lock(mu_);
    progress_locked();
  }

  void progress_locked() {
    if (!tty_) return;
    std::fprintf(stderr, "\r\x1b[2K[%d/%zu] %d completed, %d failed, %d running", done_,
                 prompts_.size(), summary_.completed, summary_.failed, running_.load());
    std::fflush(stderr);
  }

  const BatchConfig& config_;
  const std::vector<Prompt> prompts_;
  BatchSummary& summary_;
  const bool tty_;
  std::atomic<std::size_t> next_{0};
  std::atomic<int> running_{0};
  std::mutex mu_;
  std::ofstream out_;
  int done_ = 0;
};

// The prompts still to run, counting the skipped ones.
std::vector<Prompt> pending_prompts(const PromptFile& file, const std::string& output,
                                    BatchSummary& summary) {
  const std::vector<std::string> done = finished_ids(output);
  const std::set<std::string> finished(done.begin(), done.end());
  std::vector<Prompt> pending;
  for (const Prompt& p : file.prompts) {
    if (finished.count(p.id) != 0) {
      ++summary.skipped;
    } else {
      pending.push_back(p);
    }
  }
  return pending;
}

}  // namespace

BatchSummary run_batch(const BatchConfig& config) {
  const auto start = Clock::now();
  BatchSummary summary;
  PromptFile file = read_prompt_file(config.input);
  for (const std::string& problem : file.problems)
    std::fprintf(stderr, "hermes-batch: %s\n", problem.c_str());
  summary.input_readable = file.readable;
  summary.broken_lines = file.readable ? static_cast<int>(file.problems.size()) : 0;
  summary.prompts = static_cast<int>(file.prompts.size());
  std::vector<Prompt> pending = pending_prompts(file, config.output, summary);
  Run run(config, std::move(pending), summary);
  if (!run.open_output()) {
    summary.output_writable = false;
    return summary;
  }
  std::vector<std::thread> workers;
  for (int i = 0; i < std::max(1, config.workers); ++i)
    workers.emplace_back([&run] { run.work(); });
  for (std::thread& t : workers) t.join();
  if (config.show_progress && isatty(STDERR_FILENO) == 1) std::fputc('\n', stderr);
  summary.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return summary;
}

}  // namespace hermes_batch
