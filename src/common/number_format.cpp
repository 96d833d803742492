#include "common/number_format.hpp"

#include <algorithm>

namespace hermes::internal {

std::string with_thousands(int64_t value) {
  // In unsigned arithmetic the magnitude of INT64_MIN is representable too.
  const uint64_t magnitude =
      value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  const std::string digits = std::to_string(magnitude);
  std::string out = value < 0 ? "-" : "";
  out.reserve(out.size() + digits.size() + digits.size() / 3);
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
