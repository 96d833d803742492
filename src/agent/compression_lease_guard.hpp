// The session's compression lease, held for the length of one compaction.
// While the summary call runs (minutes with a slow model) a background thread renews the
// lease every max(1, min(60, ttl/2)) seconds, so another process never takes over a lease
// whose holder is still working. Without the store's compaction capability (nullptr) there
// is nothing durable to guard: the guard counts as held and commit_holder() is empty.
#pragma once

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace hermes {
class SessionCompaction;
}

namespace hermes::internal {

class CompressionLeaseGuard {
 public:
  // Takes the lease of `session_id` for `holder`; held() says whether that worked.
  CompressionLeaseGuard(SessionCompaction* store, std::string session_id, std::string holder,
                        double ttl_seconds);
  // Stops the renewals and releases the lease.
  ~CompressionLeaseGuard();
  CompressionLeaseGuard(const CompressionLeaseGuard&) = delete;
  CompressionLeaseGuard& operator=(const CompressionLeaseGuard&) = delete;

  bool held() const { return held_; }
  // The holder to pass to commit operations ("" when leases are not supported).
  std::string commit_holder() const { return supported_ ? holder_ : ""; }

 private:
  void renew_until_stopped();

  SessionCompaction* store_;
  std::string session_id_;
  std::string holder_;
  double ttl_seconds_;
  bool held_ = false;
  bool supported_ = true;

  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;  // Guarded by mutex_.
  std::thread renewer_;
};

}  // namespace hermes::internal
