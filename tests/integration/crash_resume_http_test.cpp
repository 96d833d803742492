// A process killed while a tool runs: what the turn had
// accepted is already in state.db, and a new agent resumes the session from it.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <thread>

#include "integration/loop_http_fixture.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {

const std::string kMissingResultStub =
    "[Result unavailable \xE2\x80\x94 see context summary above]";

bool file_exists(const std::string& path) {
  return std::ifstream(path).good();
}

// The child's turn: its only tool writes `marker` and then blocks far longer than the
// parent waits, so the SIGKILL always lands mid-tool. Never returns.
[[noreturn]] void run_turn_until_killed(AgentOptions options, const std::string& marker) {
  auto tools = std::make_shared<ToolRegistry>();
  ToolSpec spec;
  spec.name = "slow_step";
  spec.description = "Takes a long time.";
  spec.handler = [marker](const Json&, ToolContext&) -> Result<std::string> {
    std::ofstream(marker) << "started";
    std::this_thread::sleep_for(std::chrono::seconds(60));
    return std::string("{}");
  };
  if (!tools->register_tool(spec).ok()) _exit(2);
  options.tools = tools;
  options.callbacks = {};
  auto agent = Agent::create(options);
  if (!agent.ok()) _exit(3);
  (*agent)->run_conversation("Take the slow step, then report.");
  _exit(4);  // Only reached if the tool returned before the kill.
}

}  // namespace

TEST_CASE("a process killed mid-tool loses no accepted message and its session resumes") {
  LoopHttpFixture f;
  f.server.enqueue(chat::tool_calls({{"call_slow", "slow_step", "{}"}}, true, "Starting now."));
  const std::string marker = f.home.file("tool-started");
  AgentOptions options = f.options();

  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) run_turn_until_killed(options, marker);

  for (int i = 0; i < 1000 && !file_exists(marker); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const bool tool_ran = file_exists(marker);
  kill(child, SIGKILL);
  int wait_status = 0;
  REQUIRE(waitpid(child, &wait_status, 0) == child);
  REQUIRE(tool_ran);
  REQUIRE(WIFSIGNALED(wait_status));

  // The user message and the assistant's call were stored before the tool started.
  auto store = open_sqlite_store(default_state_db_path(f.home.path()));
  REQUIRE(store.ok());
  auto sessions = (*store)->list_sessions(ListOptions{});
  REQUIRE(sessions.ok());
  REQUIRE(sessions->size() == 1);
  const std::string session_id = (*sessions)[0].id;
  auto stored = f.stored(session_id);
  REQUIRE(roles_of(stored) == "user assistant");
  CHECK(stored[0].content == "Take the slow step, then report.");
  REQUIRE(stored[1].tool_calls.size() == 1);
  CHECK(stored[1].tool_calls[0].id == "call_slow");
  CHECK(stored[1].content == "Starting now.");

  // A new agent resumes: the unanswered call gets a stub result on the wire, so the
  // request is valid, and the next turn completes.
  f.server.enqueue(chat::text("The slow step was cut short; nothing to report.", true));
  options.persistence.session_id = session_id;
  auto resumed = f.agent(options);
  CHECK(roles_of(resumed->history()) == "user assistant");
  ConversationResult r = resumed->run_conversation("What happened?");
  REQUIRE_MESSAGE(r.completed, r.error);
  CHECK(r.session_id == session_id);

  Json sent = f.sent_messages(1);
  REQUIRE(roles_of(sent) == "user assistant tool user");
  CHECK(sent[3]["tool_call_id"] == "call_slow");
  CHECK(sent[3]["content"] == kMissingResultStub);
  CHECK(sent[4]["content"] == "What happened?");

  auto after = f.stored(session_id);
  CHECK(roles_of(after) == "user assistant user assistant");
  CHECK(after.back().content == "The slow step was cut short; nothing to report.");
}
