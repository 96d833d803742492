// The parts of the built-in context table the resolution chain consults besides
// default_context_length (hermes/model_metadata.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace hermes::internal {

// Whether a cached window for `model` is a leftover from before the table knew the model:
// its best key was added after a shorter catch-all (or the fallback) already served it,
// and `cached` is no larger than what that catch-all gave.
bool stale_pre_catalog_entry(std::string_view model, int64_t cached);

// A window confirmed for one provider endpoint only (Kimi's coding plan serving "k3" at
// 1 Mi; NVIDIA NIM serving deepseek-v4-pro at 262,144), or nullopt.
std::optional<int64_t> endpoint_scoped_context_length(std::string_view model,
                                                      std::string_view base_url);

}  // namespace hermes::internal
