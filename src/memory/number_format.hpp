// Numbers as the memory tool shows them to the model.
#pragma once

#include <cstddef>
#include <string>

namespace hermes::internal {

// 2200 -> "2,200".
std::string with_thousands(std::size_t n);

// min(100, floor(current / limit * 100)); 0 for a zero limit.
int usage_percent(std::size_t current, std::size_t limit);

}  // namespace hermes::internal
