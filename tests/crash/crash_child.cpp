// The program the crash harness kills: one conversation (three turns, four tool rounds,
// a compaction) against an in-process mock model server, persisted to
// <home>/state.db.
//
//   crash_child <home> <kill point> [full|normal]
//
// The last argument is the store's durability (full by default).
// A kill point "<event>:<n>" makes the program SIGKILL itself at the n-th event:
//   delta        a streamed text delta reaches the host
//   tool         a tool handler runs
//   request      the model server receives a request (the user message is stored)
//   summary      the model server receives the compaction's summary request
//   write        before a store write (append, rotation, usage, ...)
//   commit       after a store write returned
//   tool_row     after an append that stored an assistant message with tool calls
//   rotation     after the compaction's rotation committed
// "none" runs to the end. Progress lines go to <home>/progress ("request <n>" as the
// server receives each, "compacted" once the compaction returned, "done" at the end), and
// with "none" the totals of every event ("<event> <count>"), from which the harness
// derives its kill points.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "crash/crash_conversation.hpp"
#include "support/observed_store.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {

std::string g_progress_path;
std::string g_kill_event;
int g_kill_at = 0;
std::mutex g_mu;
std::map<std::string, int> g_counts;

void write_progress(const std::string& line) {
  int fd = ::open(g_progress_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
  if (fd < 0) return;
  std::string text = line + "\n";
  (void)!::write(fd, text.data(), text.size());
  ::close(fd);
}

// Counts one `event` and dies if it is the chosen kill point.
void event(const std::string& name) {
  std::lock_guard<std::mutex> lock(g_mu);
  int n = ++g_counts[name];
  if (name == g_kill_event && n == g_kill_at) ::kill(::getpid(), SIGKILL);
}

bool has_tool_calls(const std::vector<Message>& messages) {
  for (const Message& m : messages) {
    if (m.role == Role::kAssistant && !m.tool_calls.empty()) return true;
  }
  return false;
}

void observe_write(const StoreWrite& write) {
  if (!write.committed) return event("write");
  event("commit");
  if ((write.method == "append_messages" || write.method == "append_step") &&
      has_tool_calls(*write.messages)) {
    event("tool_row");
  }
  if (write.method == "rotate_for_compression") event("rotation");
}

bool parse_kill_point(const std::string& point) {
  if (point == "none") return true;
  auto colon = point.find(':');
  if (colon == std::string::npos) return false;
  g_kill_event = point.substr(0, colon);
  g_kill_at = std::atoi(point.c_str() + colon + 1);
  return g_kill_at > 0;
}

int fail(const std::string& what) {
  std::fprintf(stderr, "crash_child: %s\n", what.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::optional<Durability> durability =
      argc == 4 ? durability_from_name(argv[3]) : std::optional(Durability::kFull);
  if (argc < 3 || argc > 4 || !parse_kill_point(argv[2]) || !durability)
    return fail("usage: crash_child <home> <kill point> [full|normal]");
  std::string home = argv[1];
  g_progress_path = home + "/progress";

  MockServer server;
  crash::script_conversation(server);
  std::atomic<int> requests{0};
  server.on_request([&](const RecordedRequest& request, int) {
    write_progress("request " + std::to_string(++requests));
    event("request");
    if (crash::is_summary_request(request)) event("summary");
  });

  SqliteStoreOptions store_options;
  store_options.durability = *durability;
  auto sqlite = open_sqlite_store(home + "/state.db", store_options);
  if (!sqlite.ok()) return fail(sqlite.status().to_string());
  auto store = std::make_shared<ObservedStore>(*sqlite, observe_write);
  AgentOptions options = crash::conversation_options(server, home, store);
  options.tools = crash::conversation_tools([] { event("tool"); });
  options.callbacks.on_stream_delta = [](std::string_view delta) {
    if (!delta.empty()) event("delta");
  };
  auto agent = Agent::create(options);
  if (!agent.ok()) return fail(agent.status().to_string());

  for (int turn = 0; turn < 3; ++turn) {
    if (turn == 2) {
      auto compacted = (*agent)->compress();
      if (!compacted.ok() || !compacted->compacted) return fail("the compaction did not happen");
      write_progress("compacted");
    }
    ConversationResult r = (*agent)->run_conversation(crash::kUserMessages[turn]);
    if (!r.completed) return fail("turn " + std::to_string(turn + 1) + ": " + r.error);
  }
  write_progress("done");
  for (const auto& [name, count] : g_counts) write_progress(name + " " + std::to_string(count));
  return 0;
}
