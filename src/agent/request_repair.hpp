// Repairs of a request the provider refused for something in it that can be changed: image
// bytes it cannot decode, or a reasoning setting the route does not accept. Each works on
// the copy about to be sent; the stored transcript is never touched.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hermes/message.hpp"

namespace hermes::internal {

// The text a tool result whose only content was images carries once they are removed.
inline constexpr std::string_view kImageRemovedPlaceholder =
    "[image content removed \xE2\x80\x94 server does not support images]";

// Removes every image part from `messages`. A tool result, or an assistant message with
// tool calls, left with no content gets kImageRemovedPlaceholder (its pairing must stay);
// any other message left empty is dropped. Returns whether any image was removed.
bool strip_request_images(std::vector<Message>& messages);

// The lowest reasoning level every wire format accepts ("minimal" is refused by some).
inline constexpr std::string_view kReasoningFloorEffort = "low";

// What a route said about reasoning settings, remembered for the rest of the session.
struct ReasoningRejections {
  bool disable_rejected = false;  // It refused reasoning turned off.
  bool floor_required = false;    // ...saying reasoning is required: send the floor level.
  bool effort_rejected = false;   // It refused the level itself: send no setting at all.
};

// True for an effort that turns reasoning off ("none", "off", "disabled", "false", "0").
bool disables_reasoning(std::string_view effort);

// The reasoning effort to send given the configured one and what the route rejected so
// far: "" (no setting) after a rejected level; after a rejected disable, the floor level
// when reasoning is required, else no setting; otherwise the configured effort.
std::string wire_reasoning_effort(const std::string& configured,
                                  const ReasoningRejections& rejected);

}  // namespace hermes::internal
