// A turn started on a hermes.Runtime for Agent.arun() and Agent.astream(): it runs on a
// runtime thread without the GIL, and its text deltas and result reach the asyncio loop
// through loop.call_soon_threadsafe.
#pragma once

#include <pybind11/pybind11.h>

#include <functional>
#include <memory>
#include <string>

#include "hermes/agent.hpp"
#include "turn_events.hpp"

namespace hermes::python {

struct AsyncTurnRequest {
  Agent* agent = nullptr;
  std::string user_message;
  TurnOptions turn;
  // Kept alive until the loop has the result: the hermes.Agent and the hermes.Runtime.
  pybind11::object agent_object;
  pybind11::object runtime_object;
  // The asyncio loop; on_done(result, keepalive) is scheduled on it once, when the turn
  // ends (also when it fails or is interrupted). With on_text (not None) the turn's text
  // deltas are collected and on_text() is scheduled when new ones wait in take_text().
  pybind11::object loop;
  pybind11::object on_done;
  pybind11::object on_text;
  // The agent's event tap (its callbacks feed it); attached while streaming.
  std::shared_ptr<EventTap> tap;
  // Called on the runtime thread when the turn has ended, before on_done is scheduled.
  std::function<void()> turn_ended;
};

// Starts the turn (the GIL is released while it is handed to the runtime) and returns its
// hermes._native._AsyncTurn handle. Raises as raise_status() when the agent refuses;
// nothing is scheduled then and `turn_ended` is not called.
pybind11::object start_async_turn(AsyncTurnRequest request);

void register_async_turn(pybind11::module_& m);

}  // namespace hermes::python
