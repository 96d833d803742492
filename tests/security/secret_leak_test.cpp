// Secrets the runtime handles (the API key, a key the user pastes) never reach the log
// sink, the compaction's summary request or the summary stored in the session.
#include <doctest/doctest.h>

#include <mutex>

#include "hermes/hermes.hpp"
#include "safety/log.hpp"
#include "support/mock_responses.hpp"
#include "support/mock_server.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;
using namespace hermes::testing;

namespace {

constexpr const char* kApiKey = "sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c";
constexpr const char* kPastedKey = "sk-proj-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe";

// Captures every log line while it lives.
struct LogCapture {
  std::mutex mu;
  std::vector<std::string> lines;
  LogCapture() {
    set_log_level(LogLevel::kDebug);
    set_log_sink([this](LogLevel, std::string_view line) {
      std::lock_guard<std::mutex> lock(mu);
      lines.emplace_back(line);
    });
  }
  ~LogCapture() {
    set_log_sink([](LogLevel, std::string_view) {});
    set_log_level(LogLevel::kWarning);
  }
  bool mentions(const std::string& text) {
    std::lock_guard<std::mutex> lock(mu);
    for (const auto& line : lines) {
      if (line.find(text) != std::string::npos) return true;
    }
    return false;
  }
  std::size_t size() {
    std::lock_guard<std::mutex> lock(mu);
    return lines.size();
  }
};

AgentOptions options_for(const MockServer& server, const TempDir& home) {
  AgentOptions o;
  o.provider.model = "mock-model";
  o.provider.base_url = server.base_url();
  o.provider.api_key = kApiKey;
  o.home = home.path();
  o.request.stream = false;
  o.failover.max_retries = 1;
  o.compression.context_length = 1'000'000;
  o.compression.protect_last_n = 3;
  return o;
}

}  // namespace

TEST_CASE("a log line never carries a secret to the sink") {
  LogCapture log;
  HERMES_LOG_WARN("request failed with key {} and header Authorization: Bearer {}", kApiKey,
                  kPastedKey);
  REQUIRE(log.size() == 1);
  CHECK_FALSE(log.mentions(kApiKey));
  CHECK_FALSE(log.mentions(kPastedKey));
}

TEST_CASE("a provider error that echoes the API key is logged without it") {
  MockServer server;
  server.enqueue(
      chat::error(401, std::string("Incorrect API key provided: ") + kApiKey, "invalid_api_key"));
  TempDir home;
  LogCapture log;
  auto agent = Agent::create(options_for(server, home));
  REQUIRE(agent.ok());
  ConversationResult r = (*agent)->run_conversation("hello");
  CHECK(r.failed);
  CHECK(log.size() > 0);
  CHECK_FALSE(log.mentions(kApiKey));
}

TEST_CASE("a key pasted by the user never reaches the summariser or the stored summary") {
  MockServer server;
  const int turns = 5;
  for (int i = 0; i < turns; ++i) {
    server.enqueue(
        chat::text("Answer number " + std::to_string(i) + ", noted and understood.", false));
  }
  server.enqueue(
      chat::text("## Goal\nHelp the user.\n## Critical Context\nA key was shared.", false));
  TempDir home;
  LogCapture log;
  auto agent = Agent::create(options_for(server, home));
  REQUIRE(agent.ok());
  // The third turn lands in the middle of the transcript, the part that is summarised.
  for (int i = 0; i < turns; ++i) {
    std::string text = i == 2 ? std::string("my deploy key is ") + kPastedKey
                              : "question number " + std::to_string(i);
    REQUIRE((*agent)->run_conversation(text).completed);
  }
  auto compacted = (*agent)->compress();
  REQUIRE(compacted.ok());
  REQUIRE(compacted->compacted);

  auto requests = server.requests();
  REQUIRE(requests.size() == turns + 1);
  CHECK(requests.back().body.find("my deploy key is") != std::string::npos);
  CHECK(requests.back().body.find(kPastedKey) == std::string::npos);
  auto stored = (*agent)->session_store()->load_messages((*agent)->session_id());
  REQUIRE(stored.ok());
  int summaries = 0;
  for (const Message& m : *stored) {
    if (!is_context_summary(m)) continue;
    ++summaries;
    CHECK(m.content.find(kPastedKey) == std::string::npos);
  }
  CHECK(summaries == 1);
  CHECK_FALSE(log.mentions(kPastedKey));
}
