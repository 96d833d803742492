#include "context/summary_call.hpp"

#include <doctest/doctest.h>

#include "unit/context/transcript_builder.hpp"

namespace hermes::internal {
namespace {

using testing::ScriptedProvider;
using testing::summary_body;

void fail_with(ScriptedProvider& p, int status, std::string message,
               TransportFailure transport = TransportFailure::kNone) {
  p.step([=](const ProviderRequest&, const CallContext&) -> Result<ProviderResponse> {
    ApiError e;
    e.http_status = status;
    e.message = message;
    e.transport = transport;
    return Status::api_error(e);
  });
}

TEST_CASE("the summary request has no tools, no output cap and no streaming") {
  auto p = testing::summariser({summary_body("x")});
  const SummaryAnswer a =
      request_summary(Summarizers{p, "aux-model", nullptr, ""}, "the prompt", nullptr);
  REQUIRE(a.body);
  REQUIRE(p->requests().size() == 1);
  const ProviderRequest r = p->requests().at(0);
  CHECK(r.model == "aux-model");
  CHECK_FALSE(r.stream);
  CHECK(r.tools.empty());
  CHECK_FALSE(r.max_tokens);
  REQUIRE(r.messages.size() == 1);
  CHECK(r.messages[0].role == Role::kUser);
  CHECK(r.messages[0].content == "the prompt");
}

TEST_CASE("the provider's own model is used when none is named") {
  auto p = testing::summariser({summary_body("x")});
  request_summary(Summarizers{nullptr, "", p, ""}, "p", nullptr);
  CHECK(p->requests().at(0).model == "scripted-model");
}

TEST_CASE("answers are judged: empty, truncated and shapeless ones are rejected") {
  std::string body;
  CHECK(judge_summary_text("  \n", "stop", body) == SummaryFailure::kEmpty);
  CHECK(judge_summary_text(summary_body("x"), "length", body) == SummaryFailure::kTruncated);
  CHECK(judge_summary_text("Sure! Here is what happened: lots.", "stop", body) ==
        SummaryFailure::kWrongFormat);
  CHECK(judge_summary_text("<think>hmm</think>\n" + summary_body("ok"), "stop", body) ==
        SummaryFailure::kNone);
  CHECK(body == summary_body("ok"));
  CHECK(judge_summary_text("## Active Task\nolder template", "stop", body) ==
        SummaryFailure::kNone);
}

TEST_CASE("the main model answers once when the auxiliary one fails") {
  auto aux = std::make_shared<ScriptedProvider>();
  fail_with(*aux, 404, "model_not_found");
  auto main = testing::summariser({summary_body("from main")});
  const SummaryAnswer a = request_summary(Summarizers{aux, "", main, ""}, "p", nullptr);
  REQUIRE(a.body);
  CHECK(a.body->find("from main") != std::string::npos);
  CHECK(a.used_main);
  CHECK(a.auxiliary_error.find("404") != std::string::npos);
}

TEST_CASE("when both fail, the main model's failure decides") {
  auto aux = testing::summariser({""});
  auto main = std::make_shared<ScriptedProvider>();
  fail_with(*main, 0, "connection refused", TransportFailure::kConnect);
  const SummaryAnswer a = request_summary(Summarizers{aux, "", main, ""}, "p", nullptr);
  CHECK_FALSE(a.body);
  CHECK(a.failure == SummaryFailure::kNetwork);
  CHECK(aux->requests().size() == 1);
  CHECK(main->requests().size() == 1);
}

TEST_CASE("no summariser at all is its own failure") {
  const SummaryAnswer a = request_summary(Summarizers{}, "p", nullptr);
  CHECK(a.failure == SummaryFailure::kNoProvider);
}

TEST_CASE("provider failures are classified for cooldowns and aborts") {
  struct Row {
    int status;
    const char* message;
    TransportFailure transport;
    SummaryFailure expected;
  };
  const std::vector<Row> rows = {
      {401, "invalid key", TransportFailure::kNone, SummaryFailure::kAccess},
      {402, "payment required", TransportFailure::kNone, SummaryFailure::kAccess},
      {429, "insufficient_quota", TransportFailure::kNone, SummaryFailure::kAccess},
      {400, "No API key found for provider", TransportFailure::kNone, SummaryFailure::kAccess},
      {429, "slow down", TransportFailure::kNone, SummaryFailure::kTimeout},
      {504, "gateway timeout", TransportFailure::kNone, SummaryFailure::kTimeout},
      {0, "timed out", TransportFailure::kTimeout, SummaryFailure::kTimeout},
      {0, "reset", TransportFailure::kDisconnect, SummaryFailure::kNetwork},
      {200, "Expecting value: line 1 column 1", TransportFailure::kNone,
       SummaryFailure::kMalformed},
      {500, "internal error", TransportFailure::kNone, SummaryFailure::kOther},
  };
  for (const auto& row : rows) {
    CAPTURE(row.message);
    auto p = std::make_shared<ScriptedProvider>();
    fail_with(*p, row.status, row.message, row.transport);
    CHECK(request_summary(Summarizers{nullptr, "", p, ""}, "p", nullptr).failure == row.expected);
  }
}

TEST_CASE("cooldowns follow the failure, timeouts escalate") {
  using std::chrono::seconds;
  CHECK(summary_cooldown(SummaryFailure::kNoProvider, 0) == seconds(600));
  CHECK(summary_cooldown(SummaryFailure::kTimeout, 1) == seconds(60));
  CHECK(summary_cooldown(SummaryFailure::kTimeout, 2) == seconds(300));
  CHECK(summary_cooldown(SummaryFailure::kTimeout, 3) == seconds(900));
  CHECK(summary_cooldown(SummaryFailure::kTimeout, 9) == seconds(900));
  CHECK(summary_cooldown(SummaryFailure::kMalformed, 0) == seconds(30));
  CHECK(summary_cooldown(SummaryFailure::kNetwork, 0) == seconds(30));
  CHECK(summary_cooldown(SummaryFailure::kEmpty, 0) == seconds(60));
  CHECK(summary_cooldown(SummaryFailure::kOther, 0) == seconds(60));
  CHECK(keeps_transcript_unchanged(SummaryFailure::kAccess));
  CHECK(keeps_transcript_unchanged(SummaryFailure::kNetwork));
  CHECK_FALSE(keeps_transcript_unchanged(SummaryFailure::kEmpty));
}

TEST_CASE("the summariser's output is redacted too") {
  auto p = testing::summariser({summary_body("the key is sk-LEAK")});
  auto redact = [](std::string_view s) {
    std::string out(s);
    if (auto at = out.find("sk-LEAK"); at != std::string::npos) out.replace(at, 7, "[REDACTED]");
    return out;
  };
  const SummaryAnswer a = request_summary(Summarizers{nullptr, "", p, ""}, "p", redact);
  REQUIRE(a.body);
  CHECK(a.body->find("sk-LEAK") == std::string::npos);
}

}  // namespace
}  // namespace hermes::internal
