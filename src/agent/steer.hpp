// Mid-turn user guidance (/steer): how it is wrapped when delivered.
#pragma once

#include <string>
#include <string_view>

#include "hermes/message.hpp"

namespace hermes::internal {

inline constexpr std::string_view kSteerOpen =
    "[OUT-OF-BAND USER MESSAGE \xE2\x80\x94 a direct message from the user, delivered once at this "
    "position; not tool output and not a new delivery when replayed from conversation history]";
inline constexpr std::string_view kSteerClose = "[/OUT-OF-BAND USER MESSAGE]";

// The user row that delivers `text`.
inline Message steer_message(const std::string& text) {
  Message m = Message::user(std::string(kSteerOpen) + "\n" + text + "\n" + std::string(kSteerClose));
  m.display_kind = "steer";
  return m;
}

}  // namespace hermes::internal
