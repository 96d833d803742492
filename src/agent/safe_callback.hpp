// Invoking host callbacks: an exception thrown by a callback is logged and swallowed, so
// a callback can never break a turn.
#pragma once

#include <exception>
#include <utility>

#include "safety/log.hpp"

namespace hermes::internal {

template <typename Fn, typename... Args>
void safe_callback(const char* what, const Fn& fn, Args&&... args) {
  if (!fn) return;
  try {
    fn(std::forward<Args>(args)...);
  } catch (const std::exception& e) {
    HERMES_LOG_WARN("{} callback threw: {}", what, e.what());
  } catch (...) {
    HERMES_LOG_WARN("{} callback threw a non-standard exception", what);
  }
}

}  // namespace hermes::internal
