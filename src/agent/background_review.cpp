#include "agent/background_review.hpp"

#include <algorithm>
#include <condition_variable>

#include "agent/agent_core.hpp"
#include "agent/child_agent_options.hpp"
#include "agent/safe_callback.hpp"
#include "safety/log.hpp"

namespace hermes::internal {

struct BackgroundReview::Job {
  std::unique_ptr<Agent> agent;
  std::string prompt;
  std::vector<Message> history;
  StatusFn on_status;

  std::mutex mu;
  std::condition_variable cv;
  bool cancelled = false;
  bool done = false;
};

void BackgroundReview::start(std::unique_ptr<Agent> agent, std::string prompt,
                             std::vector<Message> history, StatusFn on_status) {
  cancel();
  auto job = std::make_shared<Job>();
  job->agent = std::move(agent);
  job->prompt = std::move(prompt);
  job->history = std::move(history);
  job->on_status = std::move(on_status);
  std::lock_guard<std::mutex> lock(mu_);
  job_ = job;
  // The thread shares ownership of the job, so a review left behind by cancel() still
  // has everything it touches.
  thread_ = std::thread([job] { run(job); });
}

void BackgroundReview::run(const std::shared_ptr<Job>& job) {
  std::string summary;
  try {
    ConversationResult result =
        job->agent->run_conversation(job->prompt, std::nullopt, job->history);
    if (result.failed) HERMES_LOG_INFO("background review failed: {}", result.error);
    summary = summarize_review(result.messages, job->history.size());
  } catch (const std::exception& e) {
    HERMES_LOG_WARN("background review threw: {}", e.what());
  } catch (...) {
    HERMES_LOG_WARN("background review threw a non-standard exception");
  }
  bool report = false;
  {
    std::lock_guard<std::mutex> lock(job->mu);
    report = !job->cancelled && !summary.empty();
  }
  // Reported outside the lock: the host may call back into the agent from its callback.
  if (report) {
    safe_callback("status", job->on_status, std::string_view("review"), std::string_view(summary));
  }
  std::lock_guard<std::mutex> lock(job->mu);
  job->done = true;
  job->cv.notify_all();
}

void BackgroundReview::cancel(std::chrono::milliseconds grace) {
  std::shared_ptr<Job> job;
  std::thread thread;
  {
    std::lock_guard<std::mutex> lock(mu_);
    job = std::move(job_);
    thread = std::move(thread_);
  }
  if (!job) return;
  std::unique_lock<std::mutex> lock(job->mu);
  job->cancelled = true;
  job->agent->interrupt("background review cancelled");
  if (thread.get_id() == std::this_thread::get_id()) {
    // Cancelled from its own status callback: the review is about to finish anyway.
    thread.detach();
    return;
  }
  const bool finished = job->cv.wait_for(lock, grace, [&] { return job->done; });
  lock.unlock();
  if (finished) {
    thread.join();
  } else {
    HERMES_LOG_WARN("background review did not stop within {} ms; leaving it to finish",
                    grace.count());
    thread.detach();
  }
}

AgentOptions review_agent_options(const AgentCore& core) {
  AgentOptions o = child_agent_options(core);
  o.max_iterations = std::max(1, core.options.review.max_iterations);
  // Only these toolsets are offered, and a call to anything else is answered as an
  // unknown tool: the review can save, never act.
  o.tools = core.tools;
  o.tool_use.enabled_toolsets = {"memory", "skills"};
  o.memory_limits = core.options.memory_limits;
  // Short enough to need no compaction.
  o.compression.enabled = false;
  o.source = "background_review";
  return o;
}

void start_background_review(AgentCore& core, ReviewFocus focus,
                             const std::vector<Message>& transcript) {
  if (!focus.memory && !focus.skills) return;
  auto agent = Agent::create(review_agent_options(core));
  if (!agent.ok()) {
    HERMES_LOG_WARN("could not start the background review: {}", agent.status().to_string());
    return;
  }
  const char* what = !focus.skills ? "memory" : focus.memory ? "memory and skills" : "skills";
  HERMES_LOG_INFO("background review started: {}", what);
  core.review.start(std::move(*agent), review_prompt(focus), transcript,
                    core.options.callbacks.on_status);
}

}  // namespace hermes::internal
