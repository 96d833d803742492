// Runs one row of the fault matrix in one wire format and checks its outcome: the
// recovery taken and the answer (or the failure), the transcript in the SQLite store,
// and the threads and descriptors of the process.
#pragma once

#include "faults/fault_case.hpp"

namespace hermes::testing {

// With `count_leaks` off the process's threads and descriptors are not compared (for
// the first cases of a process, which create what lives as long as the process).
void run_fault_case(const FaultCase& fault, Wire wire, bool stream, bool count_leaks = true);

}  // namespace hermes::testing
