// JobState: when each job last ran and next runs, kept in <home>/jobs_state.json.
//
// The file is replaced atomically (write a temporary file, fsync, rename), and a slot is
// recorded as taken *before* its job runs: a crash or a restart can lose a run, but can
// never run one slot twice. An exclusive lock on <home>/jobs_state.lock keeps two
// schedulers on one home from racing.
#pragma once

#include <ctime>
#include <map>
#include <optional>
#include <string>

namespace hermes_jobs {

struct JobRecord {
  std::string schedule;  // The schedule next_run was computed from.
  std::time_t next_run = 0;
  std::time_t last_run = 0;  // The slot last taken (0: never).
  std::string last_status;   // "running", "ok", "failed".
  std::string last_error;
  long runs = 0;
};

class JobState {
 public:
  // Loads the state of `home`; a missing file is an empty state. A corrupt file is
  // reported in `problem` and treated as empty.
  static JobState load(const std::string& home, std::string& problem);

  JobRecord* find(const std::string& id);
  JobRecord& at(const std::string& id) { return records_[id]; }

  // Writes the file atomically; false (with `problem`) when it could not be written.
  bool save(std::string& problem) const;

 private:
  std::string path_;
  std::map<std::string, JobRecord> records_;
};

// Holds the scheduler lock of `home` while alive.
class SchedulerLock {
 public:
  explicit SchedulerLock(const std::string& home);
  ~SchedulerLock();
  SchedulerLock(const SchedulerLock&) = delete;
  SchedulerLock& operator=(const SchedulerLock&) = delete;
  bool held() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// "2024-05-01T10:00:00Z".
std::string iso_utc(std::time_t t);
// Parses "2024-05-01T10:00:00Z", "2024-05-01T10:00Z" or seconds since the epoch.
std::optional<std::time_t> parse_time(const std::string& text);

}  // namespace hermes_jobs
