// The background self-improvement review: after a turn, a second
// agent with the same model reads the conversation and saves what is worth keeping —
// memories about the user, skills for approaches that took effort — while the host's
// conversation goes on untouched.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "hermes/agent.hpp"

namespace hermes::internal {

struct AgentCore;

// What the review is asked to look for.
struct ReviewFocus {
  bool memory = false;
  bool skills = false;
};

// The user message of a review: the memory, skills or combined instructions.
std::string review_prompt(ReviewFocus focus);

// One line saying what a finished review changed ("Memory updated; Skill created: x"),
// read from the successful memory and skill_manage results in `messages[from..]`. Empty
// when it changed nothing.
std::string summarize_review(const std::vector<Message>& messages, std::size_t from);

// The options of the reviewing agent: the parent's model, provider and credentials; the
// memory and skills toolsets only; quiet, unpersisted, and unable to start a review of
// its own.
AgentOptions review_agent_options(const AgentCore& core);

// Runs at most one review at a time on its own thread.
class BackgroundReview {
 public:
  using StatusFn = std::function<void(std::string_view kind, std::string_view message)>;

  BackgroundReview() = default;
  ~BackgroundReview() { cancel(); }
  BackgroundReview(const BackgroundReview&) = delete;
  BackgroundReview& operator=(const BackgroundReview&) = delete;

  // Cancels any running review, then lets `agent` answer `prompt` after `history`. What it
  // changed is reported to `on_status` as kind "review"; failures are only logged.
  void start(std::unique_ptr<Agent> agent, std::string prompt, std::vector<Message> history,
             StatusFn on_status);

  // Interrupts a running review and waits for it up to `grace`. A review that does not
  // stop in time (a model call that ignores cancellation) finishes on its own, silenced.
  // Safe from any thread, and from the review's own status callback.
  void cancel(std::chrono::milliseconds grace = std::chrono::seconds(2));

 private:
  struct Job;
  static void run(const std::shared_ptr<Job>& job);

  std::mutex mu_;
  std::shared_ptr<Job> job_;
  std::thread thread_;
};

// Starts the review the finished turn earned, if any: `focus` says which. Logs and gives
// up when the reviewing agent cannot be created.
void start_background_review(AgentCore& core, ReviewFocus focus,
                             const std::vector<Message>& transcript);

}  // namespace hermes::internal
