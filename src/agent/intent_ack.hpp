// Intent acknowledgement: a reply that announces work ("I'll look into the repo") and
// ends the turn without doing it; the loop then asks the model to do the work (at most
// twice a turn).
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "hermes/message.hpp"

namespace hermes::internal {

// True when `answer` (the visible text of a reply without tool calls) reads as an
// announcement of workspace work rather than an answer: short, a first-person future
// ("I'll", "let me"), an action ("inspect", "run", "search"...), and a workspace (a
// repo, files, a path) named by it or by `user_message`. Never true once a tool ran in
// this turn (`messages` from `turn_start` on): that model is working, not stalling.
bool looks_like_intent_ack(std::string_view user_message, std::string_view answer,
                           const std::vector<Message>& messages, std::size_t turn_start);

}  // namespace hermes::internal
