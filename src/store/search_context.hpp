// The neighbours a search hit shows: the message before and the one after it in its
// session, their text cut short.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "hermes/session_store.hpp"
#include "store/message_codec.hpp"

namespace hermes::store {

// Characters of a neighbour's text a hit carries.
inline constexpr std::size_t kContextChars = 200;

// The neighbour row `row` (id `id`) as a hit shows it.
SearchContextMessage context_message(int64_t id, const MessageRow& row);

}  // namespace hermes::store
