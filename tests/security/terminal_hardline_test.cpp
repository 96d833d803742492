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
  for (ApprovalMode mode : {ApprovalMode::kManual, ApprovalMode::kSmart, ApprovalMode::kOff}) {
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
