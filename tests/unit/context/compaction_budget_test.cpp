#include "context/compaction_budget.hpp"

#include <doctest/doctest.h>

#include "unit/context/transcript_builder.hpp"

namespace hermes::internal {
namespace {

std::optional<int64_t> opt(const Json& v) {
  return v.is_null() ? std::nullopt : std::optional<int64_t>(v.get<int64_t>());
}

TEST_CASE("the threshold follows the window, the reservation, the floor and the cap") {
  const Json fixture = testing::load_fixture("budgets.json");
  for (const auto& c : fixture.at("threshold_cases")) {
    CAPTURE(c.at("name").get<std::string>());
    CHECK(compute_threshold_tokens(c.at("context_length"), c.at("percent"), opt(c.at("max_tokens")),
                                   opt(c.at("cap"))) == c.at("threshold").get<int64_t>());
  }
}

TEST_CASE("the small-window floor only ever raises the percent") {
  const Json fixture = testing::load_fixture("budgets.json");
  for (const auto& c : fixture.at("small_window_floor_cases")) {
    CAPTURE(c.dump());
    CHECK(effective_threshold_percent(c.at("context_length"), c.at("percent"), c.at("floor")) ==
          doctest::Approx(c.at("effective").get<double>()));
  }
}

TEST_CASE("the tail budget is a share of the threshold, or lean") {
  const Json fixture = testing::load_fixture("budgets.json");
  for (const auto& c : fixture.at("tail_budget_cases")) {
    CAPTURE(c.dump());
    const auto mode =
        c.at("mode") == "lean" ? TailBudgetMode::kLean : TailBudgetMode::kThresholdShare;
    CHECK(compute_tail_token_budget(mode, c.at("threshold"), c.at("ratio"),
                                    c.at("context_length")) == c.at("budget").get<int64_t>());
  }
}

TEST_CASE("the summary budget is a fifth of the content between 2,000 and the ceiling") {
  const Json fixture = testing::load_fixture("budgets.json");
  for (const auto& c : fixture.at("summary_budget_cases")) {
    CAPTURE(c.dump());
    const int64_t max_summary = compute_max_summary_tokens(c.at("context_length"), c.at("ceiling"));
    CHECK(max_summary == c.at("max_summary").get<int64_t>());
    CHECK(compute_summary_budget(c.at("content_tokens"), max_summary) ==
          c.at("budget").get<int64_t>());
  }
}

TEST_CASE("the longest model key contained in the model name picks the percent") {
  const Json fixture = testing::load_fixture("budgets.json");
  for (const auto& c : fixture.at("model_threshold_cases")) {
    CAPTURE(c.dump());
    std::vector<std::pair<std::string, double>> overrides;
    for (const auto& o : c.at("overrides")) overrides.emplace_back(o.at(0), o.at(1));
    CHECK(resolve_model_threshold(c.at("model").get<std::string>(), overrides, c.at("fallback")) ==
          doctest::Approx(c.at("percent").get<double>()));
  }
}

TEST_CASE("the summary target ratio is clamped to [0.10, 0.80]") {
  CHECK(clamp_summary_target_ratio(0.01) == doctest::Approx(0.10));
  CHECK(clamp_summary_target_ratio(0.35) == doctest::Approx(0.35));
  CHECK(clamp_summary_target_ratio(3.0) == doctest::Approx(0.80));
}

}  // namespace
}  // namespace hermes::internal
