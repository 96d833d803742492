#include "py_runtime.hpp"

#include <limits>

#include "py_common.hpp"

namespace py = pybind11;

namespace hermes::python {
namespace {

// The agent's Python callbacks (stream, status, approval, hooks) and the result's
// conversion run on the turn's own stack, whose depth CPython does not check: four times
// the C++ default. Only the pages a turn touches are committed.
constexpr long long kPythonStackBytes = 4LL << 20;

std::unique_ptr<PyRuntime> make_runtime(long long io_threads, long long tool_workers,
                                        long long stack_bytes) {
  // Out of int range is out of range: Runtime::create names the option.
  auto clamp = [](long long n) {
    return static_cast<int>(std::max<long long>(std::min<long long>(n, 1LL << 30), -1));
  };
  RuntimeOptions options;
  options.io_threads = clamp(io_threads);
  options.tool_workers = clamp(tool_workers);
  if (stack_bytes < 0) raise_status(Status::invalid_argument("stack_bytes: must not be negative"));
  options.stack_bytes = static_cast<std::size_t>(stack_bytes);
  Result<std::unique_ptr<Runtime>> runtime = Runtime::create(options);
  if (!runtime.ok()) raise_status(runtime.status());
  return std::make_unique<PyRuntime>(std::move(*runtime));
}

// The runtime of turns started without one. Created on first use and never destroyed:
// at interpreter exit its idle threads simply stop with the process, where destroying it
// would wait for turns that need the GIL of a finalising interpreter.
py::object shared_runtime() {
  static py::object* shared = nullptr;  // Guarded by the GIL.
  if (shared == nullptr) {
    std::unique_ptr<PyRuntime> runtime = make_runtime(1, 16, kPythonStackBytes);
    runtime->keep_open();
    shared = new py::object(py::cast(std::move(runtime)));
  }
  return *shared;
}

py::dict stats_to_python(const PyRuntime& runtime) {
  const RuntimeStats stats = runtime.get()->stats();
  py::dict d;
  d["turns_running"] = stats.turns_running;
  d["transfers"] = stats.transfers;
  d["tool_jobs"] = stats.tool_jobs;
  d["turns_started"] = stats.turns_started;
  return d;
}

constexpr const char* kRuntimeDoc = R"doc(
Threads that run many agents' turns at once: Agent.arun() and Agent.astream() run their
turn on a runtime. A turn runs on one of the runtime's I/O threads, which multiplexes the
model calls of all its turns; tool handlers run on a pool of worker threads.

    runtime = hermes.Runtime(io_threads=1, tool_workers=16)
    results = await asyncio.gather(*(a.arun("Hello?", runtime=runtime) for a in agents))

io_threads: 1 to 4 (one drives hundreds of conversations); tool_workers: 1 to 1024;
stack_bytes: the address space each running turn reserves (65536 to 67108864; 4 MiB by
default, as Python callbacks run on it; pages are committed as they are used). A value
out of range raises hermes.InvalidArgumentError naming it. Without a runtime, arun() and
astream() use Runtime.shared(). Streaming and tool callbacks of the agents, and Python
tool handlers, run on the runtime's threads: keep them short.

close() (or leaving a `with` block) interrupts the turns still running, waits for them and
stops the threads; a turn keeps its runtime alive until it ends, so dropping the last
reference does not end it. Safe to use from any thread; never close a runtime from one of
its callbacks.)doc";

}  // namespace

std::shared_ptr<Runtime> PyRuntime::get() const {
  std::shared_ptr<Runtime> runtime = runtime_;
  if (!runtime) raise_status(Status::failed_precondition("the runtime is closed"));
  return runtime;
}

void PyRuntime::close() {
  if (permanent_) raise_status(Status::failed_precondition("the shared runtime cannot be closed"));
  shut_down();
}

void PyRuntime::shut_down() {
  std::shared_ptr<Runtime> doomed = std::move(runtime_);
  runtime_.reset();
  if (!doomed) return;
  py::gil_scoped_release release;
  doomed.reset();
}

py::object runtime_or_shared(const py::object& runtime) {
  if (runtime.is_none()) return shared_runtime();
  if (!py::isinstance<PyRuntime>(runtime)) throw py::type_error("runtime must be a hermes.Runtime");
  return runtime;
}

void register_runtime(py::module_& m) {
  py::class_<PyRuntime>(m, "Runtime", kRuntimeDoc)
      .def(py::init(&make_runtime), py::kw_only(), py::arg("io_threads") = 1,
           py::arg("tool_workers") = 16, py::arg("stack_bytes") = kPythonStackBytes)
      .def_static("shared", &shared_runtime,
                  "The runtime of arun() and astream() calls given none: one I/O thread and 16 "
                  "tool workers, created on first use and kept until the process exits (close() "
                  "on it is refused).")
      .def("stats", &stats_to_python,
           "What the runtime is doing: a dict of turns_running, transfers (HTTP transfers in "
           "flight), tool_jobs (tool work queued or running) and turns_started (since it was "
           "created).")
      .def_property_readonly(
          "io_threads", [](const PyRuntime& r) { return r.get()->options().io_threads; },
          "Threads that run turns.")
      .def_property_readonly(
          "tool_workers", [](const PyRuntime& r) { return r.get()->options().tool_workers; },
          "Threads that run tool handlers.")
      .def("close", &PyRuntime::close,
           "Interrupts the turns still running, waits for them and stops the threads. "
           "Idempotent; the runtime cannot be used afterwards.")
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](PyRuntime& r, const py::args&) { r.close(); });
}

}  // namespace hermes::python
