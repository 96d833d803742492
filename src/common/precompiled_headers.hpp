// The headers nearly every source file of the library includes, precompiled once per
// target (cmake/HermesPrecompiledHeaders.cmake). Sources still include what they use;
// this file only makes that cheaper.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
