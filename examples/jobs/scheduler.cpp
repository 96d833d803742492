#include "scheduler.hpp"

#include <cstdio>

#include "job_runner.hpp"
#include "job_state.hpp"
#include "jobs_file.hpp"

namespace hermes_jobs {
namespace {

void say(const std::string& line) {
  std::fprintf(stderr, "hermes-jobs: %s\n", line.c_str());
}

// Takes the due slot of `job` and runs it. The slot is saved as taken before the run.
void run_slot(const Job& job, JobRecord& record, JobState& state, std::time_t now,
              const hermes::AgentOptions& base, TickReport& report) {
  const std::time_t slot = record.next_run;
  record.last_run = slot;
  record.next_run = job.schedule.next_after(now).value_or(0);
  record.last_status = "running";
  record.last_error.clear();
  std::string problem;
  if (!state.save(problem)) {
    say(problem + "; job \"" + job.id + "\" not run");
    ++report.problems;
    return;
  }
  say("running job \"" + job.id + "\" (slot " + iso_utc(slot) + ")");
  JobOutcome outcome = run_job(job, slot, base);
  record.last_status = outcome.completed ? "ok" : "failed";
  record.last_error = outcome.error;
  ++record.runs;
  ++report.ran;
  if (!outcome.completed) ++report.failed;
  say("job \"" + job.id + "\" " + (outcome.completed ? "completed" : "failed: " + outcome.error) +
      " -> " + outcome.output_path);
  if (!state.save(problem)) say(problem);
}

}  // namespace

TickReport run_due_jobs(const std::string& home, std::time_t now,
                        const hermes::AgentOptions& base) {
  TickReport report;
  JobsFile file = read_jobs_file(home + "/jobs.json");
  if (!file.found) say("no jobs file at " + home + "/jobs.json");
  for (const std::string& p : file.problems) say(p);
  report.problems += static_cast<int>(file.problems.size());
  std::string problem;
  JobState state = JobState::load(home, problem);
  if (!problem.empty()) say(problem);
  for (const Job& job : file.jobs) {
    JobRecord& record = state.at(job.id);
    if (record.schedule != job.schedule.text() || record.next_run == 0) {
      record.schedule = job.schedule.text();
      record.next_run = job.schedule.next_after(now).value_or(0);
      if (record.last_status.empty()) record.last_status = "scheduled";
      if (record.next_run == 0) say("job \"" + job.id + "\": the schedule never matches");
      if (!state.save(problem))
        say(problem);
      else
        say("job \"" + job.id + "\" scheduled for " + iso_utc(record.next_run));
    } else if (record.next_run <= now) {
      run_slot(job, record, state, now, base, report);
    }
    if (record.next_run != 0 && (report.next_wake == 0 || record.next_run < report.next_wake)) {
      report.next_wake = record.next_run;
    }
  }
  return report;
}

}  // namespace hermes_jobs
