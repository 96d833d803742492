// The compression lease: one holder at a time, stale holders taken over, and publishing
// refused once the lease is lost.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/store_capabilities.hpp"
#include "unit/store/store_backends.hpp"

using hermes::Message;
using hermes::SessionInfo;
using hermes::StatusCode;
using hermes::testing::compaction_of;
using hermes::testing::create;

namespace {

// The pid of a process that has exited and been reaped.
pid_t dead_pid() {
  const pid_t pid = fork();
  if (pid == 0) _exit(0);
  int status = 0;
  waitpid(pid, &status, 0);
  return pid;
}

std::string local_host() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

}  // namespace

TEST_CASE_TEMPLATE("a live lease has one holder until it is released", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "s");
  const std::string me = hermes::compression_lease_holder();
  const std::string other = "host=elsewhere:pid=1:abc";
  CHECK(me.find("pid=" + std::to_string(getpid())) != std::string::npos);

  CHECK(*compaction_of(store).acquire_compression_lease("s", me, 300));
  CHECK(*compaction_of(store).acquire_compression_lease("s", me, 300));  // Re-acquiring extends it.
  CHECK_FALSE(*compaction_of(store).acquire_compression_lease("s", other, 300));
  CHECK(compaction_of(store).renew_compression_lease("s", me, 300).ok());
  CHECK(compaction_of(store).renew_compression_lease("s", other, 300).code() ==
        StatusCode::kFailedPrecondition);

  REQUIRE(compaction_of(store)
              .release_compression_lease("s", other)
              .ok());  // Not the holder: no effect.
  CHECK_FALSE(*compaction_of(store).acquire_compression_lease("s", other, 300));
  REQUIRE(compaction_of(store).release_compression_lease("s", me).ok());
  CHECK(*compaction_of(store).acquire_compression_lease("s", other, 300));
}

TEST_CASE_TEMPLATE("expired leases and leases of dead local processes are taken over", B,
                   STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "s");
  REQUIRE(*compaction_of(store).acquire_compression_lease("s", "host=elsewhere:pid=1:x", 0.001));
  usleep(20'000);
  CHECK(*compaction_of(store).acquire_compression_lease("s", "host=elsewhere:pid=2:y", 300));

  create(store, "t");
  const std::string crashed =
      "host=" + local_host() + ":pid=" + std::to_string(dead_pid()) + ":crashed";
  REQUIRE(*compaction_of(store).acquire_compression_lease("t", crashed, 300));
  CHECK(*compaction_of(store).acquire_compression_lease("t", hermes::compression_lease_holder(),
                                                        300));

  // A live local process keeps its lease.
  create(store, "u");
  const std::string alive = "host=" + local_host() + ":pid=" + std::to_string(getpid()) + ":me";
  REQUIRE(*compaction_of(store).acquire_compression_lease("u", alive, 300));
  CHECK_FALSE(*compaction_of(store).acquire_compression_lease("u", "host=elsewhere:pid=3:z", 300));
}

TEST_CASE_TEMPLATE("bad lease requests are refused", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  CHECK(compaction_of(store).acquire_compression_lease("s", "", 300).status().code() ==
        StatusCode::kInvalidArgument);
  CHECK(compaction_of(store).acquire_compression_lease("s", "me", 0).status().code() ==
        StatusCode::kInvalidArgument);
}

TEST_CASE_TEMPLATE("a compressor that lost its lease cannot publish", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "s");
  REQUIRE(store.append_messages("s", {Message::user("q")}).ok());
  const std::string slow = "host=elsewhere:pid=10:slow";
  const std::string fast = "host=elsewhere:pid=11:fast";
  REQUIRE(*compaction_of(store).acquire_compression_lease("s", slow, 0.001));
  usleep(20'000);
  REQUIRE(*compaction_of(store).acquire_compression_lease("s", fast, 300));

  SessionInfo child;
  child.id = "c";
  CHECK(compaction_of(store)
            .rotate_for_compression("s", child, {Message::user("[s]")}, 0, slow)
            .code() == StatusCode::kFailedPrecondition);
  CHECK(compaction_of(store).compact_in_place("s", {Message::user("[s]")}, 0, slow).code() ==
        StatusCode::kFailedPrecondition);
  CHECK(store.get_session("s")->ended_at == 0);
  CHECK(store.load_messages("s")->size() == 1);

  CHECK(compaction_of(store).compact_in_place("s", {Message::user("[s]")}, 0, fast).ok());
  CHECK(compaction_of(store)
            .rotate_for_compression("s", child, {Message::user("[s2]")}, 0, fast)
            .ok());
}
