// The scheduler: which jobs are due at a given time, taking each slot exactly once.
#pragma once

#include <ctime>
#include <string>

#include "hermes/hermes.hpp"

namespace hermes_jobs {

struct TickReport {
  int ran = 0;
  int failed = 0;
  int problems = 0;           // Malformed jobs, unwritable state.
  std::time_t next_wake = 0;  // The earliest next_run of any job (0: none).
};

// Reads <home>/jobs.json and the state, schedules jobs seen for the first time (or whose
// schedule changed) from `now`, and runs each job whose next run is at or before `now`.
// Messages go to stderr.
TickReport run_due_jobs(const std::string& home, std::time_t now, const hermes::AgentOptions& base);

}  // namespace hermes_jobs
