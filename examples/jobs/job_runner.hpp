// Runs one job in a fresh agent and appends its answer to the job's output file.
#pragma once

#include <ctime>
#include <string>

#include "hermes/hermes.hpp"
#include "jobs_file.hpp"

namespace hermes_jobs {

struct JobOutcome {
  bool completed = false;
  std::string error;        // Why it did not complete.
  std::string output_path;  // Where the answer went.
};

// `base` holds the model, endpoint, key and home every job starts from.
JobOutcome run_job(const Job& job, std::time_t slot, const hermes::AgentOptions& base);

}  // namespace hermes_jobs
