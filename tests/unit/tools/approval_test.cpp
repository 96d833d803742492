// The approval gate in front of the terminal tool.
#include "safety/approval.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "support/temp_dir.hpp"
#include "unit/tools/tool_harness.hpp"

using namespace hermes;
using hermes::internal::ApprovalGate;

namespace {

struct GateFixture {
  hermes::testing::TempDir home;
  ToolSessionState state;
  Callbacks callbacks;
  std::atomic<int> asked{0};
  ToolContext ctx;

  GateFixture() {
    ctx.home = home.path();
    ctx.state = &state;
    ctx.callbacks = &callbacks;
    ctx.tool_name = "terminal";
  }

  void answer(ApprovalDecision decision) {
    callbacks.on_approval = [this, decision](const ApprovalRequest& request) {
      ++asked;
      CHECK(request.tool_name == "terminal");
      CHECK(request.pattern_key == request.description + ": " + request.command);
      return decision;
    };
  }

  ApprovalGate gate(ApprovalMode mode = ApprovalMode::kManual,
                    std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
    ApprovalOptions options;
    options.mode = mode;
    options.timeout = timeout;
    return ApprovalGate(options, "");
  }
};

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

}  // namespace

TEST_CASE("safe commands run without asking anybody") {
  GateFixture f;
  f.answer(ApprovalDecision::kDeny);
  auto outcome = f.gate().check_command("ls -la && git status", f.ctx);
  CHECK(outcome.approved);
  CHECK(f.asked == 0);
}

TEST_CASE("hardline commands are blocked in every mode, even off") {
  GateFixture f;
  f.answer(ApprovalDecision::kAlways);
  for (ApprovalMode mode : {ApprovalMode::kManual, ApprovalMode::kSmart, ApprovalMode::kOff,
                            ApprovalMode::kAsk, ApprovalMode::kAllowlist}) {
    auto outcome = f.gate(mode).check_command("sudo rm -rf /", f.ctx);
    CHECK_FALSE(outcome.approved);
    CHECK(starts_with(outcome.message, "BLOCKED:"));
    CHECK(outcome.message.find("hardline") != std::string::npos);
  }
  CHECK(f.asked == 0);
}

TEST_CASE("without an approval callback a dangerous command is denied") {
  GateFixture f;
  auto outcome = f.gate().check_command("rm -rf build", f.ctx);
  CHECK_FALSE(outcome.approved);
  CHECK(outcome.description == "recursive delete");
  CHECK(starts_with(outcome.message, "BLOCKED:"));
  CHECK(outcome.message.find("Do not retry") != std::string::npos);
}

TEST_CASE("mode off runs dangerous commands without asking") {
  GateFixture f;
  f.answer(ApprovalDecision::kDeny);
  CHECK(f.gate(ApprovalMode::kOff).check_command("rm -rf build", f.ctx).approved);
  CHECK(f.asked == 0);
}

TEST_CASE("smart mode asks the human like manual mode") {
  GateFixture f;
  f.answer(ApprovalDecision::kOnce);
  CHECK(f.gate(ApprovalMode::kSmart).check_command("git push --force", f.ctx).approved);
  CHECK(f.asked == 1);
}

TEST_CASE("a denial tells the model not to retry or work around it") {
  GateFixture f;
  f.answer(ApprovalDecision::kDeny);
  auto outcome = f.gate().check_command("git reset --hard HEAD~3", f.ctx);
  CHECK_FALSE(outcome.approved);
  CHECK(outcome.message.find("denied") != std::string::npos);
  CHECK(outcome.message.find("another way") != std::string::npos);
}

TEST_CASE("once approves one command; the next one asks again") {
  GateFixture f;
  f.answer(ApprovalDecision::kOnce);
  auto gate = f.gate();
  CHECK(gate.check_command("rm -rf build", f.ctx).approved);
  CHECK(gate.check_command("rm -rf dist", f.ctx).approved);
  CHECK(f.asked == 2);
}

TEST_CASE("session approval covers the same command for the rest of the session only") {
  GateFixture f;
  f.answer(ApprovalDecision::kSession);
  auto gate = f.gate();
  auto first = gate.check_command("rm -rf build", f.ctx);
  CHECK(first.approved);
  CHECK(first.message.find("for this session") != std::string::npos);
  CHECK(gate.check_command("  rm -rf build ", f.ctx).approved);  // Trimmed: the same command.
  CHECK(f.asked == 1);
  CHECK(gate.check_command("rm -r other", f.ctx).approved);  // Same rule, another command.
  CHECK(f.asked == 2);

  ToolSessionState fresh;
  f.ctx.state = &fresh;
  CHECK(gate.check_command("rm -rf build", f.ctx).approved);
  CHECK(f.asked == 3);
}

TEST_CASE("always approval of a command is persisted in the hermes home") {
  GateFixture f;
  f.answer(ApprovalDecision::kAlways);
  CHECK(f.gate().check_command("chmod 777 shared", f.ctx).approved);
  CHECK(internal::load_command_approvals(f.home.path())
            .approved.count({"world/other-writable permissions", "chmod 777 shared"}) == 1);

  ToolSessionState fresh;
  f.ctx.state = &fresh;
  f.answer(ApprovalDecision::kDeny);
  CHECK(f.gate().check_command("chmod 777 shared", f.ctx).approved);
  CHECK(f.asked == 1);
  // Another command of the same rule is asked about (and here denied).
  CHECK_FALSE(f.gate().check_command("chmod 666 other", f.ctx).approved);
  CHECK(f.asked == 2);
}

TEST_CASE(
    "approving rm -r build for always approves neither rm -r /home/x nor other recursive deletes") {
  GateFixture f;
  f.answer(ApprovalDecision::kAlways);
  auto gate = f.gate();
  REQUIRE(gate.check_command("rm -r build", f.ctx).approved);
  CHECK(f.asked == 1);

  ToolSessionState next_session;
  f.ctx.state = &next_session;
  f.answer(ApprovalDecision::kDeny);
  CHECK(gate.check_command("rm -r build", f.ctx).approved);  // Remembered, not asked.
  CHECK(f.asked == 1);
  for (const char* other : {"rm -r /home/x", "rm -r build/../..", "rm -rf ~", "rm -r src"}) {
    CAPTURE(other);
    CHECK_FALSE(gate.check_command(other, f.ctx).approved);
  }
  CHECK(f.asked == 4);  // Three asked; rm -rf ~ is hardline and never asked.
}

TEST_CASE("allowlists written by older versions are read without harm and approve nothing") {
  GateFixture f;
  const std::string path = f.home.file("command_allowlist.json");
  for (
      const char* text :
      {R"({"command_allowlist": ["recursive delete", 7, null]})", "not json", "[]", "",
       R"({"approved_commands": "rm -r build"})",
       R"({"approved_commands": [1, {"rule": 1, "command": "x"}, {"rule": "recursive delete"}]})"}) {
    CAPTURE(text);
    testing::put_file(path, text);
    f.answer(ApprovalDecision::kDeny);
    CHECK_FALSE(f.gate().check_command("rm -r build", f.ctx).approved);
  }
  // A new approval keeps what the old version wrote.
  testing::put_file(path, R"({"command_allowlist": ["recursive delete"], "other": 1})");
  f.answer(ApprovalDecision::kAlways);
  CHECK(f.gate().check_command("rm -r build", f.ctx).approved);
  const auto stored = internal::load_command_approvals(f.home.path());
  CHECK(stored.legacy == std::vector<std::string>{"recursive delete"});
  CHECK(stored.approved.count({"recursive delete", "rm -r build"}) == 1);
  CHECK(testing::file_text(path).find("\"other\": 1") != std::string::npos);
}

TEST_CASE("ask mode asks about every command, harmless ones too") {
  GateFixture f;
  f.answer(ApprovalDecision::kOnce);
  auto gate = f.gate(ApprovalMode::kAsk);
  auto ls = gate.check_command("ls -la", f.ctx);
  CHECK(ls.approved);
  CHECK(ls.description == "every command needs approval (ask mode)");
  CHECK(f.asked == 1);
  CHECK(gate.check_command("   \n ", f.ctx).approved);  // Nothing to run: nothing to ask.
  CHECK(f.asked == 1);
  CHECK(gate.check_command("rm -r build", f.ctx).description == "recursive delete");
  CHECK(f.asked == 2);
  f.answer(ApprovalDecision::kDeny);
  CHECK_FALSE(gate.check_command("git status", f.ctx).approved);
  f.callbacks.on_approval = nullptr;
  CHECK_FALSE(gate.check_command("echo hi", f.ctx).approved);  // No channel: denied.
}

TEST_CASE("allowlist mode runs only listed programs without asking") {
  GateFixture f;
  f.answer(ApprovalDecision::kDeny);
  ApprovalOptions options;
  options.mode = ApprovalMode::kAllowlist;
  options.allowed_commands = {"ls", "git", "grep", "cat", "/usr/bin/wc", "Echo", "timeout", "find"};
  ApprovalGate gate(options, "");
  for (const char* allowed :
       {"ls -la", "git status | grep x && wc -l < f", "echo \"$(cat notes)\"", "X=1 ls",
        "timeout 5 git fetch", "find . -name x -exec cat {} +", "for f in *; do echo $f; done"}) {
    CAPTURE(allowed);
    CHECK(gate.check_command(allowed, f.ctx).approved);
  }
  CHECK(f.asked == 0);
  const std::vector<std::pair<std::string, std::string>> asked = {
      {"ls && rm x", "command not on the allow-list (rm)"},
      {"sudo ls", "command not on the allow-list (sudo)"},
      {"echo $(whoami)", "command not on the allow-list (whoami)"},
      {"timeout 5 make", "command not on the allow-list (make)"},
      {"find . -exec touch {} +", "command not on the allow-list (touch)"},
      {"$c", "command word is a variable or expansion (hides the program)"},
      {"git push --force", "git force push (rewrites remote history)"},
      {"ls | sh", "interpreter reads its program from a pipe"},
  };
  for (const auto& entry : asked) {
    const std::string& command = entry.first;  // Not a structured binding: CAPTURE needs it.
    CAPTURE(command);
    auto outcome = gate.check_command(command, f.ctx);
    CHECK_FALSE(outcome.approved);
    CHECK(outcome.description == entry.second);
  }
  CHECK(f.asked == static_cast<int>(asked.size()));
}

TEST_CASE("approval modes have names for configuration files and bindings") {
  for (ApprovalMode mode : {ApprovalMode::kManual, ApprovalMode::kSmart, ApprovalMode::kOff,
                            ApprovalMode::kAsk, ApprovalMode::kAllowlist}) {
    CHECK(approval_mode_from_name(approval_mode_name(mode)) == mode);
  }
  CHECK(approval_mode_from_name("ALLOWLIST") == ApprovalMode::kAllowlist);
  CHECK_FALSE(approval_mode_from_name("yolo").has_value());
}

TEST_CASE("silence until the timeout is a denial") {
  GateFixture f;
  auto release = std::make_shared<std::atomic<bool>>(false);
  auto finished = std::make_shared<std::atomic<bool>>(false);
  f.callbacks.on_approval = [release, finished](const ApprovalRequest&) {
    while (!*release) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    *finished = true;
    return ApprovalDecision::kAlways;
  };
  auto outcome = f.gate(ApprovalMode::kManual, std::chrono::milliseconds(30))
                     .check_command("rm -rf build", f.ctx);
  CHECK_FALSE(outcome.approved);
  CHECK(outcome.message.find("silence is not consent") != std::string::npos);
  *release = true;
  while (!*finished) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  // The late answer is ignored: nothing was remembered.
  CHECK(internal::load_command_approvals(f.home.path()).approved.empty());
}

TEST_CASE("an interrupt stops the wait and denies") {
  GateFixture f;
  auto release = std::make_shared<std::atomic<bool>>(false);
  auto finished = std::make_shared<std::atomic<bool>>(false);
  f.callbacks.on_approval = [release, finished](const ApprovalRequest&) {
    while (!*release) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    *finished = true;
    return ApprovalDecision::kOnce;
  };
  std::thread interrupter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    f.ctx.cancel.cancel();
  });
  auto outcome = f.gate().check_command("rm -rf build", f.ctx);
  interrupter.join();
  CHECK_FALSE(outcome.approved);
  CHECK(outcome.message.find("interrupted") != std::string::npos);
  *release = true;
  while (!*finished) std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

TEST_CASE("a callback that throws denies") {
  GateFixture f;
  f.callbacks.on_approval = [](const ApprovalRequest&) -> ApprovalDecision {
    throw std::runtime_error("ui gone");
  };
  CHECK_FALSE(f.gate().check_command("rm -rf build", f.ctx).approved);
}

TEST_CASE("operator deny rules and sudo password guessing are floors") {
  GateFixture f;
  f.answer(ApprovalDecision::kAlways);
  ApprovalOptions options;
  options.mode = ApprovalMode::kOff;
  options.deny = {R"(\bterraform\s+destroy\b)", "(unclosed"};
  ApprovalGate gate(options, "");
  auto denied = gate.check_command("cd infra && terraform destroy -auto-approve", f.ctx);
  CHECK_FALSE(denied.approved);
  CHECK(denied.message.find("deny rule") != std::string::npos);
  if (std::getenv("SUDO_PASSWORD") == nullptr) {
    auto sudo = gate.check_command("echo guess | sudo -S whoami", f.ctx);
    CHECK_FALSE(sudo.approved);
    CHECK(sudo.description == "sudo password guessing via stdin (sudo -S)");
  }
  CHECK(gate.check_command("terraform plan", f.ctx).approved);
  CHECK(f.asked == 0);
}
