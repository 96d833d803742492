#include "hermes_contender.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include "workload.hpp"

namespace hermes::bench {

AgentOptions bench_agent_options(const HermesSetup& setup, const std::string& base_url) {
  AgentOptions options;
  options.provider.model = "bench-model";
  options.provider.provider = "custom";
  options.provider.base_url = base_url;
  options.provider.api_key = "sk-bench";
  options.request.stream = setup.stream;
  options.tools = setup.tools;
  options.tool_use.enabled_toolsets = {"bench"};
  options.home = setup.home;
  options.persistence.store = setup.store;
  options.persistence.enabled = setup.store != nullptr;
  // Known up front, so no metadata probe goes to the server. Compression stays on, as in
  // a default agent: its checks run at every step, but the largest history (about 200k
  // tokens) stays below the threshold (half the window), so it never fires.
  options.compression.context_length = 1'000'000;
  options.tracing.sink = setup.trace_sink;
  return options;
}

namespace {

Status check_result(const ConversationResult& result, int steps) {
  if (!result.completed) {
    return Status::internal("hermes: turn did not complete: " + result.exit_reason + " " +
                            result.error);
  }
  if (result.api_calls != steps) {
    return Status::internal("hermes: " + std::to_string(result.api_calls) +
                            " model calls, expected " + std::to_string(steps));
  }
  return Status();
}

}  // namespace

Status run_hermes_conversation(const HermesSetup& setup, const std::string& base_url, int steps,
                               std::unique_ptr<Agent>* keep) {
  Result<std::unique_ptr<Agent>> agent = Agent::create(bench_agent_options(setup, base_url));
  if (!agent.ok()) return agent.status();
  ConversationResult result =
      (*agent)->run_conversation(opening_message(), std::nullopt, setup.history);
  HERMES_RETURN_IF_ERROR(check_result(result, steps));
  if (keep != nullptr) *keep = std::move(agent).value();
  return Status();
}

Status run_hermes_concurrent(const HermesSetup& setup, const std::vector<std::string>& base_urls,
                             int steps, int conversations) {
  std::mutex failure_mutex;
  Status failure;
  std::vector<std::thread> threads;
  threads.reserve(base_urls.size());
  for (const std::string& url : base_urls) {
    threads.emplace_back([&, url] {
      for (int c = 0; c < conversations; ++c) {
        Status s = run_hermes_conversation(setup, url, steps);
        if (s.ok()) continue;
        std::lock_guard lock(failure_mutex);
        failure = s;
        return;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  return failure;
}

Status run_hermes_concurrent_on_runtime(const HermesSetup& setup,
                                        const std::vector<std::string>& base_urls, int steps,
                                        int conversations, int io_threads,
                                        std::vector<double>& step_latencies_us) {
  using Clock = std::chrono::steady_clock;
  RuntimeOptions options;
  options.io_threads = io_threads;
  auto runtime = Runtime::create(options);
  if (!runtime.ok()) return runtime.status();
  std::mutex mu;
  std::condition_variable all_done;
  std::size_t lanes_done = 0;  // Guarded by mu.
  Status failure;              // Guarded by mu.
  // One agent per lane at a time; the finished one is dropped when the next replaces it.
  std::vector<std::unique_ptr<Agent>> agents(base_urls.size());
  // When each lane's current step started. Touched only by the lane's own turn (its step
  // and completion callbacks), one at a time.
  std::vector<std::optional<Clock::time_point>> step_started(base_urls.size());
  auto end_step = [&](std::size_t lane) {
    const auto now = Clock::now();
    if (step_started[lane]) {
      const double us =
          std::chrono::duration<double, std::micro>(now - *step_started[lane]).count();
      std::lock_guard lock(mu);
      step_latencies_us.push_back(us);
    }
    step_started[lane] = now;
  };
  auto lane_ended = [&](const Status& s) {
    std::lock_guard lock(mu);
    if (!s.ok()) failure = s;
    if (++lanes_done == base_urls.size()) all_done.notify_all();
  };
  std::function<void(std::size_t, int)> start = [&](std::size_t lane, int conversation) {
    AgentOptions agent_options = bench_agent_options(setup, base_urls[lane]);
    agent_options.callbacks.on_step = [&end_step, lane](int, const std::vector<ToolOutcome>&) {
      end_step(lane);
    };
    Result<std::unique_ptr<Agent>> agent = Agent::create(agent_options);
    if (!agent.ok()) return lane_ended(agent.status());
    TurnOptions turn;
    turn.conversation_history = setup.history;
    Agent& started = **agent;
    agents[lane] = std::move(agent).value();  // The previous one has finished its turn.
    step_started[lane].reset();
    auto done = [&, lane, conversation](ConversationResult result) {
      end_step(lane);
      Status checked = check_result(result, steps);
      if (!checked.ok() || conversation + 1 == conversations) return lane_ended(checked);
      start(lane, conversation + 1);
    };
    Status s = started.run_conversation_async(**runtime, opening_message(), std::move(turn),
                                              std::move(done));
    if (!s.ok()) lane_ended(s);
  };
  for (std::size_t lane = 0; lane < base_urls.size(); ++lane) start(lane, 0);
  std::unique_lock lock(mu);
  all_done.wait(lock, [&] { return lanes_done == base_urls.size(); });
  lock.unlock();
  agents.clear();
  return failure;
}

Status play_conversation_script(testing::MockServer& server, const Json& script) {
  std::vector<testing::MockResponse> responses;
  for (const Json& spec : script) {
    Result<testing::MockResponse> response = testing::mock_response_from_json(spec);
    if (!response.ok()) return response.status();
    responses.push_back(std::move(response).value());
  }
  server.set_conversation_script(std::move(responses));
  return Status();
}

Result<std::vector<std::string>> capture_request_bodies(const HermesSetup& setup,
                                                        const Json& script, int steps) {
  testing::MockServer server;
  if (Status s = play_conversation_script(server, script); !s.ok()) return s;
  if (Status s = run_hermes_conversation(setup, server.url() + "/c/capture/v1", steps); !s.ok()) {
    return s;
  }
  std::vector<std::string> bodies;
  for (const testing::RecordedRequest& request : server.requests()) {
    bodies.push_back(request.body);
  }
  return bodies;
}

}  // namespace hermes::bench
