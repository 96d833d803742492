#include "agent/request_repair.hpp"

#include "common/text_utils.hpp"
#include "context/message_parts.hpp"

namespace hermes::internal {

bool strip_request_images(std::vector<Message>& messages) {
  bool removed = false;
  std::vector<Message> kept;
  kept.reserve(messages.size());
  for (Message& message : messages) {
    if (!remove_image_parts(message)) {
      kept.push_back(std::move(message));
      continue;
    }
    removed = true;
    if (!message.parts.empty()) {
      kept.push_back(std::move(message));
    } else if (message.role == Role::kTool || !message.tool_calls.empty()) {
      set_text(message, std::string(kImageRemovedPlaceholder));
      kept.push_back(std::move(message));
    }
    // Any other message held only images: nothing is left to send.
  }
  messages = std::move(kept);
  return removed;
}

bool disables_reasoning(std::string_view effort) {
  const std::string level = lower_ascii(trim_ascii(effort));
  return level == "none" || level == "off" || level == "disabled" || level == "false" ||
         level == "0";
}

std::string wire_reasoning_effort(const std::string& configured,
                                  const ReasoningRejections& rejected) {
  if (rejected.effort_rejected) return "";
  if (rejected.disable_rejected && (is_blank(configured) || disables_reasoning(configured))) {
    return rejected.floor_required ? std::string(kReasoningFloorEffort) : "";
  }
  return configured;
}

}  // namespace hermes::internal
