// The rules of the compression lease shared by every store: when a lease is stale.
#pragma once

#include <string>

namespace hermes::store {

// A lease is stale when it has expired, or when its holder names this host (or no host)
// and a pid that no longer runs here: a crashed compressor must not block compaction of
// its session for the whole TTL.
bool lease_is_stale(const std::string& holder, double expires_at, double now);

// FailedPrecondition message for a publish or renewal whose lease is gone.
std::string lease_lost_message(const std::string& session_id, const std::string& holder);

}  // namespace hermes::store
