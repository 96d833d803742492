// hermes.Runtime: the threads that run turns started with Agent.arun() and astream().
#pragma once

#include <pybind11/pybind11.h>

#include <memory>

#include "hermes/runtime.hpp"

namespace hermes::python {

class PyRuntime {
 public:
  explicit PyRuntime(std::unique_ptr<Runtime> runtime) : runtime_(std::move(runtime)) {}
  // Ends the runtime's turns and stops its threads, with the GIL released: the turns'
  // callbacks need it to finish.
  ~PyRuntime() { shut_down(); }
  PyRuntime(const PyRuntime&) = delete;
  PyRuntime& operator=(const PyRuntime&) = delete;

  // The runtime; raises hermes.HermesError once closed. A turn being started holds it, so
  // that close() on another thread cannot pull it away mid-start.
  std::shared_ptr<Runtime> get() const;
  // Interrupts the running turns, waits for them and stops the threads. Idempotent.
  // Raises for the shared runtime, which other code may be using.
  void close();
  void keep_open() { permanent_ = true; }

 private:
  void shut_down();

  std::shared_ptr<Runtime> runtime_;
  bool permanent_ = false;
};

// The hermes.Runtime a turn uses: `runtime`, or the shared one when it is None. Raises
// TypeError for anything else.
pybind11::object runtime_or_shared(const pybind11::object& runtime);

}  // namespace hermes::python
