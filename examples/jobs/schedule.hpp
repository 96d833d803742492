// When a scheduled job runs: cron syntax ("*/5 * * * *", in local time, as cron(8)) or a
// fixed interval ("every 30m", "every 2h", "every 1d"; at least one minute).
#pragma once

#include <bitset>
#include <ctime>
#include <optional>
#include <string>

namespace hermes_jobs {

class Schedule {
 public:
  // Parses `text`; on failure returns nullopt and sets `error` to what is wrong.
  static std::optional<Schedule> parse(const std::string& text, std::string& error);

  // The first run time strictly after `after` (whole minutes for cron). For an interval,
  // `after` plus the interval. nullopt when a cron expression never matches (Feb 30).
  std::optional<std::time_t> next_after(std::time_t after) const;

  const std::string& text() const { return text_; }

 private:
  bool matches_day(const std::tm& tm) const;

  std::string text_;
  long interval_seconds_ = 0;  // > 0 for "every ..."
  std::bitset<60> minutes_;
  std::bitset<24> hours_;
  std::bitset<32> days_;     // 1..31
  std::bitset<13> months_;   // 1..12
  std::bitset<7> weekdays_;  // 0 = Sunday
  bool days_restricted_ = false;
  bool weekdays_restricted_ = false;
};

}  // namespace hermes_jobs
