// The lane state machine, on every store that keeps routes.
#include "hermes/session_router.hpp"

#include <doctest/doctest.h>

#include "unit/store/store_backends.hpp"

using hermes::ResetPolicy;
using hermes::SessionRouter;
using hermes::SessionRouterOptions;
using hermes::SessionSource;

namespace {

SessionSource telegram_dm() {
  SessionSource s;
  s.platform = "telegram";
  s.chat_type = "dm";
  s.chat_id = "12345";
  s.user_id = "u1";
  return s;
}

constexpr const char* kKey = "agent:main:telegram:dm:12345";

// A router whose clock the test moves.
struct Clocked {
  double now = 1'750'000'000;
  SessionRouterOptions options() {
    SessionRouterOptions o;
    o.clock = [this] { return now; };
    return o;
  }
};

}  // namespace

TEST_CASE_TEMPLATE("a lane keeps its session from message to message", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  Clocked clock;
  SessionRouter router(backend.store, clock.options());
  auto first = router.route(telegram_dm());
  REQUIRE_MESSAGE(first.ok(), first.status().to_string());
  CHECK(first->session_key == kKey);
  auto row = backend.store->get_session(first->session_id);
  REQUIRE(row.ok());
  CHECK(row->source == "telegram");
  CHECK(row->session_key == kKey);
  clock.now += 60;
  auto second = router.route(telegram_dm());
  REQUIRE(second.ok());
  CHECK(second->session_id == first->session_id);
  CHECK(second->updated_at == clock.now);
  CHECK_FALSE(second->was_auto_reset);

  // Another router on the same store sees the same lane.
  SessionRouter other(backend.store, clock.options());
  CHECK(other.route(telegram_dm())->session_id == first->session_id);
}

TEST_CASE_TEMPLATE("a suspended lane starts over and says why", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  Clocked clock;
  SessionRouter router(backend.store, clock.options());
  auto first = router.route(telegram_dm());
  REQUIRE(first.ok());
  REQUIRE(router.set_last_prompt_tokens(kKey, 500).ok());
  REQUIRE(router.suspend(kKey).ok());
  // Resume-pending never overrides a suspension.
  REQUIRE(router.mark_resume_pending(kKey, "restart_timeout").ok());
  auto next = router.route(telegram_dm());
  REQUIRE(next.ok());
  CHECK(next->session_id != first->session_id);
  CHECK(next->was_auto_reset);
  CHECK(next->auto_reset_reason == "suspended");
  CHECK(next->reset_had_activity);
  CHECK(next->prev_session_id == first->session_id);
  CHECK_FALSE(next->suspended);
  CHECK(backend.store->get_session(first->session_id)->end_reason == "suspended");
  auto child = backend.store->get_session(next->session_id);
  CHECK(child->parent_session_id == first->session_id);
  CHECK(child->model_config["_reset_from"] == first->session_id);

  REQUIRE(router.consume_reset_notice(kKey).ok());
  CHECK_FALSE((*router.find(kKey))->was_auto_reset);
}

TEST_CASE_TEMPLATE("resume_pending continues only within the freshness window", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  Clocked clock;
  SessionRouter router(backend.store, clock.options());
  const auto first = *router.route(telegram_dm());
  REQUIRE(router.mark_resume_pending(kKey, "restart_interrupted").ok());
  clock.now += 3000;
  auto fresh = router.route(telegram_dm());
  CHECK(fresh->session_id == first.session_id);
  CHECK(fresh->resume_pending);
  REQUIRE(router.clear_resume_pending(kKey).ok());

  REQUIRE(router.mark_resume_pending(kKey, "restart_interrupted").ok());
  clock.now += 3601;
  auto stale = router.route(telegram_dm());
  CHECK(stale->session_id != first.session_id);
  CHECK(stale->auto_reset_reason == "resume_pending_expired");
}

TEST_CASE_TEMPLATE("the idle policy resets quiet lanes unless they have background work", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  Clocked clock;
  bool busy = false;
  SessionRouterOptions options = clock.options();
  options.reset_policy.mode = ResetPolicy::Mode::kIdle;
  options.reset_policy.idle_minutes = 30;
  options.has_background_work = [&](const std::string&) { return busy; };
  SessionRouter router(backend.store, options);
  const auto first = *router.route(telegram_dm());
  clock.now += 29 * 60;
  CHECK(router.route(telegram_dm())->session_id == first.session_id);
  clock.now += 31 * 60;
  busy = true;
  CHECK(router.route(telegram_dm())->session_id == first.session_id);
  clock.now += 31 * 60;
  busy = false;
  auto reset = router.route(telegram_dm());
  CHECK(reset->session_id != first.session_id);
  CHECK(reset->auto_reset_reason == "idle");
}

TEST_CASE_TEMPLATE("the daily policy resets a lane last used before the boundary", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  Clocked clock;
  SessionRouterOptions options = clock.options();
  options.reset_policy.mode = ResetPolicy::Mode::kDaily;
  options.reset_policy.at_hour = 4;
  SessionRouter router(backend.store, options);
  const auto first = *router.route(telegram_dm());
  clock.now += 25 * 3600;  // A boundary has certainly passed.
  auto next = router.route(telegram_dm());
  CHECK(next->session_id != first.session_id);
  CHECK(next->auto_reset_reason == "daily");
}

TEST_CASE_TEMPLATE("policies are off by default and /new always starts fresh", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  Clocked clock;
  SessionRouter router(backend.store, clock.options());
  const auto first = *router.route(telegram_dm());
  clock.now += 30 * 86400;
  CHECK(router.route(telegram_dm())->session_id == first.session_id);
  auto fresh = router.route(telegram_dm(), /*force_new=*/true);
  CHECK(fresh->session_id != first.session_id);
  CHECK(fresh->is_fresh_reset);
  CHECK_FALSE(fresh->was_auto_reset);
  CHECK(backend.store->get_session(first.session_id)->end_reason == "session_reset");
}

TEST_CASE_TEMPLATE("a lane follows its session through compression and recoverable closes", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  Clocked clock;
  SessionRouter router(backend.store, clock.options());
  const auto first = *router.route(telegram_dm());
  hermes::testing::rotate(store, first.session_id, "compressed_child",
                          {hermes::Message::user("[s]")});
  CHECK(router.route(telegram_dm())->session_id == "compressed_child");

  REQUIRE(store.end_session("compressed_child", "agent_close").ok());
  CHECK(router.route(telegram_dm())->session_id == "compressed_child");
  CHECK(store.get_session("compressed_child")->ended_at == 0);

  REQUIRE(store.end_session("compressed_child", "user_exit").ok());
  auto fresh = router.route(telegram_dm());
  CHECK(fresh->session_id != "compressed_child");
}

TEST_CASE_TEMPLATE("pruning drops old lanes but keeps suspended and busy ones", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  Clocked clock;
  SessionRouterOptions options = clock.options();
  options.has_background_work = [](const std::string& key) { return key.find("busy") != key.npos; };
  SessionRouter router(backend.store, options);
  SessionSource quiet = telegram_dm();
  SessionSource stopped = telegram_dm();
  stopped.chat_id = "stopped";
  SessionSource busy = telegram_dm();
  busy.chat_id = "busy";
  REQUIRE(router.route(quiet).ok());
  REQUIRE(router.route(stopped).ok());
  REQUIRE(router.route(busy).ok());
  REQUIRE(router.suspend("agent:main:telegram:dm:stopped").ok());
  clock.now += 10 * 86400;
  CHECK(*router.prune(0) == 0);
  CHECK(*router.prune(7) == 1);
  CHECK_FALSE(router.find(kKey)->has_value());
  CHECK(router.find("agent:main:telegram:dm:stopped")->has_value());
  CHECK(router.find("agent:main:telegram:dm:busy")->has_value());
  CHECK(router.suspend("agent:main:telegram:dm:nobody").code() == hermes::StatusCode::kNotFound);
}
