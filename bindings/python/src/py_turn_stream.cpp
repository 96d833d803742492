#include "py_turn_stream.hpp"

#include <chrono>
#include <utility>

#include "json_convert.hpp"
#include "py_common.hpp"

namespace py = pybind11;

namespace hermes::python {
namespace {

// How often a waiting iterator looks for Ctrl-C.
constexpr std::chrono::milliseconds kSignalPoll{100};

}  // namespace

TurnStream::TurnStream(std::shared_ptr<TurnEventQueue> queue, std::function<Json()> run_turn,
                       std::function<void()> interrupt)
    : queue_(std::move(queue)), interrupt_(std::move(interrupt)) {
  thread_ = std::thread([queue = queue_, state = state_, run_turn = std::move(run_turn)] {
    Json result = run_turn();
    {
      std::lock_guard<std::mutex> lock(state->mu);
      state->running = false;
    }
    queue->push({{"type", "done"}, {"result", std::move(result)}});
    queue->close();
  });
}

TurnStream::~TurnStream() {
  close();
}

py::object TurnStream::next() {
  Json event;
  while (!finished_) {
    TurnEventQueue::Wait got;
    {
      py::gil_scoped_release release;
      got = queue_->pop(event, kSignalPoll);
    }
    if (got == TurnEventQueue::Wait::kEvent) {
      if (event["type"] == "done") {
        finished_ = true;
        join();
      }
      return to_python(event);
    }
    if (got == TurnEventQueue::Wait::kClosed) finished_ = true;
    if (PyErr_CheckSignals() != 0) {
      py::error_already_set error;  // Usually KeyboardInterrupt: stop the turn, then raise.
      close();
      throw error;
    }
  }
  close();
  throw py::stop_iteration();
}

void TurnStream::close() {
  if (!thread_.joinable()) return;
  if (!finished_) {
    std::lock_guard<std::mutex> lock(state_->mu);
    if (state_->running) interrupt_();
  }
  finished_ = true;
  join();
}

void TurnStream::join() {
  if (!thread_.joinable()) return;
  py::gil_scoped_release release;  // The turn may be waiting for the GIL.
  thread_.join();
}

void register_turn_stream(py::module_& m) {
  py::class_<TurnStream>(m, "TurnStream", R"doc(
The events of one turn, from Agent.stream(). Iterate it:

    for event in agent.stream("Summarise README.md"):
        if event["type"] == "text":
            print(event["text"], end="", flush=True)
        elif event["type"] == "done":
            result = event["result"]

Events are dicts with a "type": "text" and "reasoning" (key "text": a delta), "tool"
(phase "started" or "completed", name, call_id, preview, arguments; completed also has
duration, is_error, result), "status" (kind, message), and last "done" (result: the
run_conversation() dict). Leaving the loop early (break, an exception, close())
interrupts the turn and waits for it to stop.)doc")
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &TurnStream::next)
      .def("close", &TurnStream::close,
           "Interrupts the turn if it still runs and waits for it to stop. Idempotent.")
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](TurnStream& s, const py::args&) { s.close(); });
}

}  // namespace hermes::python
