#include <doctest/doctest.h>

#include "hermes/session_router.hpp"

using hermes::build_session_key;
using hermes::SessionKeyOptions;
using hermes::SessionSource;

namespace {

SessionSource source(const std::string& platform, const std::string& chat_type,
                     const std::string& chat_id, const std::string& user_id = {},
                     const std::string& thread_id = {}) {
  SessionSource s;
  s.platform = platform;
  s.chat_type = chat_type;
  s.chat_id = chat_id;
  s.user_id = user_id;
  s.thread_id = thread_id;
  return s;
}

}  // namespace

TEST_CASE("a DM lane is keyed by its chat") {
  CHECK(build_session_key(source("telegram", "dm", "12345", "u1")) ==
        "agent:main:telegram:dm:12345");
  // Without a chat id the sender keeps DMs apart, before any thread.
  CHECK(build_session_key(source("slack", "dm", "", "u1", "t9")) == "agent:main:slack:dm:u1:t9");
  CHECK(build_session_key(source("signal", "dm", "")) == "agent:main:signal:dm");
}

TEST_CASE("plain groups are per participant and threads are shared by default") {
  CHECK(build_session_key(source("telegram", "group", "-10012345", "user_abc")) ==
        "agent:main:telegram:group:-10012345:user_abc");
  CHECK(build_session_key(source("discord", "group", "12345", "u7", "thread_678")) ==
        "agent:main:discord:group:12345:thread_678");
  SessionKeyOptions per_user_threads;
  per_user_threads.thread_sessions_per_user = true;
  CHECK(build_session_key(source("discord", "group", "12345", "u7", "thread_678"),
                          per_user_threads) == "agent:main:discord:group:12345:thread_678:u7");
  SessionKeyOptions shared_groups;
  shared_groups.group_sessions_per_user = false;
  CHECK(build_session_key(source("telegram", "group", "-1", "u1"), shared_groups) ==
        "agent:main:telegram:group:-1");
}

TEST_CASE("the alternative user id wins and profiles get their own namespace") {
  SessionSource s = source("whatsapp", "group", "g1", "u1");
  s.user_id_alt = "alt1";
  CHECK(build_session_key(s) == "agent:main:whatsapp:group:g1:alt1");
  SessionKeyOptions work;
  work.profile = "work";
  CHECK(build_session_key(source("telegram", "dm", "1"), work) == "agent:work:telegram:dm:1");
  SessionKeyOptions main;
  main.profile = "main";
  CHECK(build_session_key(source("telegram", "dm", "1"), main) == "agent:main~:telegram:dm:1");
}

TEST_CASE("an entry survives its JSON form, legacy keys included") {
  hermes::SessionEntry entry;
  entry.session_key = "agent:main:telegram:dm:1";
  entry.session_id = "20250101_000000_abcdef12";
  entry.created_at = 1'750'000'000.25;
  entry.updated_at = 1'750'000'100.5;
  entry.resume_pending = true;
  entry.resume_reason = "restart_timeout";
  entry.last_prompt_tokens = 1234;
  auto back = hermes::session_entry_from_json(hermes::session_entry_to_json(entry));
  REQUIRE(back.ok());
  CHECK(back->session_id == entry.session_id);
  CHECK(back->created_at == doctest::Approx(entry.created_at).epsilon(1e-9));
  CHECK(back->updated_at == doctest::Approx(entry.updated_at).epsilon(1e-9));
  CHECK(back->resume_pending);
  CHECK(back->resume_reason == "restart_timeout");
  CHECK(back->last_prompt_tokens == 1234);

  auto legacy = hermes::session_entry_from_json(
      hermes::Json{{"session_id", "x"}, {"memory_flushed", true}, {"updated_at", 5}});
  REQUIRE(legacy.ok());
  CHECK(legacy->expiry_finalized);
  CHECK(legacy->updated_at == 5);
  CHECK_FALSE(hermes::session_entry_from_json(hermes::Json::array()).ok());
  CHECK_FALSE(hermes::session_entry_from_json(hermes::Json::object()).ok());
}
