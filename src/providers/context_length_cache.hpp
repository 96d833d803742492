// The raw side of the context length cache (hermes/model_metadata.hpp has the public
// side), for the resolution chain that checks, replaces and drops entries.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hermes::internal {

// The integer stored for model@base_url, whatever it is (zero and under-reports too).
std::optional<int64_t> stored_context_length(std::string_view model, std::string_view base_url,
                                             const std::string& home);

// Kimi and MiniMax servers have reported 32K for windows far larger.
bool is_known_underreport(std::string_view model, int64_t length);

// Removes the entry for model@base_url (every spelling of the key), if any.
void forget_context_length(std::string_view model, std::string_view base_url,
                           const std::string& home);

}  // namespace hermes::internal
