// A refusal that says reasoning cannot be off, told from other reasoning errors, and
// reported by the classifier beside its verdict.
#include "providers/reasoning_rejection.hpp"

#include <doctest/doctest.h>

#include "hermes/api_error.hpp"

using namespace hermes;
using internal::is_reasoning_required_rejection;

TEST_CASE("a reasoning-required refusal is told from other reasoning errors") {
  CHECK(is_reasoning_required_rejection(
      "Reasoning is mandatory for this endpoint and cannot be disabled."));
  CHECK(is_reasoning_required_rejection("Thinking must be enabled for this model"));
  CHECK(is_reasoning_required_rejection("param reasoning_effort: reasoning is required"));
  CHECK_FALSE(is_reasoning_required_rejection("Unrecognized request argument: reasoning_effort"));
  CHECK_FALSE(is_reasoning_required_rejection("reasoning models are mandatory reading"));
  CHECK_FALSE(is_reasoning_required_rejection("the field is mandatory"));
  CHECK_FALSE(is_reasoning_required_rejection(""));
}

TEST_CASE("the classifier reports a required-reasoning refusal in its context") {
  ApiErrorFacts facts;
  facts.http_status = 400;
  facts.body =
      R"({"error":{"message":"Reasoning is mandatory for this endpoint and cannot be disabled."}})";
  const ApiError error = classify_api_error(facts);
  CHECK(error.reason == FailoverReason::kReasoningMandatory);
  CHECK(error.error_context == Json{{"reasoning_required", true}});

  facts.body = R"({"error":{"message":"Unrecognized request argument: reasoning_effort"}})";
  CHECK_FALSE(classify_api_error(facts).error_context.contains("reasoning_required"));
}
