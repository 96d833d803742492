// hermes-soak: one agent runs turn after turn against the in-process mock model server
// for a while, with faults injected at random (rate limits, server errors, connections
// dropped mid-stream or before any byte, context overflows that force a compaction),
// persisting to a SQLite store. At the end every user message and every answer the
// agent reported must be in the store.
//
//   hermes-soak [--seconds N] [--seed S]
//
// Prints one summary line and exits 1 if any message was lost.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <string_view>

#include "hermes/hermes.hpp"
#include "support/mock_responses.hpp"
#include "support/mock_server.hpp"
#include "support/store_capabilities.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {

constexpr int kTurnsPerSession = 30;  // Bounds the transcript: /new after this many.

enum class Fault { kNone, kRateLimit, kServerError, kDropMidStream, kCloseEarly, kOverflow };

const char* fault_name(Fault f) {
  switch (f) {
    case Fault::kNone:
      return "none";
    case Fault::kRateLimit:
      return "429";
    case Fault::kServerError:
      return "500";
    case Fault::kDropMidStream:
      return "drop";
    case Fault::kCloseEarly:
      return "close";
    case Fault::kOverflow:
      return "overflow";
  }
  return "?";
}

long rss_kib() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  }
  return 0;
}

MockResponse fault_response(Fault f) {
  switch (f) {
    case Fault::kRateLimit:
      return chat::error(429, "Rate limit reached", "rate_limit_exceeded", {{"Retry-After", "0"}});
    case Fault::kServerError:
      return chat::error(500, "The server had an error while processing your request", "",
                         {{"Retry-After", "0"}});
    case Fault::kDropMidStream: {
      MockResponse r = chat::text("This answer will be cut off in the middle of it.", true);
      r.drop_after_chunks = 3;
      return r;
    }
    case Fault::kCloseEarly: {
      MockResponse r;
      r.close_before_headers = true;
      return r;
    }
    case Fault::kOverflow:
      return chat::error(400,
                         "This model's maximum context length is 8192 tokens. However, your "
                         "messages resulted in 9000 tokens. Please reduce the length.",
                         "context_length_exceeded");
    case Fault::kNone:
      break;
  }
  return {};
}

// The model's side of one turn: the fault first (and the summary an overflow needs),
// then a tool round or not, then the answer.
void script_turn(MockServer& server, Fault fault, bool tool_round, const std::string& answer) {
  server.reset();
  if (fault != Fault::kNone) server.enqueue(fault_response(fault));
  if (fault == Fault::kOverflow) {
    server.enqueue(
        chat::text("## Goal\nKeep answering.\n## Completed Actions\nMany turns.", false));
  }
  if (tool_round) server.enqueue(chat::tool_calls({{"", "add", R"({"a": 1, "b": 2})"}}, true));
  server.enqueue(chat::text(answer, true));
}

struct Totals {
  long turns = 0;
  long completed = 0;
  long faults = 0;
  long faults_survived = 0;
  long lost = 0;
  std::set<std::string> expected;  // User messages and answers that must be stored.
};

// Counts the expected texts that no stored row of any session carries.
long count_lost(SessionStore& store, const std::set<std::string>& expected) {
  ListOptions all;
  all.limit = 1'000'000;
  auto sessions = store.list_sessions(all);
  if (!sessions.ok()) return static_cast<long>(expected.size());
  std::set<std::string> found;
  for (const SessionInfo& s : *sessions) {
    auto rows = search_of(store).read_messages(s.id);
    if (!rows.ok()) continue;
    for (const StoredMessage& row : *rows) {
      if (expected.count(row.message.content)) found.insert(row.message.content);
    }
  }
  return static_cast<long>(expected.size() - found.size());
}

std::shared_ptr<ToolRegistry> soak_tools() {
  auto tools = std::make_shared<ToolRegistry>();
  ToolSpec add;
  add.name = "add";
  add.description = "Add two numbers.";
  add.parameters = Json::parse(
      R"({"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}})");
  add.handler = [](const Json& a, ToolContext&) -> Result<std::string> {
    return Json{{"sum", a.value("a", 0.0) + a.value("b", 0.0)}}.dump();
  };
  (void)tools->register_tool(add);
  return tools;
}

}  // namespace

int main(int argc, char** argv) {
  long seconds = 600;
  unsigned seed = 20261129;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string_view arg = argv[i];
    if (arg == "--seconds")
      seconds = std::atol(argv[i + 1]);
    else if (arg == "--seed")
      seed = static_cast<unsigned>(std::atol(argv[i + 1]));
  }
  set_log_sink([](LogLevel, std::string_view) {});  // Faults are expected; keep quiet.

  MockServer server;
  server.set_recording(false);
  TempDir home;
  auto store = open_sqlite_store(home.file("state.db"));
  if (!store.ok()) return std::fprintf(stderr, "%s\n", store.status().to_string().c_str()), 2;
  AgentOptions o;
  o.provider.model = "mock-model";
  o.provider.base_url = server.base_url();
  o.provider.api_key = "sk-soak";
  o.home = home.path();
  o.tools = soak_tools();
  o.persistence.store = *store;
  o.failover.max_retries = 3;
  o.compression.context_length = 1'000'000;
  o.compression.protect_last_n = 4;
  auto agent = Agent::create(o);
  if (!agent.ok()) return std::fprintf(stderr, "%s\n", agent.status().to_string().c_str()), 2;

  std::mt19937 rng(seed);
  // Drops and early closes carry no Retry-After, so each costs a real backoff (2-3 s):
  // they are rarer, or the run would mostly wait.
  std::discrete_distribution<int> pick_fault({80, 5, 5, 3, 3, 4});
  Totals t;
  long rss_start = rss_kib();
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  std::map<std::string, long> by_fault;
  for (int in_session = 0; std::chrono::steady_clock::now() < deadline; ++t.turns) {
    if (in_session == kTurnsPerSession) {
      (void)(*agent)->new_session();
      in_session = 0;
    }
    auto fault = static_cast<Fault>(pick_fault(rng));
    // A compaction needs a middle to summarise: no overflow in a session's first turns.
    if (fault == Fault::kOverflow && in_session < 6) fault = Fault::kNone;
    std::string n = std::to_string(t.turns);
    std::string user = "soak turn " + n + ": please add one and two";
    std::string answer = "Turn " + n + " answered: one and two make three.";
    script_turn(server, fault, rng() % 2 == 0, answer);
    ConversationResult r = (*agent)->run_conversation(user);
    ++in_session;
    t.expected.insert(user);
    bool answered = r.completed && r.final_response == answer;
    if (answered) {
      ++t.completed;
      t.expected.insert(answer);
    }
    if (fault != Fault::kNone) {
      ++t.faults;
      ++by_fault[fault_name(fault)];
      if (answered) ++t.faults_survived;
    }
  }
  long rss_end = rss_kib();
  t.lost = count_lost(**store, t.expected);
  std::printf("soak: %ld s, %ld turns, %ld completed; %ld faults injected (", seconds, t.turns,
              t.completed, t.faults);
  const char* sep = "";
  for (const auto& [name, count] : by_fault) {
    std::printf("%s%s %ld", sep, name.c_str(), count);
    sep = ", ";
  }
  std::printf("), %ld survived; messages lost %ld; RSS start %ld KiB, end %ld KiB\n",
              t.faults_survived, t.lost, rss_start, rss_end);
  return t.lost == 0 ? 0 : 1;
}
