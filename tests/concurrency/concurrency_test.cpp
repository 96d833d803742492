// Concurrency: agents on their own threads share one SQLite store, one tool registry and
// one mock model server, while other threads interrupt and steer them at random moments,
// register tools and read the store. Afterwards every session must hold exactly what its
// agent says it has: its own user messages, once each and in order, and every tool
// result after its call. Run under ThreadSanitizer to find data races.
//
// HERMES_CONCURRENCY_AGENTS (default 6) and HERMES_CONCURRENCY_TURNS (default 30) scale it.
//
// The second case runs HERMES_RUNTIME_CONVERSATIONS (default 1,000) conversations at once
// on one Runtime (two I/O threads), each turn starting the next from its completion
// callback, with the same interrupts and steers raced in, and some agents destroyed
// while their turn is in flight.
#include <doctest/doctest.h>
#include <sys/resource.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>
#include <thread>

#include "hermes/hermes.hpp"
#include "support/mock_responses.hpp"
#include "support/mock_server.hpp"
#include "support/store_capabilities.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

// Slow enough (a pause between chunks) that interrupts land mid-stream; tool rounds of
// one and of two parallel calls, and plain answers. The server loops over them, so
// every agent gets some mix of them in some order, each a valid conversation.
void script_server(MockServer& server) {
  std::vector<MockResponse> script;
  for (int i = 0; i < 4; ++i) {
    std::string n = std::to_string(i);
    MockResponse one =
        chat::tool_calls({{"call_one_" + n, "slow_add", R"({"a": 1, "b": 2})"}}, true);
    MockResponse two = chat::tool_calls({{"call_x_" + n, "slow_add", R"({"a": 3, "b": 4})"},
                                         {"call_y_" + n, "slow_add", R"({"a": 5, "b": 6})"}},
                                        true);
    MockResponse text =
        chat::text("All of the numbers have been added up now, reply " + n + ".", true);
    for (MockResponse* r : {&one, &two, &text}) r->chunk_delay = std::chrono::milliseconds(1);
    script.push_back(std::move(one));
    script.push_back(std::move(text));
    script.push_back(std::move(two));
  }
  server.enqueue(std::move(script));
  server.set_looping(true);
  server.set_recording(false);
}

// A tool that takes a few milliseconds unless its turn is interrupted.
ToolSpec slow_add() {
  ToolSpec spec;
  spec.name = "slow_add";
  spec.description = "Add two numbers, slowly.";
  spec.parameters = Json::parse(
      R"({"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}})");
  spec.handler = [](const Json& args, ToolContext& ctx) -> Result<std::string> {
    if (ctx.cancel.wait_for(std::chrono::milliseconds(2))) return Status::cancelled("interrupted");
    return Json{{"sum", args.value("a", 0.0) + args.value("b", 0.0)}}.dump();
  };
  return spec;
}

std::string user_text(int agent, int turn) {
  return "agent " + std::to_string(agent) + " turn " + std::to_string(turn) + ": add things";
}

// What is wrong with one agent's session ("" when nothing is).
std::string check_session(SessionStore& store, Agent& agent, int index, int turns) {
  auto stored = store.load_messages(agent.session_id());
  if (!stored.ok()) return stored.status().to_string();
  std::vector<Message> history = agent.history();
  if (stored->size() != history.size()) {
    return "store has " + std::to_string(stored->size()) + " messages, the agent " +
           std::to_string(history.size());
  }
  int next_turn = 0;
  std::set<std::string> open_calls;
  for (std::size_t i = 0; i < history.size(); ++i) {
    const Message& m = (*stored)[i];
    if (m.role != history[i].role || m.content != history[i].content) {
      return "message " + std::to_string(i) + " differs from the agent's";
    }
    if (m.role == Role::kUser && m.content.rfind("agent ", 0) == 0) {
      if (m.content != user_text(index, next_turn)) return "unexpected user message: " + m.content;
      ++next_turn;
    }
    if (m.role == Role::kTool && open_calls.erase(m.tool_call_id) == 0) {
      return "a tool result without its call: " + m.tool_call_id;
    }
    if (m.role == Role::kAssistant) {
      open_calls.clear();
      for (const ToolCall& call : m.tool_calls) open_calls.insert(call.id);
    }
  }
  if (next_turn != turns) return std::to_string(next_turn) + " of the user messages were stored";
  return "";
}

struct Counters {
  std::atomic<long> turns{0};
  std::atomic<long> interrupted{0};
  std::atomic<long> interrupts{0};
  std::atomic<long> steers{0};
  std::atomic<long> reads{0};
  std::atomic<long> registrations{0};
};

// Interrupts and steers `agent` at random moments until `stop`.
void race(Agent& agent, const std::atomic<bool>& stop, Counters& counters, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> pause_us(0, 8000);
  std::uniform_int_distribution<int> action(0, 299);
  while (!stop.load()) {
    std::this_thread::sleep_for(std::chrono::microseconds(pause_us(rng)));
    int a = action(rng);
    if (a == 0) {
      agent.interrupt("stop, please");
      ++counters.interrupts;
    } else if (a <= 60) {
      (void)agent.steer("please also mention the weather");
      ++counters.steers;
    }
  }
}

// Reads the shared store while it is written: search, listing, one session's rows.
void read_store(SessionStore& store, const std::atomic<bool>& stop, Counters& counters) {
  ListOptions recent;
  recent.limit = 5;
  while (!stop.load()) {
    (void)search_of(store).search("numbers");
    auto sessions = store.list_sessions(recent);
    if (sessions.ok() && !sessions->empty()) (void)store.load_messages(sessions->front().id);
    ++counters.reads;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

// Adds and removes tools of the shared registry while agents resolve it.
void churn_registry(ToolRegistry& tools, const std::atomic<bool>& stop, Counters& counters) {
  for (int i = 0; !stop.load(); ++i) {
    ToolSpec extra = slow_add();
    extra.name = "extra_" + std::to_string(i % 4);
    extra.toolset = "extras";
    if (i % 2 == 0)
      (void)tools.register_tool(extra);
    else
      (void)tools.unregister_tool(extra.name);
    ++counters.registrations;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// What every agent of both cases shares: the mock model, one store and one registry
// holding the slow tool, a short budget.
struct SharedWorld {
  MockServer server;
  TempDir home;
  std::shared_ptr<SessionStore> store;
  std::shared_ptr<ToolRegistry> tools = std::make_shared<ToolRegistry>();

  SharedWorld() {
    script_server(server);
    auto opened = open_sqlite_store(home.file("state.db"));
    REQUIRE(opened.ok());
    store = *opened;
    REQUIRE(tools->register_tool(slow_add()).ok());
  }

  // Every other agent gives parallel calls about as long as they take, so some overrun:
  // their workers go on (and touch the agent's tool state) while the turn moves on.
  AgentOptions options(int index) const {
    AgentOptions o;
    o.provider.model = "mock-model";
    o.provider.base_url = server.base_url();
    o.provider.api_key = "sk-test";
    o.home = home.path();
    o.tools = tools;
    o.persistence.store = store;
    o.max_iterations = 6;
    o.failover.max_retries = 1;
    o.compression.context_length = 1'000'000;
    if (index % 2 == 1) o.tool_use.batch_timeout = std::chrono::milliseconds(2);
    return o;
  }
};

}  // namespace

TEST_CASE(
    "agents sharing a store and a registry keep every session intact under interrupts and steers") {
  const int agents = env_int("HERMES_CONCURRENCY_AGENTS", 6);
  const int turns = env_int("HERMES_CONCURRENCY_TURNS", 30);
  SharedWorld world;
  // Every agent traces into one exporter, which sends to a collector on loopback while
  // the turns run: spans end on turn threads and on tool workers (overdue ones too).
  MockServer collector;
  MockResponse accepted;
  accepted.body = "{}";
  collector.set_default(accepted);
  collector.set_recording(false);
  OtlpExporterOptions exporter_options;
  exporter_options.endpoint = collector.url();
  exporter_options.schedule_delay = std::chrono::milliseconds(50);
  exporter_options.metric_export_interval = std::chrono::milliseconds(200);
  auto exporter = OtlpExporter::create(exporter_options);
  REQUIRE(exporter.ok());

  std::vector<std::unique_ptr<Agent>> pool;
  for (int i = 0; i < agents; ++i) {
    AgentOptions o = world.options(i);
    o.tool_use.enabled_toolsets = {"custom", "extras"};
    o.tracing.sink = *exporter;
    auto agent = Agent::create(o);
    REQUIRE(agent.ok());
    pool.push_back(std::move(*agent));
  }

  Counters counters;
  std::atomic<bool> stop{false};
  std::vector<std::thread> helpers;
  for (int i = 0; i < agents; ++i) {
    helpers.emplace_back(race, std::ref(*pool[i]), std::cref(stop), std::ref(counters), 1000u + i);
  }
  helpers.emplace_back(read_store, std::ref(*world.store), std::cref(stop), std::ref(counters));
  helpers.emplace_back(churn_registry, std::ref(*world.tools), std::cref(stop), std::ref(counters));

  std::vector<std::thread> workers;
  for (int i = 0; i < agents; ++i) {
    workers.emplace_back([&, i] {
      for (int t = 0; t < turns; ++t) {
        ConversationResult r = pool[i]->run_conversation(user_text(i, t));
        ++counters.turns;
        if (r.interrupted) ++counters.interrupted;
      }
    });
  }
  for (auto& w : workers) w.join();
  stop = true;
  for (auto& h : helpers) h.join();

  std::printf(
      "concurrency: %d agents x %d turns = %ld turns (%ld interrupted); %ld interrupts, "
      "%ld steers raced; %ld store reads, %ld registry changes\n",
      agents, turns, counters.turns.load(), counters.interrupted.load(), counters.interrupts.load(),
      counters.steers.load(), counters.reads.load(), counters.registrations.load());
  CHECK(counters.turns == agents * turns);
  (*exporter)->flush(std::chrono::seconds(30));
  const OtlpExporterStats traced = (*exporter)->stats();
  CHECK(traced.spans_queued > static_cast<uint64_t>(agents * turns));
  CHECK(traced.spans_failed == 0);
  CHECK(traced.spans_exported == traced.spans_queued);  // Flushed: every accepted span sent.
  for (int i = 0; i < agents; ++i) {
    CAPTURE(i);
    CHECK(check_session(*world.store, *pool[i], i, turns) == "");
  }
}

namespace {

// Each connection is a socket on both ends of the loopback (client and mock server).
void raise_open_file_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
}

}  // namespace

TEST_CASE("a thousand conversations on one runtime keep every session intact") {
  raise_open_file_limit();
  const int conversations = env_int("HERMES_RUNTIME_CONVERSATIONS", 1000);
  const int turns = 2;
  SharedWorld world;
  RuntimeOptions runtime_options;
  runtime_options.io_threads = 2;
  runtime_options.tool_workers = 8;
  auto runtime = Runtime::create(runtime_options);
  REQUIRE(runtime.ok());

  std::vector<std::unique_ptr<Agent>> pool;
  for (int i = 0; i < conversations; ++i) {
    AgentOptions o = world.options(i);
    auto agent = Agent::create(o);
    REQUIRE(agent.ok());
    pool.push_back(std::move(*agent));
  }

  // The last agents are destroyed while their only turn is in flight.
  const int dropped = conversations / 50;
  auto turns_of = [&](int i) { return i >= conversations - dropped ? 1 : turns; };
  std::mutex mu;
  std::condition_variable all_done;
  int finished = 0;  // Conversations whose last turn ended. Guarded by mu.
  std::atomic<long> interrupted{0};
  // How each conversation's failed turns ended, for the report of a broken session. Each
  // entry is touched by its own conversation's turns only, one at a time.
  std::vector<std::string> failures(static_cast<std::size_t>(conversations));
  // Starts turn `t` of conversation `i`; its callback starts the next one.
  std::function<void(int, int)> start = [&](int i, int t) {
    Status started = pool[i]->run_conversation_async(
        **runtime, user_text(i, t), {}, [&, i, t](ConversationResult r) {
          if (r.interrupted) ++interrupted;
          if (r.failed) failures[i] += r.exit_reason + ": " + r.error + "; ";
          if (t + 1 < turns_of(i)) return start(i, t + 1);
          std::lock_guard lock(mu);
          if (++finished == conversations) all_done.notify_all();
        });
    CHECK(started.ok());
  };
  for (int i = 0; i < conversations; ++i) start(i, 0);

  Counters counters;
  std::atomic<bool> stop{false};
  std::vector<std::thread> racers;
  for (int i = 0; i < 4; ++i) {
    racers.emplace_back(race, std::ref(*pool[i * (conversations / 4)]), std::cref(stop),
                        std::ref(counters), 2000u + i);
  }
  for (int k = 0; k < dropped; ++k) pool[conversations - 1 - k].reset();
  {
    std::unique_lock lock(mu);
    REQUIRE(all_done.wait_for(lock, std::chrono::minutes(10),
                              [&] { return finished == conversations; }));
  }
  stop = true;
  for (auto& r : racers) r.join();
  std::printf("runtime: %d conversations x %d turns (%ld interrupted, %d agents dropped)\n",
              conversations, turns, interrupted.load(), dropped);
  const RuntimeStats stats = (*runtime)->stats();
  CHECK(stats.turns_started ==
        static_cast<std::size_t>((conversations - dropped) * turns + dropped));
  for (int i = 0; i < conversations - dropped; ++i) {
    CAPTURE(i);
    CAPTURE(failures[i]);
    CHECK(check_session(*world.store, *pool[i], i, turns) == "");
  }
}
