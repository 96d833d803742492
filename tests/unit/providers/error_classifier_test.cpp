#include <doctest/doctest.h>

#include <string>

#include "hermes/api_error.hpp"
#include "unit/providers/fixture_files.hpp"

using hermes::ApiError;
using hermes::ApiErrorFacts;
using hermes::Json;

namespace {

hermes::TransportFailure transport_named(const std::string& name) {
  for (auto kind : {hermes::TransportFailure::kTimeout, hermes::TransportFailure::kConnect,
                    hermes::TransportFailure::kSsl, hermes::TransportFailure::kDisconnect}) {
    if (hermes::transport_failure_name(kind) == name) return kind;
  }
  return hermes::TransportFailure::kNone;
}

ApiErrorFacts facts_of(const Json& c) {
  ApiErrorFacts facts;
  facts.http_status = c.value("status", 0);
  facts.message = c.value("message", "");
  facts.body = c.value("body", "");
  facts.transport = transport_named(c.value("transport", ""));
  facts.provider = c.value("provider", "");
  facts.model = c.value("model", "");
  facts.approx_tokens = c.value("approx_tokens", int64_t{0});
  facts.context_length = c.value("context_length", int64_t{200000});
  facts.num_messages = c.value("num_messages", int64_t{0});
  if (c.contains("retry_after")) facts.retry_after_seconds = c["retry_after"].get<double>();
  return facts;
}

void check_verdict(const ApiError& error, const Json& expect) {
  CHECK(hermes::failover_reason_name(error.reason) == expect.at("reason").get<std::string>());
  CHECK(error.retryable == expect.at("retryable").get<bool>());
  CHECK(error.should_compress == expect.at("compress").get<bool>());
  CHECK(error.should_rotate_credential == expect.at("rotate").get<bool>());
  CHECK(error.should_fallback == expect.at("fallback").get<bool>());
}

}  // namespace

TEST_CASE("real provider errors classify to the upstream verdicts") {
  const Json cases = hermes::testing::read_json_fixture("errors/classifier_cases.json");
  REQUIRE(cases.size() >= 60);
  for (const Json& c : cases) {
    CAPTURE(c.at("name").get<std::string>());
    const ApiErrorFacts facts = facts_of(c);
    const ApiError error = hermes::classify_api_error(facts);
    const Json& expect = c.at("expect");
    check_verdict(error, expect);
    if (expect.contains("message")) CHECK(error.message == expect["message"].get<std::string>());
    if (expect.contains("error_code")) {
      CHECK(error.error_code == expect["error_code"].get<std::string>());
    }
    CHECK(error.http_status == facts.http_status);
    CHECK(error.transport == facts.transport);
    CHECK(error.body == facts.body);
  }
}

TEST_CASE("upstream's classifier cases give upstream's verdicts and details") {
  const Json cases = hermes::testing::read_json_fixture("errors/upstream_classifier_cases.json");
  REQUIRE(cases.size() >= 100);
  for (const Json& c : cases) {
    CAPTURE(c.at("name").get<std::string>());
    const ApiError error = hermes::classify_api_error(facts_of(c));
    const Json& expect = c.at("expect");
    CHECK(hermes::failover_reason_name(error.reason) == expect.at("reason").get<std::string>());
    if (expect.contains("retryable")) CHECK(error.retryable == expect["retryable"].get<bool>());
    if (expect.contains("compress")) CHECK(error.should_compress == expect["compress"].get<bool>());
    if (expect.contains("rotate")) {
      CHECK(error.should_rotate_credential == expect["rotate"].get<bool>());
    }
    if (expect.contains("fallback")) CHECK(error.should_fallback == expect["fallback"].get<bool>());
    if (expect.contains("message")) CHECK(error.message == expect["message"].get<std::string>());
    if (expect.contains("context")) CHECK(error.error_context == expect["context"]);
    CHECK(error.error_context.is_object());
  }
}

TEST_CASE("billing_unverified reads the verdict's details") {
  ApiErrorFacts facts;
  facts.http_status = 400;
  facts.provider = "anthropic";
  facts.message = "You're out of extra usage. Add more at claude.ai/settings/usage and keep going.";
  ApiError error = hermes::classify_api_error(facts);
  CHECK(error.reason == hermes::FailoverReason::kBilling);
  CHECK(error.billing_unverified());

  facts.message = "Your credit balance is too low to access the Anthropic API.";
  error = hermes::classify_api_error(facts);
  CHECK(error.reason == hermes::FailoverReason::kBilling);
  CHECK_FALSE(error.billing_unverified());

  // Details of the wrong type never read as true.
  error.error_context = Json{{"billing_unverified", "yes"}};
  CHECK_FALSE(error.billing_unverified());
  error.error_context = Json::array();
  CHECK_FALSE(error.billing_unverified());
}

TEST_CASE("reclassifying in place uses the recorded Retry-After") {
  ApiError error;
  error.http_status = 429;
  error.message = "usage limit reached";
  error.body =
      R"({"error":{"type":"usage_limit_reached","message":"Your account has reached its usage limit."}})";
  hermes::classify_in_place(error, 0, 200000, 0);
  CHECK(error.reason == hermes::FailoverReason::kBilling);
  error.retry_after_seconds = 3600;
  hermes::classify_in_place(error, 0, 200000, 0);
  CHECK(error.reason == hermes::FailoverReason::kRateLimit);
}

TEST_CASE("every reason name round-trips, the new ones included") {
  for (const char* name : {"image_corrupt", "reasoning_mandatory", "upstream_rate_limit",
                           "ssl_cert_verification", "unknown"}) {
    const auto reason = hermes::parse_failover_reason(name);
    REQUIRE(reason.has_value());
    CHECK(hermes::failover_reason_name(*reason) == name);
  }
}

TEST_CASE("reclassifying in place keeps what the provider recorded") {
  const Json cases = hermes::testing::read_json_fixture("errors/classifier_cases.json");
  for (const Json& c : cases) {
    CAPTURE(c.at("name").get<std::string>());
    const ApiErrorFacts facts = facts_of(c);
    ApiError error;
    error.http_status = facts.http_status;
    error.message = hermes::classify_api_error(facts).message;
    error.body = facts.body;
    error.transport = facts.transport;
    error.provider = facts.provider;
    error.model = facts.model;
    error.request_id = "req_kept";
    error.retry_after_seconds = facts.retry_after_seconds;  // A fact: it says when limits reset.
    hermes::classify_in_place(error, facts.approx_tokens, facts.context_length, facts.num_messages);
    check_verdict(error, c.at("expect"));
    CHECK(error.request_id == "req_kept");
    CHECK(error.retry_after_seconds == facts.retry_after_seconds);
  }
}

TEST_CASE("the message is the body's own, stripped and cut to 500 bytes") {
  ApiErrorFacts facts;
  facts.http_status = 400;
  facts.message = "Error code: 400";
  const std::string long_text = "  " + std::string(600, 'x') + "  ";
  facts.body = Json{{"error", {{"message", long_text}}}}.dump();
  const ApiError error = hermes::classify_api_error(facts);
  CHECK(error.message == std::string(500, 'x'));

  // A cut never splits a multi-byte character.
  facts.body = Json{{"error", {{"message", std::string(499, 'a') + "é"}}}}.dump();
  CHECK(hermes::classify_api_error(facts).message == std::string(499, 'a'));

  facts.body = "";
  facts.message = "plain transport text";
  CHECK(hermes::classify_api_error(facts).message == "plain transport text");
}

TEST_CASE("is_auth covers both auth reasons") {
  ApiError error;
  error.reason = hermes::FailoverReason::kAuth;
  CHECK(error.is_auth());
  error.reason = hermes::FailoverReason::kAuthPermanent;
  CHECK(error.is_auth());
  error.reason = hermes::FailoverReason::kBilling;
  CHECK_FALSE(error.is_auth());
}

TEST_CASE("the context window is read from overflow messages") {
  const Json cases = hermes::testing::read_json_fixture("errors/context_limit_cases.json");
  REQUIRE(cases.size() >= 20);
  for (const Json& c : cases) {
    const std::string text = c.at("text").get<std::string>();
    CAPTURE(text);
    const auto limit = hermes::parse_context_limit_from_error(text);
    if (c.at("limit").is_null()) {
      CHECK_FALSE(limit.has_value());
    } else {
      REQUIRE(limit.has_value());
      CHECK(*limit == c.at("limit").get<int64_t>());
    }
  }
}
