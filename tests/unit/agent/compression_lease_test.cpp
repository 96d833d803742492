// The compression lease during a compaction: held while the summary call runs, renewed so
// a slow summary does not let another process take over, released after the commit.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

#include "hermes/agent.hpp"
#include "support/observed_store.hpp"
#include "support/scripted_provider.hpp"
#include "support/store_capabilities.hpp"
#include "support/temp_dir.hpp"

using namespace hermes;
using hermes::testing::compaction_of;
using hermes::testing::ObservedStore;
using hermes::testing::ScriptedProvider;
using hermes::testing::StoreWrite;

namespace {

const char* kLeaseSummary =
    "## Historical Task Snapshot\nThe user asked about lighthouses.\n"
    "## Goal\nLearn about lighthouses.\n## Completed Actions\nDescribed many lighthouses.\n"
    "## Critical Context\nThe user likes Fresnel lenses.";

std::vector<Message> lighthouse_history() {
  std::vector<Message> history;
  for (int i = 0; i < 20; ++i) {
    history.push_back(
        Message::user("Lighthouse " + std::to_string(i) + "? " + std::string(550, 'q')));
    history.push_back(Message::assistant("It has a lens. " + std::string(550, 'a')));
  }
  return history;
}

// Counts the lease renewals the store accepted and lets a test wait for them.
class RenewalCounter {
 public:
  void observe(const StoreWrite& write) {
    if (write.method != "renew_compression_lease" || !write.committed) return;
    {
      std::lock_guard lock(mutex_);
      ++renewals_;
    }
    changed_.notify_all();
  }
  // Whether `n` renewals arrived within a generous bound (the renewer runs every second).
  bool wait_for(int n) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(60), [&] { return renewals_ >= n; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int renewals_ = 0;
};

}  // namespace

TEST_CASE("a summary call slower than the lease's lifetime keeps the lease and commits") {
  hermes::testing::TempDir home;
  auto sqlite = open_sqlite_store(home.path() + "/state.db");
  REQUIRE(sqlite.ok());
  RenewalCounter counter;
  auto store = std::make_shared<ObservedStore>(
      *sqlite, [&counter](const StoreWrite& write) { counter.observe(write); });

  auto provider = std::make_shared<ScriptedProvider>();
  provider->text("ok");
  std::atomic<bool> renewed{false};
  std::atomic<bool> taken_by_other{true};
  std::string compacting_session;
  provider->step([&](const ProviderRequest&, const CallContext&) -> Result<ProviderResponse> {
    // A 1-second lease: waiting for two renewals outlives it twice over.
    renewed = counter.wait_for(2);
    auto other = compaction_of(store).acquire_compression_lease(compacting_session,
                                                                "host=elsewhere:pid=1:x", 60);
    taken_by_other = !other.ok() || *other;
    ProviderResponse response;
    response.message = Message::assistant(kLeaseSummary);
    response.message.finish_reason = "stop";
    return response;
  });

  AgentOptions o;
  o.provider.model = "m";
  o.provider.instance = provider;
  o.home = home.path();
  o.persistence.store = store;
  o.compression.lease_ttl_seconds = 1;
  auto agent = Agent::create(o);
  REQUIRE(agent.ok());
  REQUIRE((*agent)->run_conversation("hello", std::nullopt, lighthouse_history()).completed);
  compacting_session = (*agent)->session_id();

  auto result = (*agent)->compress();
  REQUIRE(result.ok());
  CHECK(renewed);
  CHECK_FALSE(taken_by_other);  // Still ours, two lifetimes after it was taken.
  CHECK(result->compacted);
  CHECK((*agent)->session_id() != compacting_session);  // Rotated to the child session.
  // Released after the commit: someone else may take it now.
  auto after = compaction_of(store).acquire_compression_lease(compacting_session,
                                                              "host=elsewhere:pid=1:x", 60);
  REQUIRE(after.ok());
  CHECK(*after);
}

TEST_CASE("a lease lifetime under a second is refused by name") {
  AgentOptions o;
  o.provider.model = "m";
  o.provider.instance = std::make_shared<ScriptedProvider>();
  o.persistence.enabled = false;
  o.compression.lease_ttl_seconds = 0.5;
  auto agent = Agent::create(o);
  REQUIRE_FALSE(agent.ok());
  CHECK(agent.status().message().find("compression.lease_ttl_seconds") != std::string::npos);
}
