#include "job_state.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "hermes/json.hpp"

namespace hermes_jobs {
namespace {

using hermes::Json;

JobRecord record_from(const Json& j) {
  JobRecord r;
  r.schedule = j.value("schedule", "");
  r.next_run = j.value("next_run", static_cast<std::time_t>(0));
  r.last_run = j.value("last_run", static_cast<std::time_t>(0));
  r.last_status = j.value("last_status", "");
  r.last_error = j.value("last_error", "");
  r.runs = j.value("runs", 0L);
  return r;
}

Json record_to(const JobRecord& r) {
  Json j{{"schedule", r.schedule},
         {"next_run", r.next_run},
         {"next_run_at", iso_utc(r.next_run)},
         {"last_status", r.last_status},
         {"runs", r.runs}};
  if (r.last_run != 0) {
    j["last_run"] = r.last_run;
    j["last_run_at"] = iso_utc(r.last_run);
  }
  if (!r.last_error.empty()) j["last_error"] = r.last_error;
  return j;
}

}  // namespace

std::string iso_utc(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::optional<std::time_t> parse_time(const std::string& text) {
  if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos &&
      text.size() < 13) {
    return static_cast<std::time_t>(std::stoll(text));
  }
  std::tm tm{};
  int sec = 0;
  char zone = 0;
  int n = std::sscanf(text.c_str(), "%d-%d-%dT%d:%d:%d%c", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                      &tm.tm_hour, &tm.tm_min, &sec, &zone);
  if (n < 5) return std::nullopt;
  if (n == 5 && text.back() != 'Z') return std::nullopt;
  if (n >= 6) tm.tm_sec = sec;
  if (n == 7 && zone != 'Z') return std::nullopt;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return timegm(&tm);
}

JobState JobState::load(const std::string& home, std::string& problem) {
  JobState state;
  state.path_ = home + "/jobs_state.json";
  std::ifstream in(state.path_, std::ios::binary);
  if (!in) return state;
  std::ostringstream text;
  text << in.rdbuf();
  Json root = Json::parse(text.str(), nullptr, false);
  if (root.is_discarded() || !root.is_object() || !root.contains("jobs") ||
      !root["jobs"].is_object()) {
    problem = state.path_ + " is corrupt; the schedules start afresh";
    return state;
  }
  try {
    for (const auto& item : root["jobs"].items())
      state.records_[item.key()] = record_from(item.value());
  } catch (const Json::exception&) {
    problem = state.path_ + " has a record of the wrong shape; the schedules start afresh";
    state.records_.clear();
  }
  return state;
}

JobRecord* JobState::find(const std::string& id) {
  auto it = records_.find(id);
  return it == records_.end() ? nullptr : &it->second;
}

bool JobState::save(std::string& problem) const {
  Json jobs = Json::object();
  for (const auto& [id, r] : records_) jobs[id] = record_to(r);
  const std::string text = Json{{"jobs", jobs}}.dump(2) + "\n";
  const std::string tmp = path_ + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  bool ok = fd >= 0 && ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) &&
            ::fsync(fd) == 0;
  if (fd >= 0) ::close(fd);
  ok = ok && std::rename(tmp.c_str(), path_.c_str()) == 0;
  if (!ok) problem = "cannot write " + path_;
  return ok;
}

SchedulerLock::SchedulerLock(const std::string& home) {
  fd_ = ::open((home + "/jobs_state.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd_ >= 0 && flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

SchedulerLock::~SchedulerLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace hermes_jobs
