#include "memory/number_format.hpp"

#include <algorithm>

namespace hermes::internal {

std::string with_thousands(std::size_t n) {
  const std::string digits = std::to_string(n);
  std::string out;
  out.reserve(digits.size() + digits.size() / 3);
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

int usage_percent(std::size_t current, std::size_t limit) {
  if (limit == 0) return 0;
  return std::min(
      100, static_cast<int>(static_cast<double>(current) / static_cast<double>(limit) * 100));
}

}  // namespace hermes::internal
