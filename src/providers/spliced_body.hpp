// A request body written as dump_json would write it, with one member's value written
// by the caller in place (the messages, from their kept encodings): the JSON text of a
// long conversation is copied, not rebuilt.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "hermes/json.hpp"
#include "hermes/status.hpp"

namespace hermes::internal {

// `envelope` (an object without `key`) with `key` added at its sorted place, its value
// written by `write_value`. `reserve` is the expected size of the whole.
Result<std::string> write_spliced_body(const Json& envelope, std::string_view key,
                                       std::size_t reserve,
                                       const std::function<Status(std::string&)>& write_value);

}  // namespace hermes::internal
