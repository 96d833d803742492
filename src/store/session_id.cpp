// Session ids: the local start time, readable in listings and sortable, plus random hex
// so two sessions started in the same second never collide.
#include <algorithm>
#include <ctime>
#include <random>

#include "hermes/session_store.hpp"

namespace hermes {

std::string new_session_id(int hex_digits) {
  constexpr int kMaxHexDigits = 32;
  hex_digits = std::clamp(hex_digits, 1, kMaxHexDigits);
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char stamp[32];
  const std::size_t length = std::strftime(stamp, sizeof stamp, "%Y%m%d_%H%M%S_", &local);

  thread_local std::mt19937_64 rng{std::random_device{}()};
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id(stamp, length);
  std::uniform_int_distribution<int> digit(0, 15);
  for (int i = 0; i < hex_digits; ++i) id += kHex[digit(rng)];
  return id;
}

}  // namespace hermes
