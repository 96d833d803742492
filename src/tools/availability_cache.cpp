#include "tools/availability_cache.hpp"

#include <algorithm>
#include <exception>

#include "safety/log.hpp"

namespace hermes::internal {
namespace {

bool run_probe(const ToolSpec& spec) {
  try {
    return spec.check_available();
  } catch (const std::exception& e) {
    HERMES_LOG_WARN("availability probe of tool '{}' threw: {}", spec.name, e.what());
  } catch (...) {
    HERMES_LOG_WARN("availability probe of tool '{}' threw", spec.name);
  }
  return false;
}

}  // namespace

bool AvailabilityCache::available(const ToolSpec& spec) {
  if (!spec.check_available) return true;
  if (spec.availability_ttl <= std::chrono::seconds::zero()) return run_probe(spec);
  Entry previous;
  {
    std::lock_guard lock(mu_);
    const Clock::time_point now = now_();
    if (auto it = entries_.find(spec.name); it != entries_.end() && it->second.spec == &spec) {
      if (now < it->second.expires) return it->second.available;
      previous = it->second;
    }
  }
  // The probe runs unlocked: it may be slow, and other tools' answers need not wait.
  const bool ok = run_probe(spec);
  std::lock_guard lock(mu_);
  const Clock::time_point now = now_();
  Entry entry = previous;
  entry.spec = &spec;
  if (ok) {
    entry.available = true;
    entry.expires = now + spec.availability_ttl;
    entry.last_success = now;
    entry.ever_succeeded = true;
  } else if (previous.ever_succeeded && now - previous.last_success < kFlakeGrace) {
    entry.available = true;
    entry.expires = now;  // Not remembered: the next call probes again.
  } else {
    entry.available = false;
    entry.expires = now + spec.availability_ttl;
  }
  if (entries_.count(spec.name) == 0) make_room(now);
  entries_[spec.name] = entry;
  return entry.available;
}

void AvailabilityCache::forget(const std::string& name) {
  std::lock_guard lock(mu_);
  entries_.erase(name);
}

void AvailabilityCache::make_room(Clock::time_point now) {
  if (entries_.size() < kMaxEntries) return;
  for (auto it = entries_.begin(); it != entries_.end();) {
    it = it->second.expires <= now ? entries_.erase(it) : std::next(it);
  }
  if (entries_.size() < kMaxEntries) return;
  entries_.erase(std::min_element(entries_.begin(), entries_.end(), [](const auto& a, const auto& b) {
    return a.second.expires < b.second.expires;
  }));
}

}  // namespace hermes::internal
