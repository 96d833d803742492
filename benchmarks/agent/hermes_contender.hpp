// hermes as a benchmark contender, through its C++ API: conversations one after another,
// many at once on threads, and many idle agents held in memory.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "hermes/agent.hpp"
#include "hermes/json.hpp"
#include "hermes/runtime.hpp"
#include "hermes/session_store.hpp"
#include "hermes/status.hpp"
#include "hermes/tracing.hpp"
#include "support/mock_server.hpp"

namespace hermes::bench {

// What every hermes conversation of the benchmark shares.
struct HermesSetup {
  std::string home;  // A scratch hermes home.
  bool stream = true;
  std::shared_ptr<SessionStore> store;    // Null: persistence off.
  std::vector<Message> history;           // Carried into each conversation.
  std::shared_ptr<ToolRegistry> tools;    // Holds `add` only.
  std::shared_ptr<TraceSink> trace_sink;  // Null: tracing off.
};

// The agent options of one conversation against `base_url` (a mock server
// conversation URL, ".../c/<key>/v1").
AgentOptions bench_agent_options(const HermesSetup& setup, const std::string& base_url);

// Runs one conversation in a fresh agent: the opening message after the history, until
// the model's final text. Fails unless the turn completed with `steps` model calls.
// When `keep` is given, the agent is moved there instead of destroyed.
Status run_hermes_conversation(const HermesSetup& setup, const std::string& base_url, int steps,
                               std::unique_ptr<Agent>* keep = nullptr);

// Runs `conversations` conversations on each of `base_urls.size()` threads at once.
Status run_hermes_concurrent(const HermesSetup& setup, const std::vector<std::string>& base_urls,
                             int steps, int conversations);

// The same conversations on one hermes::Runtime with `io_threads` I/O threads: each lane
// is a chain of asynchronous turns, the next started from the previous one's callback.
// `step_latencies_us` receives every step's latency: from its start to the next step's
// start, or to the end of the turn.
Status run_hermes_concurrent_on_runtime(const HermesSetup& setup,
                                        const std::vector<std::string>& base_urls, int steps,
                                        int conversations, int io_threads,
                                        std::vector<double>& step_latencies_us);

// Makes `server` play `script` (mock response specs) to every /c/<key>/ conversation.
Status play_conversation_script(testing::MockServer& server, const Json& script);

// The request bodies hermes sends in one conversation, recorded by an in-process mock
// server that plays `script`: the floor replays them.
Result<std::vector<std::string>> capture_request_bodies(const HermesSetup& setup,
                                                        const Json& script, int steps);

}  // namespace hermes::bench
