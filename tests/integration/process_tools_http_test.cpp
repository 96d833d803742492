// terminal and process_manage driven through the real loop: a scripted model runs
// commands over HTTP, starts background processes in one turn and manages them in the
// next (the agent keeps them between turns).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <vector>

#include "integration/tool_loop.hpp"

using namespace hermes;
using namespace hermes::testing;
namespace fs = std::filesystem;

namespace {

MockToolCall manage(const std::string& id, const Json& args) {
  return tool_call(id, "process_manage", args);
}

}  // namespace

TEST_CASE("terminal runs a command in the project directory and its output reaches the model") {
  ToolLoop loop({"terminal"});
  write_text(loop.project.file("marker.txt"), "here\n");
  loop.run(
      {{tool_call("pwd", "terminal", {{"command", "pwd; ls"}}),
        tool_call("fails", "terminal", {{"command", "printf 'one\\ntwo\\n' | wc -l; exit 3"}})}});

  Json pwd = loop.sent("pwd");
  CHECK(pwd["exit_code"] == 0);
  CHECK(pwd["output"] == fs::canonical(loop.project.path()).string() + "\nmarker.txt");
  Json fails = loop.sent("fails");
  CHECK(fails["exit_code"] == 3);
  CHECK(text_contains(fails["output"], "2"));
  CHECK(text_contains(fails["error"], "code 3"));
}

TEST_CASE(
    "a background process started in one turn is listed, fed, waited for, logged and killed in the "
    "next") {
  ToolLoop loop({"terminal"});
  loop.run({{tool_call("short", "terminal",
                       {{"command", "echo started; read answer; echo \"you said $answer\""},
                        {"background", true}}),
             tool_call("long", "terminal",
                       {{"command", "echo serving; exec sleep 60"}, {"background", true}})}});
  Json short_started = loop.sent("short");
  Json long_started = loop.sent("long");
  REQUIRE(text_contains(short_started["session_id"], "proc_"));
  REQUIRE(text_contains(long_started["session_id"], "proc_"));
  const std::string short_id = short_started["session_id"];
  const std::string long_id = long_started["session_id"];
  CHECK(short_id != long_id);

  loop.run({{manage("list", {{"action", "list"}})},
            {manage("submit", {{"action", "submit"}, {"session_id", short_id}, {"data", "yes"}})},
            {manage("wait", {{"action", "wait"}, {"session_id", short_id}, {"timeout", 30}})},
            {manage("log", {{"action", "log"}, {"session_id", short_id}})},
            {manage("kill", {{"action", "kill"}, {"session_id", long_id}})},
            {manage("poll", {{"action", "poll"}, {"session_id", long_id}})}});

  Json list = loop.sent("list");
  CHECK(list["count"] == 2);
  std::vector<std::string> ids;
  for (const Json& p : list["processes"]) ids.push_back(p["session_id"]);
  CHECK(std::find(ids.begin(), ids.end(), short_id) != ids.end());
  CHECK(std::find(ids.begin(), ids.end(), long_id) != ids.end());
  CHECK(loop.sent("submit")["written"] == true);

  Json waited = loop.sent("wait");
  CHECK(waited["status"] == "exited");
  CHECK(waited["exit_code"] == 0);
  CHECK(text_contains(waited["output"], "you said yes"));
  CHECK(loop.sent("log")["output"] == "started\nyou said yes\n");

  Json killed = loop.sent("kill");
  CHECK(killed["killed"] == true);
  CHECK(killed["status"] == "exited");
  CHECK(loop.sent("poll")["status"] == "exited");
}

TEST_CASE(
    "bad terminal and process_manage calls are errors the model reads, and the turn completes") {
  ToolLoop loop({"terminal"});
  loop.run({{tool_call("no_command", "terminal", Json::object()),
             tool_call("number", "terminal", {{"command", 42}}),
             tool_call("detached", "terminal", {{"command", "sleep 30 &"}}),
             tool_call("relative_dir", "terminal", {{"command", "ls"}, {"workdir", "src"}}),
             tool_call("zero_timeout", "terminal", {{"command", "true"}, {"timeout", 0}}),
             manage("no_action", Json::object()),
             manage("unknown_id", {{"action", "poll"}, {"session_id", "proc_000000000000"}}),
             manage("no_id", {{"action", "kill"}}), manage("list_as_number", {{"action", 7}})}});

  for (const char* id : {"no_command", "number", "detached", "relative_dir", "zero_timeout",
                         "no_action", "unknown_id", "no_id", "list_as_number"}) {
    CAPTURE(id);
    CHECK(is_error_result(loop.sent(id)));
  }
  CHECK(text_contains(loop.sent("detached")["error"], "background=true"));
  CHECK(text_contains(loop.sent("unknown_id")["error"], "proc_000000000000"));
}

TEST_CASE(
    "a model that starts bash in the background cannot run rm -rf ~/something through its stdin") {
  for (const bool human : {true, false}) {
    CAPTURE(human);
    ToolLoop loop({"terminal"});
    // What ~ means to the shell the model starts: never the real home, even if the guard
    // failed.
    TempDir fake_home;
    fs::create_directories(fake_home.file("something/keep"));
    BuiltinToolOptions builtins;
    builtins.file.root = loop.project.path();
    builtins.terminal.environment = {{"HOME", fake_home.path()}};
    REQUIRE(register_builtin_tools(*loop.tools, builtins).ok());
    std::mutex mu;
    std::vector<ApprovalRequest> asked;
    if (human) {
      loop.options.callbacks.on_approval = [&](const ApprovalRequest& request) {
        std::lock_guard<std::mutex> lock(mu);
        asked.push_back(request);
        return ApprovalDecision::kDeny;
      };
    }

    loop.run({{tool_call("start", "terminal", {{"command", "bash"}, {"background", true}})}});
    Json started = loop.sent("start");
    REQUIRE(text_contains(started["session_id"], "proc_"));
    const std::string id = started["session_id"];
    loop.run(
        {{manage("rm", {{"action", "submit"}, {"session_id", id}, {"data", "rm -rf ~/something"}})},
         {manage("exit", {{"action", "submit"}, {"session_id", id}, {"data", "exit 0"}})},
         {manage("wait", {{"action", "wait"}, {"session_id", id}, {"timeout", 30}})}});

    Json rm = loop.sent("rm");
    CHECK(rm["written"] == false);
    CHECK(rm["status"] == "blocked");
    CHECK(loop.sent("exit")["written"] == true);
    CHECK(loop.sent("wait")["status"] == "exited");
    CHECK(fs::exists(fake_home.file("something/keep")));
    std::lock_guard<std::mutex> lock(mu);
    if (human) {
      REQUIRE(asked.size() == 1);  // Starting bash and sending `exit` needed nobody.
      CHECK(asked[0].tool_name == "process_manage");
      CHECK(asked[0].command == "rm -rf ~/something\n");
      CHECK(asked[0].description == "recursive delete");
      CHECK(text_contains(rm["error"], "denied"));
    } else {
      CHECK(text_contains(rm["error"], "no approval channel"));
    }
  }
}
