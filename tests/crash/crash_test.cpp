// Crash safety: a conversation (tool rounds, a compaction) is killed with SIGKILL at every
// point the child program can name and at random moments, and each time the store it
// leaves behind must be whole: the database passes integrity_check, the user's messages
// are there, a compaction is either fully applied or not at all, and the conversation
// resumes with every tool call answered and completes a follow-up turn.
//
// The harness runs once per durability of the SQLite store: normal (no fsync at commit)
// must lose nothing to a killed process either. HERMES_CRASH_RANDOM_KILLS (default 60)
// and HERMES_CRASH_SEED change the random part.
#include <doctest/doctest.h>
#include <signal.h>
#include <spawn.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "crash/crash_conversation.hpp"
#include "support/mock_responses.hpp"
#include "support/store_capabilities.hpp"
#include "support/temp_dir.hpp"

extern char** environ;

using namespace hermes;
using namespace hermes::testing;
namespace fs = std::filesystem;

namespace {

constexpr const char* kFollowUp = "Are you still there after all that?";
constexpr const char* kFollowUpAnswer = "Yes, still here and ready.";

// What the child wrote to its progress file.
struct Progress {
  int requests = 0;
  bool compacted = false;
  bool done = false;
  std::map<std::string, int> counts;  // Event totals (runs to the end only).
};

// Kills that left the store in one of the states worth knowing the harness reached.
struct Reached {
  int dangling_tool_calls = 0;  // The newest session ended on calls without results.
  int compacted = 0;            // The compaction was in the store.
};
Reached g_reached;

Progress read_progress(const std::string& home) {
  Progress p;
  std::ifstream in(home + "/progress");
  std::string word;
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    fields >> word;
    if (word == "compacted")
      p.compacted = true;
    else if (word == "done")
      p.done = true;
    else if (fields >> n) {
      if (word == "request")
        p.requests = std::max(p.requests, n);
      else
        p.counts[word] = n;
    }
  }
  return p;
}

pid_t spawn_child(const std::string& home, const std::string& point,
                  const std::string& durability) {
  std::string program = HERMES_CRASH_CHILD;
  char* argv[] = {program.data(), const_cast<char*>(home.c_str()), const_cast<char*>(point.c_str()),
                  const_cast<char*>(durability.c_str()), nullptr};
  pid_t pid = 0;
  if (posix_spawn(&pid, program.c_str(), nullptr, nullptr, argv, environ) != 0) return -1;
  return pid;
}

// "killed", "exited" (ran to the end) or what else ended the child.
std::string wait_child(pid_t pid) {
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return "lost";
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) return "killed";
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "exited";
  if (WIFEXITED(status)) return "exit code " + std::to_string(WEXITSTATUS(status));
  return "signal " + std::to_string(WTERMSIG(status));
}

std::string integrity_check(const std::string& path) {
  sqlite3* db = nullptr;
  std::string verdict = "cannot open";
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW) {
      verdict = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    }
    sqlite3_finalize(stmt);
  }
  sqlite3_close(db);
  return verdict;
}

// Every tool call of the request answered right after it, every result after its call.
std::string check_tool_pairs(const Json& messages) {
  std::set<std::string> open;
  for (const Json& m : messages) {
    std::string role = m.value("role", "");
    if (role == "tool") {
      std::string id = m.value("tool_call_id", "");
      if (open.erase(id) == 0) return "a tool result without its call: " + id;
      continue;
    }
    if (!open.empty()) return "a tool call without a result: " + *open.begin();
    if (role == "assistant" && m.contains("tool_calls")) {
      for (const Json& call : m["tool_calls"]) open.insert(call.value("id", ""));
    }
  }
  return open.empty() ? "" : "a tool call without a result: " + *open.begin();
}

// The request that carries each turn's user message to the model comes after it is
// stored: turn 1 sends requests 1-4, turn 2 request 5, the summary is 6, turn 3 7-8.
std::vector<std::string> user_messages_owed(const Progress& p) {
  std::vector<std::string> owed;
  if (p.requests >= 1) owed.push_back(crash::kUserMessages[0]);
  if (p.requests >= 5) owed.push_back(crash::kUserMessages[1]);
  if (p.requests >= 7) owed.push_back(crash::kUserMessages[2]);
  return owed;
}

std::string check_lineage(const std::vector<SessionInfo>& sessions, SessionStore& store,
                          const Progress& p) {
  std::map<std::string, const SessionInfo*> by_id;
  for (const SessionInfo& s : sessions) by_id[s.id] = &s;
  int roots = 0, compressed = 0;
  for (const SessionInfo& s : sessions) {
    if (s.parent_session_id.empty()) {
      ++roots;
    } else {
      auto parent = by_id.find(s.parent_session_id);
      if (parent == by_id.end()) return "a child whose parent is missing";
      if (parent->second->end_reason != "compression") return "a child of a live parent";
      auto rows = store.load_messages(s.id);
      if (!rows.ok() || rows->empty()) return "a compaction child without its summary";
    }
    if (s.end_reason == "compression") {
      ++compressed;
      bool has_child = std::any_of(sessions.begin(), sessions.end(), [&](const SessionInfo& c) {
        return c.parent_session_id == s.id;
      });
      if (!has_child) return "a session ended by compression without its child";
    }
  }
  if (roots != 1) return std::to_string(roots) + " root sessions";
  if (compressed > 1) return "more than one compaction";
  if (p.compacted && compressed != 1) return "a compaction that returned is not in the store";
  g_reached.compacted += compressed;
  return "";
}

std::string check_user_messages(const std::vector<SessionInfo>& sessions, SessionStore& store,
                                const Progress& p) {
  std::set<std::string> stored;
  for (const SessionInfo& s : sessions) {
    auto rows = search_of(store).read_messages(s.id);
    if (!rows.ok()) return "cannot read " + s.id + ": " + rows.status().to_string();
    for (const StoredMessage& row : *rows) {
      if (row.message.role == Role::kUser) stored.insert(row.message.content);
    }
  }
  for (const std::string& text : user_messages_owed(p)) {
    if (!stored.count(text)) return "a user message was lost: " + text;
  }
  return "";
}

bool ends_with_unanswered_call(const std::vector<Message>& messages) {
  std::set<std::string> open;
  for (const Message& m : messages) {
    if (m.role == Role::kTool) open.erase(m.tool_call_id);
    if (m.role == Role::kAssistant) {
      open.clear();
      for (const ToolCall& call : m.tool_calls) open.insert(call.id);
    }
  }
  return !open.empty();
}

// Resumes the conversation's newest session and runs one more turn.
std::string check_resume(const std::string& home, std::shared_ptr<SessionStore> store,
                         const std::string& root_id) {
  auto tip = compaction_of(store).resolve_resume_session_id(root_id);
  if (!tip.ok()) return "no session to resume: " + tip.status().to_string();
  if (auto before = store->load_messages(*tip); before.ok() && ends_with_unanswered_call(*before)) {
    ++g_reached.dangling_tool_calls;
  }
  MockServer server;
  server.enqueue(chat::text(kFollowUpAnswer, false));
  AgentOptions options = crash::conversation_options(server, home, store);
  options.persistence.session_id = *tip;
  auto agent = Agent::create(options);
  if (!agent.ok()) return "resume failed: " + agent.status().to_string();
  ConversationResult r = (*agent)->run_conversation(kFollowUp);
  if (!r.completed || r.final_response != kFollowUpAnswer)
    return "the follow-up failed: " + r.error;
  auto requests = server.requests();
  if (requests.size() != 1)
    return "the follow-up made " + std::to_string(requests.size()) + " requests";
  if (std::string e = check_tool_pairs(requests[0].json()["messages"]); !e.empty()) return e;
  auto rows = store->load_messages(r.session_id);
  if (!rows.ok() || rows->size() < 2 || (*rows)[rows->size() - 2].content != kFollowUp ||
      rows->back().content != kFollowUpAnswer) {
    return "the follow-up turn was not stored";
  }
  return "";
}

// Every invariant of the store a killed child left in `home`; "" when all hold.
std::string verify(const std::string& home) {
  Progress p = read_progress(home);
  std::string path = home + "/state.db";
  if (!fs::exists(path)) return p.requests > 0 ? "the model was called but nothing was stored" : "";
  if (std::string verdict = integrity_check(path); verdict != "ok")
    return "integrity_check: " + verdict;
  auto store = open_sqlite_store(path);
  if (!store.ok()) return "cannot open the store: " + store.status().to_string();
  ListOptions all;
  all.limit = 1000;
  auto sessions = (*store)->list_sessions(all);
  if (!sessions.ok()) return "cannot list sessions: " + sessions.status().to_string();
  if (sessions->empty()) return p.requests > 0 ? "the session was lost" : "";
  if (std::string e = check_user_messages(*sessions, **store, p); !e.empty()) return e;
  if (std::string e = check_lineage(*sessions, **store, p); !e.empty()) return e;
  auto root = std::find_if(sessions->begin(), sessions->end(),
                           [](const SessionInfo& s) { return s.parent_session_id.empty(); });
  return check_resume(home, *store, root->id);
}

struct Tally {
  int tried = 0;
  int passed = 0;
  std::vector<std::string> failures;

  void record(const std::string& point, const std::string& ended, const std::string& error) {
    ++tried;
    std::string problem = error;
    if (ended != "killed" && ended != "exited") problem = "the child ended by " + ended;
    if (problem.empty())
      ++passed;
    else
      failures.push_back(point + ": " + problem);
  }
};

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

// Kills the conversation at every named point and at random moments, with the store at
// `durability`, and checks each store left behind.
void kill_everywhere(const std::string& durability) {
  g_reached = {};
  // Calibration: the whole conversation, unkilled, gives the event totals and the time.
  TempDir calibration;
  auto started = std::chrono::steady_clock::now();
  pid_t pid = spawn_child(calibration.path(), "none", durability);
  REQUIRE(pid > 0);
  REQUIRE(wait_child(pid) == "exited");
  auto duration = std::chrono::steady_clock::now() - started;
  Progress full = read_progress(calibration.path());
  REQUIRE(full.done);
  REQUIRE(full.compacted);
  REQUIRE(full.counts["tool"] == 4);
  REQUIRE(full.counts["summary"] == 1);
  REQUIRE(full.counts["rotation"] == 1);
  CHECK(verify(calibration.path()) == "");

  Tally deterministic;
  for (const auto& [event, count] : full.counts) {
    for (int n = 1; n <= count; ++n) {
      TempDir home;
      std::string point = event + ":" + std::to_string(n);
      pid_t child = spawn_child(home.path(), point, durability);
      REQUIRE(child > 0);
      std::string ended = wait_child(child);
      std::string error =
          ended == "exited" ? "the kill point was never reached" : verify(home.path());
      deterministic.record(point, ended, error);
    }
  }

  unsigned seed = static_cast<unsigned>(env_int("HERMES_CRASH_SEED", 20261129));
  std::mt19937 rng(seed);
  auto span = std::chrono::duration_cast<std::chrono::microseconds>(duration * 11 / 10);
  std::uniform_int_distribution<long long> delay(0, span.count());
  Tally random;
  int random_kills = env_int("HERMES_CRASH_RANDOM_KILLS", 60);
  for (int i = 0; i < random_kills; ++i) {
    TempDir home;
    pid_t child = spawn_child(home.path(), "none", durability);
    REQUIRE(child > 0);
    long long us = delay(rng);
    std::this_thread::sleep_for(std::chrono::microseconds(us));
    ::kill(child, SIGKILL);
    std::string ended = wait_child(child);
    random.record("random kill after " + std::to_string(us) + "us", ended, verify(home.path()));
  }

  std::printf(
      "crash harness (durability %s): %d kill points tried, %d passed (%d deterministic: %d "
      "passed; %d random, seed %u, over %lld ms: %d passed)\n",
      durability.c_str(), deterministic.tried + random.tried, deterministic.passed + random.passed,
      deterministic.tried, deterministic.passed, random.tried, seed,
      static_cast<long long>(span.count() / 1000), random.passed);
  std::printf(
      "  %d kills left tool calls without results (repaired on resume), %d found the "
      "compaction applied\n",
      g_reached.dangling_tool_calls, g_reached.compacted);
  for (const auto& f : deterministic.failures) std::printf("  FAILED %s\n", f.c_str());
  for (const auto& f : random.failures) std::printf("  FAILED %s\n", f.c_str());
  CHECK(deterministic.failures.empty());
  CHECK(random.failures.empty());
}

}  // namespace

TEST_CASE("a conversation killed at any point resumes from its store intact") {
  kill_everywhere("full");
}

TEST_CASE("with durability normal, a killed conversation loses nothing either") {
  kill_everywhere("normal");
}
