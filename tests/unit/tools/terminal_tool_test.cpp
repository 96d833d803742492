// terminal and process_manage: real /bin/sh processes in a temporary working directory.
#include <doctest/doctest.h>
#include <signal.h>

#include <filesystem>
#include <thread>

#include "tools/builtin_toolsets.hpp"
#include "unit/tools/tool_harness.hpp"

using namespace hermes;
using hermes::testing::TempDir;
using hermes::testing::ToolHarness;

namespace fs = std::filesystem;

namespace {

struct Shell {
  ToolHarness h;
  TempDir dir;
  TerminalOptions options;
  std::vector<ToolSpec> tools;

  explicit Shell(ApprovalOptions approvals = {}) { rebuild(approvals); }
  void rebuild(ApprovalOptions approvals = {}) {
    options.workdir = fs::canonical(dir.path()).string();
    options.kill_grace = std::chrono::milliseconds(300);
    tools = internal::terminal_tools(options, approvals);
  }
  Json run(const Json& args) {
    return h.call_json(hermes::testing::spec_named(tools, "terminal"), args);
  }
  Result<std::string> raw(const Json& args) {
    return h.call(hermes::testing::spec_named(tools, "terminal"), args);
  }
  Json manage(const Json& args) {
    return h.call_json(hermes::testing::spec_named(tools, "process_manage"), args);
  }
};

}  // namespace

TEST_CASE("a command's combined output and exit code come back, every time") {
  Shell s;
  for (int i = 0; i < 10;
       ++i) {  // The exit status arrives after the output closes: no race may lose it.
    Json r = s.run({{"command", "echo hello; echo oops >&2; exit 3"}});
    CHECK(r["output"] == "hello\noops");
    CHECK(r["exit_code"] == 3);
    CHECK(r["error"] == "Command exited with code 3");
  }
  Json ok = s.run({{"command", "pwd"}});
  CHECK(ok["output"] == s.options.workdir);
  CHECK(ok["exit_code"] == 0);
  CHECK(ok["error"].is_null());
}

TEST_CASE("exit codes with a well-known meaning are explained") {
  Shell s;
  CHECK(s.run({{"command", "grep -q needle /dev/null"}})["exit_code_meaning"] ==
        "No matches found (not an error)");
  CHECK(s.run({{"command", "no_such_program_xyz"}})["exit_code_meaning"] == "Command not found");
}

TEST_CASE("escape codes are stripped and secrets masked") {
  Shell s;
  CHECK(s.run({{"command", "printf '\\033[31mred\\033[0m text'"}})["output"] == "red text");
  const std::string out =
      s.run({{"command", "echo token ghp_1234567890abcdefghijklmnopqrst"}})["output"];
  CHECK(out == "token ghp_12...qrst");
}

TEST_CASE("a hundred megabytes of output are truncated head and tail, never held whole") {
  Shell s;
  Json r = s.run({{"command", "yes 0123456789 | head -c 100000000; echo; echo THE-END"}});
  const std::string out = r["output"];
  CHECK(out.size() < 51000);
  CHECK(out.rfind("0123456789", 0) == 0);
  CHECK(testing::has_text(out, "[OUTPUT TRUNCATED - "));
  CHECK(testing::has_text(out, " chars omitted out of 100000009 total]"));
  REQUIRE(out.size() >= 9);
  CHECK(out.substr(out.size() - 7) == "THE-END");
}

TEST_CASE("a command that never ends is stopped at its timeout") {
  Shell s;
  Json r = s.run({{"command", "echo started; sleep 60"}, {"timeout", 1}});
  CHECK(r["exit_code"] == 124);
  CHECK(testing::has_text(r["error"], "timed out after 1s"));
  CHECK(r["output"] == "started");
}

TEST_CASE("an interrupt stops a command that ignores SIGTERM with SIGKILL") {
  Shell s;
  // The interrupt comes once the command has written its line and ignores SIGTERM, however
  // slowly a loaded machine started it.
  const std::string ready = s.dir.file("ready");
  std::thread interrupter([&] {
    const auto patience = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!fs::exists(ready) && std::chrono::steady_clock::now() < patience) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    s.h.ctx.cancel.cancel();
  });
  Json r = s.run({{"command", "trap '' TERM; echo waiting; touch '" + ready + "'; sleep 60"}});
  interrupter.join();
  CHECK(r["exit_code"] == 130);
  CHECK(testing::has_text(r["error"], "interrupted"));
  CHECK(r["output"] == "waiting");
}

TEST_CASE("children left running by the shell do not hold the call open") {
  Shell s;
  Json r = s.run({{"command", "(sleep 30 &); echo done"}, {"timeout", 20}});
  CHECK(r["output"] == "done");
  CHECK(r["exit_code"] == 0);
}

TEST_CASE("dangerous commands are blocked without approval and do not run") {
  Shell s;
  fs::create_directories(s.dir.file("build/obj"));
  Json r = s.run({{"command", "rm -rf build"}});
  CHECK(r["exit_code"] == -1);
  CHECK(r["output"] == "");
  CHECK(r["status"] == "blocked");
  CHECK(r["error"].get<std::string>().rfind("BLOCKED:", 0) == 0);
  CHECK(fs::exists(s.dir.file("build/obj")));
  Json hard = s.run({{"command", "mkfs.ext4 /dev/sda1"}});
  CHECK(testing::has_text(hard["error"], "hardline"));
}

TEST_CASE("an approved dangerous command runs and says it was approved") {
  Shell s;
  s.h.callbacks.on_approval = [](const ApprovalRequest& req) {
    CHECK(req.command == "rm -rf build");
    CHECK(req.description == "recursive delete");
    return ApprovalDecision::kOnce;
  };
  fs::create_directories(s.dir.file("build"));
  Json r = s.run({{"command", "rm -rf build"}});
  CHECK(r["exit_code"] == 0);
  CHECK(testing::has_text(r["approval"], "approved"));
  CHECK_FALSE(fs::exists(s.dir.file("build")));
}

TEST_CASE("bad arguments are readable errors") {
  Shell s;
  CHECK(s.raw({{"command", 5}}).status().message() ==
        "Argument 'command' must be a string, got integer.");
  CHECK(s.raw(Json::object()).status().message() == "Missing required argument 'command'.");
  CHECK(s.raw({{"command", "  "}}).status().message() == "command is empty");
  CHECK(s.raw({{"command", "true"}, {"timeout", 0}}).status().message() ==
        "timeout must be at least 1 second");
  CHECK(s.raw({{"command", "true"}, {"timeout", "soon"}}).status().message() ==
        "Argument 'timeout' must be an integer, got string.");
  CHECK(testing::has_text(
      s.raw({{"command", "true"}, {"workdir", "relative/dir"}}).status().message(), "absolute"));
  CHECK(testing::has_text(
      s.raw({{"command", "true"}, {"workdir", "/no/such/dir"}}).status().message(),
      "not an existing directory"));
  CHECK(testing::has_text(s.raw({{"command", "sleep 5 &"}}).status().message(), "background=true"));
  Json capped = s.run({{"command", "true"}, {"timeout", 100000}});
  CHECK(testing::has_text(capped["note"], "capped at 600s"));
}

TEST_CASE("the environment carries configured variables and can start empty") {
  Shell s;
  s.options.environment = {{"HERMES_TEST_VAR", "42"}};
  s.rebuild();
  CHECK(s.run({{"command", "echo $HERMES_TEST_VAR $GIT_PAGER"}})["output"] == "42 cat");
  s.options.inherit_environment = false;
  s.rebuild();
  CHECK(s.run({{"command", "echo \"[$HOME]\""}})["output"] == "[]");
}

TEST_CASE("background processes are started, polled, fed input and killed") {
  Shell s;
  Json started = s.run({{"command", "read line; echo got:$line"}, {"background", true}});
  CHECK(started["output"] == "Background process started");
  const std::string id = started["session_id"];
  CHECK(id.rfind("proc_", 0) == 0);
  CHECK(s.manage({{"action", "submit"}, {"session_id", id}, {"data", "hi"}})["written"] == true);
  Json waited = s.manage({{"action", "wait"}, {"session_id", id}, {"timeout", 10}});
  CHECK(waited["status"] == "exited");
  CHECK(waited["exit_code"] == 0);
  CHECK(waited["output"] == "got:hi\n");
  CHECK(s.manage({{"action", "poll"}, {"session_id", id}})["output"] == "");
  CHECK(s.manage({{"action", "log"}, {"session_id", id}})["output"] == "got:hi\n");

  Json sleeper = s.run({{"command", "sleep 60"}, {"background", true}});
  const std::string sid = sleeper["session_id"];
  CHECK(s.manage({{"action", "list"}})["count"] == 2);
  Json killed = s.manage({{"action", "kill"}, {"session_id", sid}});
  CHECK(killed["killed"] == true);
  CHECK(killed["status"] == "exited");
}

TEST_CASE("process_manage rejects unknown ids and actions") {
  Shell s;
  auto manage = hermes::testing::spec_named(s.tools, "process_manage");
  CHECK(s.h.call(manage, {{"action", "poll"}, {"session_id", "proc_missing"}}).status().code() ==
        StatusCode::kNotFound);
  CHECK_FALSE(s.h.call(manage, {{"action", "dance"}, {"session_id", "x"}}).ok());
  CHECK_FALSE(s.h.call(manage, Json::object()).ok());
}

TEST_CASE("background processes die with the agent that started them") {
  Shell s;
  pid_t pid = 0;
  {
    ToolSessionState agent_state;
    s.h.ctx.state = &agent_state;
    pid = s.run({{"command", "sleep 60"}, {"background", true}})["pid"].get<int>();
    CHECK(::kill(pid, 0) == 0);
  }
  s.h.ctx.state = &s.h.state;
  CHECK(::kill(pid, 0) != 0);  // Stopped and reaped.
}

TEST_CASE("a background process's last output is there as soon as wait reports its exit") {
  Shell s;
  // Each run writes its last line right before exiting, the moment most likely to race
  // the exit being noticed.
  for (int i = 0; i < 20; ++i) {
    CAPTURE(i);
    Json started = s.run({{"command", "printf 'first\\n'; sleep 0.01; printf 'last line\\n'"},
                          {"background", true}});
    const std::string id = started["session_id"];
    Json waited = s.manage({{"action", "wait"}, {"session_id", id}, {"timeout", 10}});
    REQUIRE(waited["status"] == "exited");
    CHECK(waited["output"] == "first\nlast line\n");
  }
}

namespace {

// A background `sh` reading the model's input, and a directory it could delete.
struct BackgroundShell {
  Shell s;
  std::string id;
  std::string victim;

  explicit BackgroundShell(ApprovalOptions approvals = {}) : s(approvals) {
    victim = s.dir.file("victim");
    fs::create_directories(victim + "/inner");
    Json started = s.run({{"command", "sh"}, {"background", true}});
    REQUIRE(started["output"] == "Background process started");
    id = started["session_id"];
  }
  Json send(const std::string& action, const std::string& data) {
    return s.manage({{"action", action}, {"session_id", id}, {"data", data}});
  }
  // Lets the shell finish what it was sent, so nothing it ran can still be on its way.
  void finish() {
    CHECK(send("submit", "exit 0")["written"] == true);
    Json waited = s.manage({{"action", "wait"}, {"session_id", id}, {"timeout", 20}});
    CHECK(waited["status"] == "exited");
  }
};

}  // namespace

TEST_CASE("text for a background shell is checked like a command: a dangerous line is refused") {
  BackgroundShell b;  // No approval callback: dangerous means denied.
  Json blocked = b.send("submit", "rm -rf victim");
  CHECK(blocked["written"] == false);
  CHECK(blocked["status"] == "blocked");
  CHECK(testing::has_text(blocked["error"], "recursive delete"));
  CHECK(b.send("submit", "echo still-here")["written"] == true);
  b.finish();
  CHECK(fs::exists(b.victim + "/inner"));
}

TEST_CASE("a command split across writes is checked whole, line continuations included") {
  BackgroundShell b;
  // Each piece alone is harmless; what the shell would run is not.
  CHECK(b.send("write", "r")["written"] == true);
  CHECK(b.send("write", "m -rf victim\n")["status"] == "blocked");
  CHECK(b.send("write", "\n")["written"] == true);    // The shell runs `r`: not found.
  CHECK(b.send("submit", "r\\")["written"] == true);  // A continuation keeps the line open.
  CHECK(b.send("submit", "m -rf victim")["status"] == "blocked");
  CHECK(b.send("submit", "")["written"] == true);
  b.finish();
  CHECK(fs::exists(b.victim + "/inner"));
}

TEST_CASE("hardline text never reaches a background process, even in mode off with a yes-man") {
  ApprovalOptions off;
  off.mode = ApprovalMode::kOff;
  BackgroundShell b(off);
  int asked = 0;
  b.s.h.callbacks.on_approval = [&asked](const ApprovalRequest&) {
    ++asked;
    return ApprovalDecision::kAlways;
  };
  const std::string marker = b.s.dir.file("ran.marker");
  Json blocked = b.send("submit", "touch '" + marker + "'; mkfs.ext4 /dev/hermes-no-such-device");
  CHECK(blocked["status"] == "blocked");
  CHECK(testing::has_text(blocked["error"], "hardline"));
  CHECK(b.send("submit", "rm -rf victim")["written"] == true);  // Off: dangerous runs.
  b.finish();
  CHECK(asked == 0);
  CHECK_FALSE(fs::exists(marker));
  CHECK_FALSE(fs::exists(b.victim));
}

TEST_CASE("an approved line for a background shell runs, and the human sees where it came from") {
  BackgroundShell b;
  std::vector<ApprovalRequest> requests;
  b.s.h.callbacks.on_approval = [&requests](const ApprovalRequest& r) {
    requests.push_back(r);
    return ApprovalDecision::kOnce;
  };
  Json written = b.send("submit", "rm -rf victim");
  CHECK(written["written"] == true);
  CHECK(testing::has_text(written["approval"], "approved"));
  b.finish();
  CHECK_FALSE(fs::exists(b.victim));
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].tool_name == "process_manage");
  CHECK(requests[0].command == "rm -rf victim\n");
  CHECK(requests[0].description == "recursive delete");
}

TEST_CASE(
    "an interpreter reading its program from stdin needs approval to start in the background") {
  Shell s;
  Json python = s.run({{"command", "python3"}, {"background", true}});
  CHECK(python["status"] == "blocked");
  CHECK(testing::has_text(python["error"], "interpreter reads its program from stdin"));
  Json script = s.run({{"command", "cat"}, {"background", true}});  // Data, not code.
  CHECK(script["output"] == "Background process started");
}

TEST_CASE("ask mode asks about every line sent to a background process") {
  ApprovalOptions ask;
  ask.mode = ApprovalMode::kAsk;
  Shell s(ask);
  std::vector<std::string> asked;
  s.h.callbacks.on_approval = [&asked](const ApprovalRequest& r) {
    asked.push_back(r.command);
    return ApprovalDecision::kOnce;
  };
  const std::string id = s.run({{"command", "sh"}, {"background", true}})["session_id"];
  CHECK(s.manage({{"action", "submit"}, {"session_id", id}, {"data", "echo hi"}})["written"] ==
        true);
  CHECK(s.manage({{"action", "submit"}, {"session_id", id}, {"data", "exit"}})["written"] == true);
  CHECK(asked == std::vector<std::string>{"sh", "echo hi\n", "exit\n"});
  CHECK(s.manage({{"action", "wait"}, {"session_id", id}, {"timeout", 20}})["output"] == "hi\n");
}
