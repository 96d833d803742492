// How usage reports add up on a session row (upstream's "delta" mode): counters and cost
// are added; cost status and source take the newest value; the billing route and model
// are filled only while the session has none (the first route wins).
//
// The SQLite store does the same in one UPDATE statement (sqlite_store.cpp).
#pragma once

#include "hermes/session_store.hpp"

namespace hermes::store {

// Adds `delta` to `session`'s totals.
void apply_usage_delta(SessionInfo& session, const UsageDelta& delta);

// Sets session.usage.reported from the stored counters: a session that has seen any model
// call or token counts as reported.
void mark_usage_reported(SessionInfo& session);

}  // namespace hermes::store
