// <home>/jobs.json: the scheduled jobs.
//
//   {"jobs": [{"id": "morning-brief", "prompt": "Summarise ...", "schedule": "0 8 * * 1-5",
//              "skills": ["news"], "toolsets": ["safe"], "output": "briefs.md",
//              "model": "...", "enabled": true, "max_iterations": 30}]}
//
// A job with a missing or malformed key is reported (naming the job and the key) and
// left out; the valid jobs still run.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "schedule.hpp"

namespace hermes_jobs {

struct Job {
  std::string id;
  std::string prompt;
  Schedule schedule;
  std::vector<std::string> skills;
  std::vector<std::string> toolsets;  // Empty: the agent's defaults.
  std::string output;                 // Absolute, or relative to <home>/jobs/output.
  std::string model;                  // Empty: the runner's model.
  int max_iterations = 0;             // 0: the agent's default.
};

struct JobsFile {
  std::vector<Job> jobs;
  std::vector<std::string> problems;
  bool found = true;
};

JobsFile read_jobs_file(const std::string& path);

}  // namespace hermes_jobs
