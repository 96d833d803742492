// The recovery chain of a failed model call, branch by branch, from a table of cases
// (tests/fixtures/agent/recovery_decision_cases.json): an error as the classifier left it
// and the call's recovery state, and the action that must follow.
#include "agent/recovery_decision.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "hermes/json.hpp"

using namespace hermes;
using namespace hermes::internal;

namespace {

Json load_cases() {
  std::ifstream file(std::string(HERMES_FIXTURES_DIR) + "/agent/recovery_decision_cases.json");
  REQUIRE(file.good());
  std::stringstream text;
  text << file.rdbuf();
  return Json::parse(text.str());
}

ApiError error_of(const Json& j) {
  ApiError e;
  auto reason = parse_failover_reason(j.at("reason").get<std::string>());
  REQUIRE(reason.has_value());
  e.reason = *reason;
  auto transport = parse_transport_failure(j.value("transport", "none"));
  REQUIRE(transport.has_value());
  e.transport = *transport;
  e.http_status = j.value("http_status", 0);
  e.message = j.value("message", "");
  e.error_code = j.value("error_code", "");
  e.retryable = j.value("retryable", true);
  e.should_compress = j.value("should_compress", false);
  e.should_fallback = j.value("should_fallback", false);
  e.should_rotate_credential = j.value("should_rotate_credential", false);
  return e;
}

RecoveryFacts facts_of(const Json& j) {
  RecoveryFacts f;
  f.retry = j.value("retry", 0);
  f.max_attempts = j.value("max_attempts", 3);
  f.credential_refreshed = j.value("credential_refreshed", false);
  f.can_refresh_credential = j.value("can_refresh_credential", false);
  f.keys_left = j.value("keys_left", false);
  f.refresh_declined = j.value("refresh_declined", false);
  f.rotation_declined = j.value("rotation_declined", false);
  f.repair_declined = j.value("repair_declined", false);
  f.fallback_declined = j.value("fallback_declined", false);
  return f;
}

}  // namespace

TEST_CASE("every failure gets the recovery its table row names") {
  const Json cases = load_cases();
  std::set<std::string> actions;
  for (const Json& c : cases) {
    CAPTURE(c["why"].get<std::string>());
    const Json& expect = c["expect"];
    const RecoveryAction a = decide_recovery(error_of(c["error"]), facts_of(c["facts"]));
    CHECK(recovery_kind_name(a.kind) == expect["action"].get<std::string>());
    CHECK(failover_reason_name(a.reason) == expect["reason"].get<std::string>());
    CHECK(a.retry == expect["retry"].get<int>());
    CHECK(a.error == expect.value("error", ""));
    CHECK(a.exit_reason == expect.value("exit_reason", ""));
    actions.insert(expect["action"].get<std::string>());
  }
  // The table reaches every action.
  CHECK(actions == std::set<std::string>{"refresh_credential", "rotate_key", "repair_request",
                                         "compact", "fall_back", "retry_after_backoff", "fail"});
}

TEST_CASE("asking again after each declined attempt ends in a decision that needs no attempt") {
  // A billing failure with every attempt declined in turn: rotate, then fall back, then stop.
  ApiError e;
  e.reason = FailoverReason::kBilling;
  e.http_status = 402;
  e.retryable = false;
  e.should_fallback = true;
  RecoveryFacts f;
  f.keys_left = true;
  RecoveryAction a = decide_recovery(e, f);
  CHECK(a.kind == RecoveryKind::kRotateKey);
  f.rotation_declined = true;
  a = decide_recovery(e, f);
  CHECK(a.kind == RecoveryKind::kFallBack);
  f.fallback_declined = true;
  a = decide_recovery(e, f);
  CHECK(a.kind == RecoveryKind::kFail);
  CHECK(a.exit_reason == "non_retryable_error(billing)");
}
