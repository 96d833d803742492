#include "schedule.hpp"

#include <array>
#include <cctype>
#include <cstdlib>
#include <sstream>
#include <vector>

namespace hermes_jobs {
namespace {

constexpr std::array<const char*, 12> kMonths = {"jan", "feb", "mar", "apr", "may", "jun",
                                                 "jul", "aug", "sep", "oct", "nov", "dec"};
constexpr std::array<const char*, 7> kWeekdays = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};

struct Field {
  const char* name;
  int low;
  int high;
};

// A number or (for months and weekdays) a three-letter name.
std::optional<int> value_of(std::string text, const Field& f) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (std::string(f.name) == "month") {
    for (std::size_t i = 0; i < kMonths.size(); ++i) {
      if (text == kMonths[i]) return static_cast<int>(i) + 1;
    }
  }
  if (std::string(f.name) == "day of week") {
    for (std::size_t i = 0; i < kWeekdays.size(); ++i) {
      if (text == kWeekdays[i]) return static_cast<int>(i);
    }
  }
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
      text.size() > 4) {
    return std::nullopt;
  }
  int n = std::atoi(text.c_str());
  if (n < f.low || n > f.high) return std::nullopt;
  return n;
}

// Parses one comma list item ("*", "*/n", "a", "a-b", "a-b/n", "a/n") into `out`.
bool parse_item(const std::string& item, const Field& f, std::vector<bool>& out) {
  std::string range = item;
  int step = 1;
  if (auto slash = item.find('/'); slash != std::string::npos) {
    range = item.substr(0, slash);
    const std::string s = item.substr(slash + 1);
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 4)
      return false;
    step = std::atoi(s.c_str());
    if (step < 1) return false;
  }
  int low = f.low;
  int high = f.high;
  if (range != "*") {
    auto dash = range.find('-');
    auto a = value_of(range.substr(0, dash), f);
    if (!a) return false;
    low = *a;
    high = item.find('/') != std::string::npos && dash == std::string::npos ? f.high : *a;
    if (dash != std::string::npos) {
      auto b = value_of(range.substr(dash + 1), f);
      if (!b || *b < *a) return false;
      high = *b;
    }
  }
  for (int v = low; v <= high; v += step) out[static_cast<std::size_t>(v)] = true;
  return true;
}

bool parse_field(const std::string& text, const Field& f, std::vector<bool>& out,
                 std::string& error) {
  out.assign(static_cast<std::size_t>(f.high) + 1, false);
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) {
    if (!parse_item(item, f, out)) {
      error = std::string("bad ") + f.name + " field \"" + text + "\" (allowed " +
              std::to_string(f.low) + "-" + std::to_string(f.high) + ")";
      return false;
    }
  }
  return true;
}

std::optional<long> parse_interval(const std::string& spec) {
  if (spec.size() < 2) return std::nullopt;
  const char unit = spec.back();
  const std::string number = spec.substr(0, spec.size() - 1);
  if (number.find_first_not_of("0123456789") != std::string::npos || number.size() > 6)
    return std::nullopt;
  long n = std::atol(number.c_str());
  long scale = unit == 'm' ? 60 : unit == 'h' ? 3600 : unit == 'd' ? 86400 : 0;
  if (n < 1 || scale == 0) return std::nullopt;
  return n * scale;
}

}  // namespace

std::optional<Schedule> Schedule::parse(const std::string& text, std::string& error) {
  Schedule s;
  s.text_ = text;
  std::stringstream ss(text);
  std::vector<std::string> words;
  for (std::string w; ss >> w;) words.push_back(w);
  if (words.size() == 2 && words[0] == "every") {
    auto seconds = parse_interval(words[1]);
    if (!seconds) {
      error = "bad interval \"" + words[1] + "\" (use e.g. 30m, 2h, 1d)";
      return std::nullopt;
    }
    s.interval_seconds_ = *seconds;
    return s;
  }
  if (words.size() != 5) {
    error = "\"" + text + "\" is neither a 5-field cron expression nor \"every <n>m|h|d\"";
    return std::nullopt;
  }
  const Field fields[5] = {{"minute", 0, 59},
                           {"hour", 0, 23},
                           {"day of month", 1, 31},
                           {"month", 1, 12},
                           {"day of week", 0, 7}};
  std::vector<bool> sets[5];
  for (int i = 0; i < 5; ++i) {
    if (!parse_field(words[static_cast<std::size_t>(i)], fields[i], sets[i], error))
      return std::nullopt;
  }
  for (std::size_t v = 0; v < 60; ++v) s.minutes_[v] = sets[0][v];
  for (std::size_t v = 0; v < 24; ++v) s.hours_[v] = sets[1][v];
  for (std::size_t v = 1; v <= 31; ++v) s.days_[v] = sets[2][v];
  for (std::size_t v = 1; v <= 12; ++v) s.months_[v] = sets[3][v];
  for (std::size_t v = 0; v < 7; ++v) s.weekdays_[v] = sets[4][v] || (v == 0 && sets[4][7]);
  s.days_restricted_ = words[2] != "*";
  s.weekdays_restricted_ = words[4] != "*";
  return s;
}

// cron(8): when both day fields are restricted, either one matching is enough.
bool Schedule::matches_day(const std::tm& tm) const {
  const bool dom = days_[static_cast<std::size_t>(tm.tm_mday)];
  const bool dow = weekdays_[static_cast<std::size_t>(tm.tm_wday)];
  if (days_restricted_ && weekdays_restricted_) return dom || dow;
  if (days_restricted_) return dom;
  if (weekdays_restricted_) return dow;
  return true;
}

std::optional<std::time_t> Schedule::next_after(std::time_t after) const {
  if (interval_seconds_ > 0) return after + interval_seconds_;
  std::tm tm{};
  std::time_t t = after - (after % 60) + 60;
  localtime_r(&t, &tm);
  // Five years of skipping covers every satisfiable expression (Feb 29 on a weekday).
  for (int guard = 0; guard < 5 * 366 * 24 * 60; ++guard) {
    tm.tm_isdst = -1;
    if (!months_[static_cast<std::size_t>(tm.tm_mon + 1)]) {
      tm.tm_mon += 1, tm.tm_mday = 1, tm.tm_hour = 0, tm.tm_min = 0;
    } else if (!matches_day(tm)) {
      tm.tm_mday += 1, tm.tm_hour = 0, tm.tm_min = 0;
    } else if (!hours_[static_cast<std::size_t>(tm.tm_hour)]) {
      tm.tm_hour += 1, tm.tm_min = 0;
    } else if (!minutes_[static_cast<std::size_t>(tm.tm_min)]) {
      tm.tm_min += 1;
    } else {
      return std::mktime(&tm);
    }
    std::time_t normalised = std::mktime(&tm);
    localtime_r(&normalised, &tm);
  }
  return std::nullopt;
}

}  // namespace hermes_jobs
