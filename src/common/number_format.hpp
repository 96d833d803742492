// Numbers as hermes writes them for the model and for people.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace hermes::internal {

// 2200 -> "2,200"; -1234567 -> "-1,234,567".
std::string with_thousands(int64_t value);

// min(100, floor(current / limit * 100)); 0 for a zero limit.
int usage_percent(std::size_t current, std::size_t limit);

}  // namespace hermes::internal
