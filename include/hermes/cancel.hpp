// hermes/cancel.hpp — cooperative cancellation shared between a caller and running work.
#pragma once

#include "hermes/export.hpp"

#include <chrono>
#include <memory>

namespace hermes {

// A CancelToken is a handle to a shared flag. Copies refer to the same flag. Work that
// can take long (HTTP transfers, retry sleeps, tools) polls it or waits on it, and stops
// promptly once it is cancelled.
//
// Thread-safety: every method may be called from any thread at any time.
class HERMES_API CancelToken {
 public:
  // A fresh token that is not cancelled.
  CancelToken();

  // Sets the flag and wakes every wait_for() in progress. Idempotent.
  void cancel() const;
  bool cancelled() const;

  // Sleeps up to `duration`; returns early, with true, as soon as the token is cancelled.
  bool wait_for(std::chrono::milliseconds duration) const;

  // A new token that is cancelled when this one is (but not the other way round). Used to
  // give a sub-task (one tool call, a sub-agent) a flag of its own.
  CancelToken child() const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace hermes
