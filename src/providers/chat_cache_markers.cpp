#include "providers/chat_cache_markers.hpp"

#include <cstddef>
#include <vector>

namespace hermes::internal {

void strip_cache_markers(Json& message) {
  message.erase("cache_control");
  Json& content = message["content"];
  if (!content.is_array()) return;
  for (Json& part : content) {
    if (part.is_object()) part.erase("cache_control");
  }
}

bool can_carry_cache_marker(const Json& message) {
  auto it = message.find("content");
  if (it == message.end()) return false;
  if (it->is_string()) return !it->get_ref<const std::string&>().empty();
  return it->is_array() && !it->empty() && it->back().is_object();
}

void add_cache_marker(Json& message) {
  Json& content = message["content"];
  const Json marker = {{"type", "ephemeral"}};
  if (content.is_string()) {
    content = Json::array(
        {{{"type", "text"}, {"text", content.get<std::string>()}, {"cache_control", marker}}});
  } else {
    content.back()["cache_control"] = marker;
  }
}

void apply_envelope_cache_markers(Json& messages) {
  if (!messages.is_array() || messages.empty()) return;
  for (Json& message : messages) {
    if (message.is_object() && message.contains("content")) strip_cache_markers(message);
  }
  std::size_t first_other = 0;
  const Json& head = messages.front();
  if (head.is_object() &&
      (head.value("role", "") == "system" || head.value("role", "") == "developer")) {
    if (can_carry_cache_marker(head)) add_cache_marker(messages.front());
    first_other = 1;
  }
  std::vector<std::size_t> marked;
  for (std::size_t i = messages.size();
       i-- > first_other && marked.size() < kCacheMarkedTailMessages;) {
    if (messages[i].is_object() && can_carry_cache_marker(messages[i])) marked.push_back(i);
  }
  for (std::size_t i : marked) add_cache_marker(messages[i]);
}

}  // namespace hermes::internal
