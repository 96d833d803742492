// Python callables as an agent's callbacks. Each runs with the GIL taken on whatever
// thread the turn calls it from; an exception it raises is reported through
// sys.unraisablehook and never reaches the turn.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>

#include "hermes/callbacks.hpp"
#include "turn_events.hpp"

namespace hermes::python {

// The callables given to hermes.Agent; None where not given.
struct PythonCallbacks {
  pybind11::object stream;         // (delta: str)
  pybind11::object reasoning;      // (delta: str)
  pybind11::object tool_progress;  // (event: dict)
  pybind11::object status;         // (kind: str, message: str)
  pybind11::object step;           // (api_call_count: int, previous_tools: list[dict])
  pybind11::object clarify;        // (question: str, choices: list[str]) -> str | None
  pybind11::object approval;       // (command: str, description: str) -> "deny"|"once"|...
  pybind11::object auth_refresh;   // (request: dict) -> str | None
};

// The agent's callbacks: each calls its Python callable, if any, and also emits the
// matching event into `tap` (text, reasoning, tool and status events).
Callbacks make_callbacks(const PythonCallbacks& fns, std::shared_ptr<EventTap> tap);

}  // namespace hermes::python
