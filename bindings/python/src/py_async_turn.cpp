#include "py_async_turn.hpp"

#include <atomic>
#include <chrono>
#include <mutex>
#include <utility>
#include <vector>

#include "json_convert.hpp"
#include "py_common.hpp"
#include "py_runtime.hpp"

namespace py = pybind11;

namespace hermes::python {
namespace {

// What the turn's completion, its text notifier and the Python handle share. The Python
// objects are only touched with the GIL held.
struct AsyncTurnState {
  ~AsyncTurnState() {
    if (!Py_IsInitialized()) {
      for (py::object* o : objects()) o->release();  // The interpreter took them with it.
      return;
    }
    py::gil_scoped_acquire gil;
    drop_objects();
  }

  std::vector<py::object*> objects() {
    return {&agent_object, &runtime_object, &loop, &on_done, &on_text};
  }
  void drop_objects() {
    for (py::object* o : objects()) *o = py::object();
  }

  Agent* agent = nullptr;
  std::shared_ptr<TurnEventQueue> events;  // Null unless streaming.
  std::shared_ptr<EventTap> tap;
  std::function<void()> turn_ended;
  std::atomic<bool> wake_pending{false};  // on_text is scheduled and has not run yet.

  std::mutex mu;
  bool running = true;  // Guarded by mu: an interrupt after the end would hit the next turn.

  py::object agent_object, runtime_object, loop, on_done, on_text;
};

// A new text delta waits: schedules on_text, unless a call is already pending (it will
// take this delta too). Runs on the runtime thread.
void notify_text(const std::weak_ptr<AsyncTurnState>& weak) {
  std::shared_ptr<AsyncTurnState> state = weak.lock();
  if (!state || state->wake_pending.exchange(true)) return;
  run_guarded("hermes astream", [&] {
    if (state->on_text) state->loop.attr("call_soon_threadsafe")(state->on_text);
  });
}

// Hands the result to the loop. The state's references go to the loop with it (in the
// keepalive argument), so that the last reference to the agent or the runtime is never
// dropped on a runtime thread, where destroying either would wait for itself. Runs on the
// runtime thread with the GIL held.
void deliver(AsyncTurnState& state, const Json& result) {
  bool delivered = false;
  try {
    py::tuple keepalive = py::make_tuple(state.agent_object, state.runtime_object);
    state.loop.attr("call_soon_threadsafe")(state.on_done, to_python(result), keepalive);
    delivered = true;
  } catch (py::error_already_set& e) {
    e.discard_as_unraisable("hermes: delivering the result of an async turn");
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
    py::error_already_set().discard_as_unraisable("hermes: delivering the result of an async turn");
  }
  if (delivered) {
    state.drop_objects();
  } else {
    // The loop is closed: nobody waits any more. Leaking beats destroying the agent here.
    for (py::object* o : state.objects()) o->release();
  }
}

void turn_done(const std::shared_ptr<AsyncTurnState>& state, const ConversationResult& result) {
  Json json;
  try {
    json = result.to_json();
  } catch (const std::exception& e) {
    json = {{"completed", false},
            {"failed", true},
            {"error", std::string("internal error: ") + e.what()}};
  }
  if (state->events) state->tap->detach();
  {
    std::lock_guard<std::mutex> lock(state->mu);
    state->running = false;
  }
  if (state->turn_ended) state->turn_ended();
  py::gil_scoped_acquire gil;
  deliver(*state, json);
}

// The Python handle of one turn (hermes._native._AsyncTurn).
class AsyncTurn {
 public:
  explicit AsyncTurn(std::shared_ptr<AsyncTurnState> state) : state_(std::move(state)) {}

  // The text deltas that arrived since the last call, in order.
  py::list take_text() {
    py::list out;
    if (!state_->events) return out;
    state_->wake_pending = false;  // Before taking: a delta pushed from now on wakes again.
    Json event;
    while (state_->events->pop(event, std::chrono::milliseconds(0)) ==
           TurnEventQueue::Wait::kEvent) {
      if (event["type"] == "text") out.append(py::str(event["text"].get<std::string>()));
    }
    return out;
  }

  // Interrupts the turn if it still runs; a no-op once it ended.
  void interrupt() {
    std::lock_guard<std::mutex> lock(state_->mu);
    if (state_->running) state_->agent->interrupt("");
  }

  bool running() {
    std::lock_guard<std::mutex> lock(state_->mu);
    return state_->running;
  }

 private:
  std::shared_ptr<AsyncTurnState> state_;
};

}  // namespace

py::object start_async_turn(AsyncTurnRequest request) {
  auto state = std::make_shared<AsyncTurnState>();
  state->agent = request.agent;
  state->tap = std::move(request.tap);
  state->turn_ended = std::move(request.turn_ended);
  state->agent_object = std::move(request.agent_object);
  state->runtime_object = std::move(request.runtime_object);
  state->loop = std::move(request.loop);
  state->on_done = std::move(request.on_done);
  if (!request.on_text.is_none()) {
    state->on_text = std::move(request.on_text);
    std::weak_ptr<AsyncTurnState> weak = state;
    state->events = std::make_shared<TurnEventQueue>([weak] { notify_text(weak); });
  }
  std::shared_ptr<Runtime> runtime = state->runtime_object.cast<PyRuntime&>().get();
  py::object handle = py::cast(AsyncTurn(state));
  if (state->events) state->tap->attach(state->events);
  Status started = [&] {
    py::gil_scoped_release release;
    return request.agent->run_conversation_async(
        *runtime, request.user_message, std::move(request.turn),
        [state](ConversationResult result) { turn_done(state, result); });
  }();
  if (!started.ok()) {
    if (state->events) state->tap->detach();
    raise_status(started);
  }
  return handle;
}

void register_async_turn(py::module_& m) {
  py::class_<AsyncTurn>(m, "_AsyncTurn",
                        "One turn started by Agent.arun() or Agent.astream() (internal).")
      .def("take_text", &AsyncTurn::take_text,
           "The text deltas that arrived since the last call, in order.")
      .def("interrupt", &AsyncTurn::interrupt,
           "Interrupts the turn if it still runs; a no-op once it ended.")
      .def_property_readonly("running", &AsyncTurn::running, "Whether the turn still runs.");
}

}  // namespace hermes::python
