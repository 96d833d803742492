#include "providers/retry_policy.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <utility>

#include "common/text_utils.hpp"

namespace hermes::internal {
namespace {

std::atomic<uint64_t> g_backoff_calls{0};

// Uniform in [0, 1), from a generator seeded per call.
double fresh_uniform() {
  const uint64_t now =
      static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count());
  const uint64_t call = g_backoff_calls.fetch_add(1, std::memory_order_relaxed) + 1;
  std::mt19937_64 generator(now ^ (call * 0x9E3779B9ULL));
  return std::uniform_real_distribution<double>(0.0, 1.0)(generator);
}

// The seconds a unit stands for, and how many characters of `text` at `pos` it takes.
std::pair<double, std::size_t> unit_at(const std::string& text, std::size_t pos) {
  struct Unit {
    std::string_view name;
    double seconds;
  };
  // Longer names first, so "ms" is not read as minutes.
  static constexpr Unit kUnits[] = {{"milliseconds", 0.001},
                                    {"millisecond", 0.001},
                                    {"ms", 0.001},
                                    {"seconds", 1},
                                    {"second", 1},
                                    {"secs", 1},
                                    {"sec", 1},
                                    {"s", 1},
                                    {"minutes", 60},
                                    {"minute", 60},
                                    {"min", 60},
                                    {"m", 60},
                                    {"h", 3600}};
  for (const Unit& unit : kUnits) {
    if (text.compare(pos, unit.name.size(), unit.name) == 0)
      return {unit.seconds, unit.name.size()};
  }
  return {1.0, 0};  // A bare number means seconds.
}

// Parses a duration such as "1.146s", "84ms", "20 seconds" or "1m30s" at `pos`.
std::optional<double> duration_at(const std::string& text, std::size_t pos) {
  while (pos < text.size() && text[pos] == ' ') ++pos;
  double total = 0;
  bool any = false;
  while (pos < text.size() && is_ascii_digit(text[pos])) {
    std::size_t end = pos;
    while (end < text.size() && (is_ascii_digit(text[end]) || text[end] == '.')) ++end;
    double value = 0;
    std::from_chars(text.data() + pos, text.data() + end, value);  // Locale-independent.
    while (end < text.size() && text[end] == ' ') ++end;
    const auto [seconds, length] = unit_at(text, end);
    total += value * seconds;
    any = true;
    pos = end + length;
  }
  if (!any || !std::isfinite(total)) return std::nullopt;
  return total;
}

}  // namespace

std::chrono::milliseconds jittered_backoff(int attempt, std::chrono::milliseconds base,
                                           std::chrono::milliseconds max) {
  const int exponent = std::clamp(attempt, 1, 63) - 1;
  const double ceiling = static_cast<double>(max.count());
  const double delay =
      std::min(static_cast<double>(base.count()) * std::ldexp(1.0, exponent), ceiling);
  const double jitter = fresh_uniform() * 0.5 * delay;
  return std::chrono::milliseconds(static_cast<int64_t>(delay + jitter));
}

std::chrono::milliseconds retry_after_delay(double seconds) {
  if (!std::isfinite(seconds) || seconds <= 0) return std::chrono::milliseconds(0);
  const double capped = std::min(seconds, static_cast<double>(kMaxRetryAfter.count()));
  return std::chrono::milliseconds(static_cast<int64_t>(std::llround(capped * 1000.0)));
}

std::optional<double> retry_hint_from_message(std::string_view message) {
  const std::string text = lower_ascii(message);
  for (std::string_view phrase : {"try again in", "retry after", "retry in"}) {
    const std::size_t at = text.find(phrase);
    if (at == std::string::npos) continue;
    if (auto seconds = duration_at(text, at + phrase.size())) return seconds;
  }
  return std::nullopt;
}

}  // namespace hermes::internal
