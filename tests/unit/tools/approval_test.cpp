// The approval gate in front of the terminal tool.
#include "safety/approval.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "support/temp_dir.hpp"

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
      CHECK(request.pattern_key == request.description);
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
  for (ApprovalMode mode : {ApprovalMode::kManual, ApprovalMode::kSmart, ApprovalMode::kOff}) {
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

TEST_CASE("session approval covers the pattern for the rest of the session only") {
  GateFixture f;
  f.answer(ApprovalDecision::kSession);
  auto gate = f.gate();
  auto first = gate.check_command("rm -rf build", f.ctx);
  CHECK(first.approved);
  CHECK(first.message.find("for this session") != std::string::npos);
  CHECK(gate.check_command("rm -r other", f.ctx).approved);
  CHECK(f.asked == 1);

  ToolSessionState fresh;
  f.ctx.state = &fresh;
  CHECK(gate.check_command("rm -rf build", f.ctx).approved);
  CHECK(f.asked == 2);
}

TEST_CASE("always approval is persisted in the hermes home") {
  GateFixture f;
  f.answer(ApprovalDecision::kAlways);
  CHECK(f.gate().check_command("chmod 777 shared", f.ctx).approved);
  CHECK(internal::load_command_allowlist(f.home.path()).count("world/other-writable permissions") ==
        1);

  ToolSessionState fresh;
  f.ctx.state = &fresh;
  f.answer(ApprovalDecision::kDeny);
  CHECK(f.gate().check_command("chmod 666 other", f.ctx).approved);
  CHECK(f.asked == 1);
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
  CHECK(internal::load_command_allowlist(f.home.path()).empty());
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
