#include "agent/compression_lease_guard.hpp"

#include <algorithm>
#include <chrono>

#include "hermes/session_store.hpp"
#include "safety/log.hpp"

namespace hermes::internal {

CompressionLeaseGuard::CompressionLeaseGuard(SessionCompaction* store, std::string session_id,
                                             std::string holder, double ttl_seconds)
    : store_(store),
      session_id_(std::move(session_id)),
      holder_(std::move(holder)),
      ttl_seconds_(ttl_seconds) {
  if (store_ == nullptr) {
    supported_ = false;  // Nothing persistent to guard.
    held_ = true;
    return;
  }
  auto got = store_->acquire_compression_lease(session_id_, holder_, ttl_seconds_);
  if (!got.ok()) {
    supported_ = got.status().code() != StatusCode::kUnimplemented;
    if (supported_) HERMES_LOG_WARN("compression lease failed: {}", got.status().to_string());
    held_ = !supported_;
    return;
  }
  held_ = *got;
  if (held_) renewer_ = std::thread([this] { renew_until_stopped(); });
}

CompressionLeaseGuard::~CompressionLeaseGuard() {
  if (renewer_.joinable()) {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    renewer_.join();
  }
  if (store_ != nullptr && supported_ && held_) {
    (void)store_->release_compression_lease(session_id_, holder_);
  }
}

void CompressionLeaseGuard::renew_until_stopped() {
  const auto interval = std::chrono::duration<double>(std::clamp(ttl_seconds_ / 2, 1.0, 60.0));
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, interval, [this] { return stopping_; })) {
    lock.unlock();
    const Status renewed = store_->renew_compression_lease(session_id_, holder_, ttl_seconds_);
    lock.lock();
    if (!renewed.ok()) {
      // Lost (another process took over an expired lease) or the store failed: the commit
      // checks the holder again and refuses, so the compaction cannot land on top of
      // someone else's.
      HERMES_LOG_WARN("compression lease renewal failed: {}", renewed.to_string());
      return;
    }
  }
}

}  // namespace hermes::internal
