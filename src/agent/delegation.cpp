// Running a delegate_task call: one sub-agent per task, all at once on their own
// threads; the call returns when every one has finished, or promptly after the caller is
// interrupted (its unfinished sub-agents are interrupted and reported as such).
#include "agent/delegation.hpp"

#include <cmath>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "agent/agent_core.hpp"
#include "common/json_text.hpp"
#include "safety/log.hpp"

namespace hermes::internal {
namespace {

using Clock = std::chrono::steady_clock;

double rounded(double seconds) {
  return std::round(seconds * 100.0) / 100.0;
}

// What the caller and the sub-agents' threads share. Owned jointly, so a sub-agent that
// ignores an interrupt can finish after the call returned without touching freed state.
struct Batch {
  std::vector<std::unique_ptr<Agent>> agents;  // nullptr where creation failed.
  std::mutex mu;
  std::condition_variable cv;
  std::vector<SubagentOutcome> outcomes;
  std::vector<bool> done;
  std::size_t running = 0;
  CancelToken wake;  // A child of the call's token; also cancelled when the last one ends.
};

void run_child(const std::shared_ptr<Batch>& batch, std::size_t i, const std::string& goal,
               const std::string& task_id) {
  const auto t0 = Clock::now();
  SubagentOutcome out;
  try {
    ConversationResult r =
        batch->agents[i]->run_conversation(goal, std::nullopt, std::vector<Message>{}, task_id);
    out = outcome_of(r, Clock::now() - t0);
  } catch (const std::exception& e) {
    out.status = out.exit_reason = "error";
    out.error = e.what();
  } catch (...) {
    out.status = out.exit_reason = "error";
    out.error = "the sub-agent failed with an unknown exception";
  }
  std::lock_guard<std::mutex> lock(batch->mu);
  batch->outcomes[i] = std::move(out);
  batch->done[i] = true;
  if (--batch->running == 0) batch->wake.cancel();
  batch->cv.notify_all();
}

// Creates one sub-agent per task; a task whose agent cannot be created is already done,
// with an error.
std::shared_ptr<Batch> create_children(const DelegationHost& host, const DelegationRequest& request,
                                       const CancelToken& call_cancel) {
  const AgentCore& core = *host.core;
  auto registry = subagent_registry(*core.tools, host.offered_tools, request.toolsets);
  const std::size_t n = request.tasks.size();
  auto batch = std::make_shared<Batch>();
  batch->wake = call_cancel.child();
  batch->agents.resize(n);
  batch->outcomes.resize(n);
  batch->done.assign(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    auto agent = Agent::create(subagent_options(core, registry, request.tasks[i]));
    if (agent.ok()) {
      batch->agents[i] = std::move(*agent);
      ++batch->running;
      continue;
    }
    batch->outcomes[i].status = batch->outcomes[i].exit_reason = "error";
    batch->outcomes[i].error = "could not start the sub-agent: " + agent.status().to_string();
    batch->done[i] = true;
  }
  if (batch->running == 0) batch->wake.cancel();
  return batch;
}

// Interrupts the sub-agents still running and waits up to `grace` for them to stop.
void stop_children(Batch& batch, std::chrono::milliseconds grace) {
  std::unique_lock<std::mutex> lock(batch.mu);
  for (std::size_t i = 0; i < batch.agents.size(); ++i) {
    if (batch.agents[i] && !batch.done[i]) {
      batch.agents[i]->interrupt("delegating agent interrupted");
    }
  }
  batch.cv.wait_for(lock, grace, [&] { return batch.running == 0; });
}

// The outcome of every task; one still running (it ignored the interrupt) counts as
// interrupted and is left to finish on its own thread.
std::vector<SubagentOutcome> collect_outcomes(Batch& batch, std::vector<std::thread>& threads,
                                              std::chrono::duration<double> elapsed) {
  std::vector<SubagentOutcome> outcomes(threads.size());
  std::vector<bool> finished;
  {
    std::lock_guard<std::mutex> lock(batch.mu);
    finished = batch.done;
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
      if (finished[i]) {
        outcomes[i] = batch.outcomes[i];
        continue;
      }
      outcomes[i].duration_seconds = elapsed.count();
      outcomes[i].model = batch.agents[i]->options().provider.model;
      outcomes[i].error = "interrupted before it finished";
    }
  }
  for (std::size_t i = 0; i < threads.size(); ++i) {
    if (!threads[i].joinable()) continue;
    if (finished[i]) {
      threads[i].join();
    } else {
      HERMES_LOG_WARN("sub-agent {} did not stop after the interrupt; leaving it to finish", i);
      threads[i].detach();
    }
  }
  return outcomes;
}

Result<std::string> run_delegation(const Json& arguments, ToolContext& ctx,
                                   const DelegationHost& host) {
  const auto t0 = Clock::now();
  const AgentCore& core = *host.core;
  auto request =
      parse_delegation_request(arguments, core.options.delegation.max_concurrent_children);
  if (!request.ok()) return request.status();
  const std::vector<DelegateTask>& tasks = request->tasks;
  std::shared_ptr<Batch> batch = create_children(host, *request, ctx.cancel);

  std::vector<std::thread> threads(tasks.size());
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    if (!batch->agents[i]) continue;
    core.hooks.subagent_start(core.session_id, i, tasks[i].goal);
    std::string task_id = "subagent-" + ctx.tool_call_id + "-" + std::to_string(i);
    threads[i] = std::thread(run_child, batch, i, tasks[i].goal, std::move(task_id));
  }
  // Woken by the last sub-agent to finish, or by the caller's interrupt.
  while (!batch->wake.wait_for(std::chrono::hours(1))) {
  }
  if (ctx.cancel.cancelled()) stop_children(*batch, host.stop_grace);
  std::vector<SubagentOutcome> outcomes = collect_outcomes(*batch, threads, Clock::now() - t0);

  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const SubagentOutcome& o = outcomes[i];
    if (host.on_child_done) host.on_child_done(o);
    const auto took = std::chrono::duration<double>(o.duration_seconds);
    core.hooks.subagent_stop(core.session_id, i, o.status, o.summary,
                             std::chrono::duration_cast<std::chrono::milliseconds>(took));
  }
  return delegation_result_json(outcomes, Clock::now() - t0);
}

}  // namespace

std::string delegation_result_json(const std::vector<SubagentOutcome>& outcomes,
                                   std::chrono::duration<double> took) {
  Json results = Json::array();
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const SubagentOutcome& o = outcomes[i];
    Json entry{{"task_index", i},
               {"status", o.status},
               {"summary", o.summary},
               {"api_calls", o.api_calls},
               {"duration_seconds", rounded(o.duration_seconds)},
               {"model", o.model},
               {"exit_reason", o.exit_reason},
               {"tokens", {{"input", o.usage.input_tokens}, {"output", o.usage.output_tokens}}},
               {"tool_trace", o.tool_trace}};
    if (!o.error.empty()) entry["error"] = o.error;
    results.push_back(std::move(entry));
  }
  return dump_json(
      Json{{"results", std::move(results)}, {"total_duration_seconds", rounded(took.count())}});
}

std::shared_ptr<const ToolSpec> bind_delegate_task(const ToolSpec& registered,
                                                   DelegationHost host) {
  auto spec = std::make_shared<ToolSpec>(registered);
  spec->handler = [host = std::move(host)](const Json& arguments, ToolContext& ctx) {
    return run_delegation(arguments, ctx, host);
  };
  return spec;
}

}  // namespace hermes::internal
