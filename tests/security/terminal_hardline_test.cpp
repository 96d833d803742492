// The terminal tool in every approval mode, with a human who approves everything:
// hardline commands are refused before anything runs, whatever the mode.
#include <doctest/doctest.h>

#include <atomic>
#include <filesystem>

#include "hermes/builtin_tools.hpp"
#include "support/temp_dir.hpp"
#include "unit/tools/tool_harness.hpp"

using namespace hermes;
using hermes::testing::TempDir;
using hermes::testing::ToolHarness;
namespace fs = std::filesystem;

TEST_CASE("hardline commands never run in any approval mode, even when the human approves") {
  // Each would first leave a marker; the hardline part targets a device that does not
  // exist, so nothing is harmed even if the guard failed.
  const std::vector<std::string> commands = {
      "touch ran.marker; mkfs.ext4 /dev/hermes-no-such-device",
      "touch ran.marker && sh -c 'mkfs.ext4 /dev/hermes-no-such-device'",
      "touch ran.marker\nmkfs.ext4 /dev/hermes-no-such-device",
  };
  for (ApprovalMode mode : {ApprovalMode::kManual, ApprovalMode::kSmart, ApprovalMode::kOff,
                            ApprovalMode::kAsk, ApprovalMode::kAllowlist}) {
    TempDir workdir;
    ToolRegistry tools;
    BuiltinToolOptions o;
    o.toolsets = {"terminal"};
    o.terminal.workdir = fs::canonical(workdir.path()).string();
    o.approvals.mode = mode;
    REQUIRE(register_builtin_tools(tools, o).ok());
    ToolHarness h;
    std::atomic<int> asked{0};
    h.callbacks.on_approval = [&](const ApprovalRequest&) {
      ++asked;
      return ApprovalDecision::kAlways;
    };
    for (const std::string& command : commands) {
      CAPTURE(static_cast<int>(mode));
      CAPTURE(command);
      Json result = h.call_json(*tools.find("terminal"), {{"command", command}});
      CHECK(result["status"] == "blocked");
      CHECK(result["error"].get<std::string>().find("hardline") != std::string::npos);
      CHECK_FALSE(fs::exists(workdir.file("ran.marker")));
    }
    CHECK(asked == 0);
  }
}

TEST_CASE("hardline text sent to a background shell never runs in any mode, even when approved") {
  for (ApprovalMode mode : {ApprovalMode::kManual, ApprovalMode::kSmart, ApprovalMode::kOff,
                            ApprovalMode::kAsk, ApprovalMode::kAllowlist}) {
    CAPTURE(static_cast<int>(mode));
    TempDir workdir;
    ToolRegistry tools;
    BuiltinToolOptions o;
    o.toolsets = {"terminal"};
    o.terminal.workdir = fs::canonical(workdir.path()).string();
    o.approvals.mode = mode;
    o.approvals.allowed_commands = {"sh", "touch", "mkfs.ext4", "exit"};
    REQUIRE(register_builtin_tools(tools, o).ok());
    ToolHarness h;
    h.callbacks.on_approval = [](const ApprovalRequest&) { return ApprovalDecision::kAlways; };
    Json started = h.call_json(*tools.find("terminal"), {{"command", "sh"}, {"background", true}});
    REQUIRE(started.contains("session_id"));
    const std::string id = started["session_id"];
    const ToolSpec& manage = *tools.find("process_manage");
    for (const std::string& data :
         {std::string("touch ran.marker; mkfs.ext4 /dev/hermes-no-such-device"),
          std::string("touch ran.marker && sh -c 'mkfs.ext4 /dev/hermes-no-such-device'")}) {
      CAPTURE(data);
      Json r = h.call_json(manage, {{"action", "submit"}, {"session_id", id}, {"data", data}});
      CHECK(r["status"] == "blocked");
      CHECK(r["error"].get<std::string>().find("hardline") != std::string::npos);
    }
    // Pieces: harmless alone, hardline together.
    CHECK(h.call_json(manage, {{"action", "write"},
                               {"session_id", id},
                               {"data", "touch ran.marker; mk"}})["written"] == true);
    CHECK(h.call_json(manage, {{"action", "submit"},
                               {"session_id", id},
                               {"data", "fs.ext4 /dev/hermes-no-such-device"}})["status"] ==
          "blocked");
    h.call_json(manage, {{"action", "close"}, {"session_id", id}});
    h.call_json(manage, {{"action", "wait"}, {"session_id", id}, {"timeout", 20}});
    // The unfinished `touch ran.marker; mk` runs at end of input: the marker may exist now,
    // which is what it was approved for; mkfs never ran because it was never sent.
    CHECK(h.call_json(manage, {{"action", "log"}, {"session_id", id}})["output"]
              .get<std::string>()
              .find("mkfs") == std::string::npos);
  }
}
