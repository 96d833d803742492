// hermes.TurnStream: one turn run on its own thread, its events read by a Python for
// loop. The loop thread waits with the GIL released; the turn takes the GIL only to call
// Python tools and callbacks.
#pragma once

#include <pybind11/pybind11.h>

#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "hermes/json.hpp"
#include "turn_events.hpp"

namespace hermes::python {

class TurnStream {
 public:
  // Starts `run_turn` on a new thread. It must return the turn's result dict (as Json)
  // and stop feeding `queue` by then; TurnStream adds the final "done" event.
  // `interrupt` stops the turn early (from the stream's owner thread).
  TurnStream(std::shared_ptr<TurnEventQueue> queue, std::function<Json()> run_turn,
             std::function<void()> interrupt);
  // Closes the stream: a stream dropped mid-turn interrupts the turn and waits for it.
  ~TurnStream();
  TurnStream(const TurnStream&) = delete;
  TurnStream& operator=(const TurnStream&) = delete;

  // The next event; raises StopIteration after "done". Checks for Ctrl-C while waiting.
  pybind11::object next();

  // Interrupts the turn if it is still running and waits for its thread to end.
  void close();

 private:
  void join();

  // Whether run_turn is still running, shared with the thread: an interrupt that arrives
  // after the turn would stay pending and cancel the agent's next turn.
  struct RunState {
    std::mutex mu;
    bool running = true;
  };

  std::shared_ptr<TurnEventQueue> queue_;
  std::function<void()> interrupt_;
  std::shared_ptr<RunState> state_ = std::make_shared<RunState>();
  std::thread thread_;
  bool finished_ = false;  // "done" was returned, or the stream was closed.
};

}  // namespace hermes::python
