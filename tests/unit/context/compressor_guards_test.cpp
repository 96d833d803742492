// The compressor's decisions: thresholds, usage tracking, anti-thrash strikes, cooldowns.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "hermes/context_compressor.hpp"
#include "unit/context/transcript_builder.hpp"

namespace hermes {
namespace {

using namespace std::chrono_literals;
using testing::bulk;
using testing::ScriptedProvider;
using testing::summary_body;
using testing::TranscriptBuilder;

// A steady clock the test moves by hand.
struct FakeClock {
  std::shared_ptr<std::chrono::steady_clock::time_point> now =
      std::make_shared<std::chrono::steady_clock::time_point>(
          std::chrono::steady_clock::time_point{} + 1h);
  std::function<std::chrono::steady_clock::time_point()> fn() const {
    return [now = now] { return *now; };
  }
  void advance(std::chrono::seconds s) const { *now += s; }
};

ContextCompressorOptions options(std::shared_ptr<Provider> main = nullptr) {
  ContextCompressorOptions o;
  o.model = "test-model";
  o.context_length = 100'000;
  o.threshold_tokens_cap = 10'000;
  o.main_provider = std::move(main);
  return o;
}

std::unique_ptr<ContextCompressor> make_guarded(ContextCompressorOptions o) {
  auto c = ContextCompressor::create(std::move(o));
  REQUIRE(c.ok());
  return std::move(*c);
}

std::vector<Message> session() {
  TranscriptBuilder t;
  for (int u = 0; u < 5; ++u) {
    t.user("task " + std::to_string(u));
    for (int r = 0; r < 3; ++r) {
      t.tool_round("read_file", "{\"path\":\"/f" + std::to_string(u) + std::to_string(r) + "\"}",
                   bulk("file " + std::to_string(u) + std::to_string(r), 4000));
    }
    t.assistant("done " + std::to_string(u));
  }
  return t.build();
}

std::vector<Message> tiny() {
  TranscriptBuilder t;
  t.user("hi").assistant("hello");
  return t.build();
}

Usage usage(int64_t input, int64_t output) {
  Usage u;
  u.input_tokens = input;
  u.output_tokens = output;
  u.reported = true;
  return u;
}

void fail_next(ScriptedProvider& p, int status,
               TransportFailure transport = TransportFailure::kNone) {
  p.step([=](const ProviderRequest&, const CallContext&) -> Result<ProviderResponse> {
    ApiError e;
    e.http_status = status;
    e.message = "failed";
    e.transport = transport;
    return Status::api_error(e);
  });
}

TEST_CASE("options are validated and name the bad field") {
  auto bad = [](auto mutate) {
    ContextCompressorOptions o = options();
    mutate(o);
    auto c = ContextCompressor::create(o);
    REQUIRE_FALSE(c.ok());
    CHECK(c.status().code() == StatusCode::kInvalidArgument);
    return c.status().message();
  };
  CHECK(bad([](auto& o) { o.context_length = 0; }).rfind("context_length", 0) == 0);
  CHECK(bad([](auto& o) { o.threshold_percent = 1.5; }).rfind("threshold_percent", 0) == 0);
  CHECK(bad([](auto& o) { o.model_thresholds = {{"", 0.5}}; }).rfind("model_thresholds", 0) == 0);
  CHECK(bad([](auto& o) { o.max_tokens = -1; }).rfind("max_tokens", 0) == 0);
  CHECK(bad([](auto& o) { o.protect_last_n = -3; }).rfind("protect_last_n", 0) == 0);
  CHECK(bad([](auto& o) { o.summary_tokens_ceiling = 0; }).rfind("summary_tokens_ceiling", 0) == 0);
}

TEST_CASE("limits derive from the options and follow a model switch") {
  ContextCompressorOptions o;
  o.model = "claude-sonnet-4";
  o.context_length = 200'000;
  o.model_thresholds = {{"gpt-5", 0.6}};
  auto c = make_guarded(o);
  CHECK(c->threshold_tokens() == 100'000);
  CHECK(c->tail_token_budget() == 20'000);
  CHECK(c->max_summary_tokens() == 10'000);
  c->update_model("gpt-5-mini", 400'000);
  CHECK(c->context_length() == 400'000);
  CHECK(c->threshold_percent() == doctest::Approx(0.6));
  CHECK(c->threshold_tokens() == 240'000);
  CHECK(c->max_summary_tokens() == 12'000);
}

TEST_CASE("compression is wanted from the threshold on, judged on prompt tokens only") {
  auto c = make_guarded(options());
  CHECK_FALSE(c->should_compress(9'999));
  CHECK(c->should_compress(10'000));
  CHECK_FALSE(c->should_compress());  // Nothing reported yet.
  // Reasoning-heavy completions never count: they are not part of the next prompt.
  c->update_from_response(usage(9'000, 50'000));
  CHECK_FALSE(c->should_compress());
  c->update_from_response(usage(12'000, 10));
  CHECK(c->should_compress());
  CHECK(c->last_prompt_tokens() == 12'000);
  // An unreported usage is unknown, not the last value.
  c->update_from_response(Usage{});
  CHECK(c->last_prompt_tokens() == 0);
  CHECK_FALSE(c->should_compress());
}

TEST_CASE("right after a compaction the prompt size is unknown until the next response") {
  auto c = make_guarded(options(testing::summariser({summary_body("x")})));
  c->update_from_response(usage(15'000, 100));
  REQUIRE(c->compress(session(), {}).ok());
  CHECK(c->last_prompt_tokens() == -1);
  CHECK_FALSE(c->should_compress());
  CHECK(c->should_defer_preflight_to_real_usage(20'000));
  c->update_from_response(usage(6'000, 100));
  CHECK(c->last_prompt_tokens() == 6'000);
  CHECK_FALSE(c->should_defer_preflight_to_real_usage(50'000));  // Far beyond the last fit.
  CHECK_FALSE(c->should_defer_preflight_to_real_usage(5'000));   // Under the threshold anyway.
}

TEST_CASE("a rough estimate that barely grew since the prompt fit defers to real usage") {
  auto o = options(testing::summariser({summary_body("x")}));
  o.threshold_tokens_cap = 4'000;
  auto c = make_guarded(o);
  REQUIRE(c->compress(session(), {}).ok());
  const int64_t after = c->last_report().tokens_after;
  c->update_from_response(usage(3'000, 10));  // The provider says the compacted prompt fits.
  // Rough estimates overcount; over the threshold but within 4,096 tokens of the size that
  // fit, trust the provider.
  CHECK(c->should_defer_preflight_to_real_usage(std::max<int64_t>(4'000, after + 1'000)));
  CHECK_FALSE(c->should_defer_preflight_to_real_usage(after + 10'000));
}

TEST_CASE("two ineffective compactions block automatic compaction until reset or forced") {
  auto c = make_guarded(options());
  REQUIRE(c->compress(tiny(), {}).ok());
  CHECK(c->should_compress(50'000));
  REQUIRE(c->compress(tiny(), {}).ok());
  const CompressDecision d = c->should_compress_info(50'000);
  CHECK_FALSE(d.compress);
  CHECK(d.blocked_reason == "ineffective");
  CHECK(c->status().at("blocked_reason") == "ineffective");

  SUBCASE("a manual compaction clears the strikes") {
    CompressOptions force;
    force.force = true;
    REQUIRE(c->compress(tiny(), force).ok());  // Still nothing to do: one strike, not two.
    CHECK(c->should_compress(50'000));
  }
  SUBCASE("a session reset clears them") {
    c->on_session_reset();
    CHECK(c->should_compress(50'000));
  }
  SUBCASE("a new session clears them, a compaction boundary does not") {
    c->on_session_start("s2", "compression");
    CHECK_FALSE(c->should_compress(50'000));
    c->on_session_start("s3", "new_session");
    CHECK(c->should_compress(50'000));
  }
}

TEST_CASE("the pause after two ineffective compactions is a keyed notice naming no command") {
  ContextCompressorOptions o = options();
  std::vector<std::pair<std::string, std::string>> notices;
  o.on_status = [&notices](std::string_view kind, std::string_view message) {
    notices.emplace_back(kind, message);
  };
  auto c = make_guarded(std::move(o));
  REQUIRE(c->compress(tiny(), {}).ok());
  REQUIRE(c->compress(tiny(), {}).ok());
  const auto it = std::find_if(notices.begin(), notices.end(),
                               [](const auto& n) { return n.first == "compression_ineffective"; });
  REQUIRE(it != notices.end());
  CHECK(it->second.find("paused after two ineffective passes") != std::string::npos);
  CHECK(it->second.find('/') == std::string::npos);  // No "/new" or "/compress" to type.
}

TEST_CASE("an effective compaction clears a strike") {
  auto c = make_guarded(options(testing::summariser({summary_body("x")})));
  REQUIRE(c->compress(tiny(), {}).ok());
  REQUIRE(c->compress(session(), {}).ok());
  CHECK(c->last_report().savings_percent >= 10.0);
  REQUIRE(c->compress(tiny(), {}).ok());
  CHECK(c->should_compress(50'000));  // One strike since the effective pass.
  CHECK(c->status().at("ineffective_compressions") == 1);
}

TEST_CASE(
    "judged on real usage, a compaction that leaves the prompt over the threshold is a strike") {
  auto o = options(testing::summariser({summary_body("a"), summary_body("b")}));
  o.ineffective_verdict = IneffectiveVerdict::kRealUsage;
  auto c = make_guarded(o);
  REQUIRE(c->compress(session(), {}).ok());
  c->update_from_response(usage(30'000, 10));  // The system prompt and tools alone are too big.
  CHECK(c->should_compress());
  REQUIRE(c->compress(session(), {}).ok());
  c->update_from_response(usage(30'000, 10));
  CHECK(c->should_compress_info(std::nullopt).blocked_reason == "ineffective");
  c->update_from_response(usage(5'000, 10));  // Any reading that fits clears it.
  CHECK(c->should_compress(50'000));
}

TEST_CASE("a failed summary pauses automatic compaction for a cooldown") {
  FakeClock clock;
  auto main = std::make_shared<ScriptedProvider>();
  fail_next(*main, 500);
  auto o = options(main);
  o.clock = clock.fn();
  auto c = make_guarded(o);
  REQUIRE(c->compress(session(), {}).ok());  // A static summary stands in.
  CHECK(c->should_compress_info(50'000).blocked_reason == "cooldown:60");
  clock.advance(59s);
  CHECK(c->should_compress_info(50'000).blocked_reason == "cooldown:1");
  clock.advance(1s);
  CHECK(c->should_compress(50'000));
}

TEST_CASE("during a cooldown compaction does not call the summariser unless forced") {
  FakeClock clock;
  auto main = std::make_shared<ScriptedProvider>();
  fail_next(*main, 500);
  main->text(summary_body("recovered"));
  auto o = options(main);
  o.clock = clock.fn();
  auto c = make_guarded(o);
  REQUIRE(c->compress(session(), {}).ok());
  REQUIRE(c->compress(session(), {}).ok());
  CHECK(main->requests().size() == 1);
  CHECK(c->last_report().used_static_summary);
  CompressOptions force;
  force.force = true;
  auto out = c->compress(session(), force);
  REQUIRE(out.ok());
  CHECK(main->requests().size() == 2);
  CHECK_FALSE(c->last_report().used_static_summary);
  CHECK(c->should_compress(50'000));
}

TEST_CASE("repeated summary timeouts escalate the cooldown") {
  FakeClock clock;
  auto main = std::make_shared<ScriptedProvider>();
  for (int i = 0; i < 4; ++i) fail_next(*main, 0, TransportFailure::kTimeout);
  auto o = options(main);
  o.clock = clock.fn();
  auto c = make_guarded(o);
  for (const char* expected : {"cooldown:60", "cooldown:300", "cooldown:900", "cooldown:900"}) {
    REQUIRE(c->compress(session(), {}).ok());
    CHECK(c->should_compress_info(50'000).blocked_reason == expected);
    clock.advance(1000s);
  }
}

TEST_CASE("two static summaries in a row block automatic compaction") {
  FakeClock clock;
  auto main = std::make_shared<ScriptedProvider>();
  fail_next(*main, 500);
  fail_next(*main, 500);
  main->text(summary_body("fine"));
  auto o = options(main);
  o.clock = clock.fn();
  auto c = make_guarded(o);
  REQUIRE(c->compress(session(), {}).ok());
  clock.advance(61s);
  REQUIRE(c->compress(session(), {}).ok());
  clock.advance(61s);
  CHECK(c->should_compress_info(50'000).blocked_reason == "ineffective");
  CHECK(c->status().at("static_summary_streak") == 2);
  CompressOptions force;
  force.force = true;
  REQUIRE(c->compress(session(), force).ok());
  CHECK(c->should_compress(50'000));
}

TEST_CASE("switching models clears a summary cooldown") {
  FakeClock clock;
  auto main = std::make_shared<ScriptedProvider>();
  fail_next(*main, 500);
  auto o = options(main);
  o.clock = clock.fn();
  auto c = make_guarded(o);
  REQUIRE(c->compress(session(), {}).ok());
  CHECK_FALSE(c->should_compress(50'000));
  c->update_model("test-model", 100'000);  // Same model: the cooldown stays.
  CHECK_FALSE(c->should_compress(50'000));
  c->update_model("other-model", 100'000);
  CHECK(c->should_compress(50'000));
}

TEST_CASE("pruning alone shrinks old tool output without a model call") {
  auto main = std::make_shared<ScriptedProvider>();
  auto o = options(main);
  o.protect_last_n = 4;
  o.prune_min_result_chars = 1'000;
  o.prune_min_reclaim_tokens = 1'000;
  auto c = make_guarded(o);
  const auto input = session();
  auto pruned = c->prune_tool_results_only(input);
  REQUIRE(pruned);
  CHECK(pruned->size() == input.size());
  CHECK((*pruned)[2].content == "[read_file] read /f00 from line 1 (4,000 chars)");
  CHECK(pruned->back() == input.back());
  CHECK(main->requests().empty());
  CHECK(testing::transcript_problem(*pruned) == "");

  o.prune_min_reclaim_tokens = 1'000'000;  // Not worth breaking the provider's cache.
  CHECK_FALSE(make_guarded(o)->prune_tool_results_only(input));
  o.prune_min_result_chars = 10'000;  // Nothing that large.
  o.prune_min_reclaim_tokens = 0;
  CHECK_FALSE(make_guarded(o)->prune_tool_results_only(input));
  CHECK_FALSE(make_guarded(options())->prune_tool_results_only(tiny()));
}

TEST_CASE("the status shows the counters a status bar needs") {
  auto c = make_guarded(options());
  c->update_from_response(usage(1'234, 56));
  const Json s = c->status();
  CHECK(s.at("engine") == "compressor");
  CHECK(s.at("threshold_tokens") == 10'000);
  CHECK(s.at("last_prompt_tokens") == 1'234);
  CHECK(s.at("last_completion_tokens") == 56);
  CHECK(s.at("compression_count") == 0);
  CHECK(c->name() == "compressor");
  CHECK(c->system_prompt_note().empty());
}

TEST_CASE("ending a session forgets its summary") {
  auto c = make_guarded(options(testing::summariser({summary_body("x")})));
  REQUIRE(c->compress(session(), {}).ok());
  CHECK_FALSE(c->previous_summary().empty());
  c->on_session_end("s1", {});
  CHECK(c->previous_summary().empty());
  CHECK(c->compression_count() == 0);
}

}  // namespace
}  // namespace hermes
