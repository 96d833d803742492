// The capabilities of a session store a test relies on: search_of(store).search(...) reads
// as the old one-interface call did, and a store without the capability fails the test
// (std::logic_error) instead of dereferencing nullptr.
#pragma once

#include <memory>
#include <stdexcept>

#include "hermes/session_store.hpp"

namespace hermes::testing {

inline SessionSearch& search_of(SessionStore& store) {
  SessionSearch* capability = store.search_capability();
  if (capability == nullptr) throw std::logic_error("the store has no search capability");
  return *capability;
}

inline SessionCompaction& compaction_of(SessionStore& store) {
  SessionCompaction* capability = store.compaction_capability();
  if (capability == nullptr) throw std::logic_error("the store has no compaction capability");
  return *capability;
}

inline SessionRoutes& routes_of(SessionStore& store) {
  SessionRoutes* capability = store.routes_capability();
  if (capability == nullptr) throw std::logic_error("the store has no routes capability");
  return *capability;
}

template <typename Store>
SessionSearch& search_of(const std::shared_ptr<Store>& store) {
  return search_of(static_cast<SessionStore&>(*store));
}

template <typename Store>
SessionCompaction& compaction_of(const std::shared_ptr<Store>& store) {
  return compaction_of(static_cast<SessionStore&>(*store));
}

template <typename Store>
SessionRoutes& routes_of(const std::shared_ptr<Store>& store) {
  return routes_of(static_cast<SessionStore&>(*store));
}

}  // namespace hermes::testing
