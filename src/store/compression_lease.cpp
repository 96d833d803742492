#include "store/compression_lease.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <climits>
#include <random>
#include <string_view>

#include "hermes/session_store.hpp"

namespace hermes::store {
namespace {

// The value of "<key>=<value>" in a colon-separated holder string, or empty.
std::string_view holder_field(std::string_view holder, std::string_view key) {
  std::size_t start = 0;
  while (start <= holder.size()) {
    std::size_t end = holder.find(':', start);
    if (end == std::string_view::npos) end = holder.size();
    const std::string_view part = holder.substr(start, end - start);
    if (part.size() > key.size() && part.substr(0, key.size()) == key && part[key.size()] == '=') {
      return part.substr(key.size() + 1);
    }
    start = end + 1;
  }
  return {};
}

std::string host_name() {
  char name[HOST_NAME_MAX + 1] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "localhost";
  return name;
}

bool process_is_gone(std::string_view pid_text) {
  long pid = 0;
  const auto [end, ec] = std::from_chars(pid_text.data(), pid_text.data() + pid_text.size(), pid);
  if (ec != std::errc() || end != pid_text.data() + pid_text.size() || pid <= 0) return false;
  return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

}  // namespace

bool lease_is_stale(const std::string& holder, double expires_at, double now) {
  if (expires_at <= now) return true;
  const std::string_view host = holder_field(holder, "host");
  if (!host.empty() && host != host_name()) return false;  // Another machine's pids.
  const std::string_view pid = holder_field(holder, "pid");
  return !pid.empty() && process_is_gone(pid);
}

std::string lease_lost_message(const std::string& session_id, const std::string& holder) {
  return "the compression lease on session '" + session_id + "' is no longer held by '" + holder +
         "' (it expired and was taken over); not publishing";
}

}  // namespace hermes::store

namespace hermes {

std::string compression_lease_holder() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  static constexpr char kHex[] = "0123456789abcdef";
  std::string nonce;
  uint64_t bits = rng();
  for (int i = 0; i < 8; ++i, bits >>= 4) nonce += kHex[bits & 0xF];
  return "host=" + store::host_name() + ":pid=" + std::to_string(::getpid()) + ":" + nonce;
}

}  // namespace hermes
