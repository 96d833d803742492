#include "context/message_parts.hpp"

#include "common/json_text.hpp"
#include "context/text_cut.hpp"

namespace hermes::internal {
namespace {

Json text_part(std::string_view text) {
  return Json{{"type", "text"}, {"text", std::string(text)}};
}

// Message::content for a list of parts: the text parts joined by newlines.
void refresh_text(Message& message) {
  std::string text;
  for (const auto& part : message.parts) {
    if (!part.is_object()) continue;
    auto t = part.find("text");
    if (t == part.end() || !t->is_string()) continue;
    if (!text.empty()) text += "\n";
    text += t->get_ref<const std::string&>();
  }
  message.content = std::move(text);
}

}  // namespace

bool is_image_part(const Json& part) {
  if (!part.is_object()) return false;
  const std::string type = string_member(part, "type");
  return type == "image_url" || type == "input_image" || type == "image";
}

bool has_image_parts(const Message& message) {
  if (!message.parts.is_array()) return false;
  for (const auto& part : message.parts) {
    if (is_image_part(part)) return true;
  }
  return false;
}

bool replace_image_parts(Message& message, std::string_view placeholder) {
  if (!has_image_parts(message)) return false;
  for (auto& part : message.parts) {
    if (is_image_part(part)) part = text_part(placeholder);
  }
  refresh_text(message);
  return true;
}

bool remove_image_parts(Message& message) {
  if (!has_image_parts(message)) return false;
  Json kept = Json::array();
  for (auto& part : message.parts) {
    if (!is_image_part(part)) kept.push_back(std::move(part));
  }
  message.parts = std::move(kept);
  refresh_text(message);
  return true;
}

void append_text(Message& message, std::string_view text) {
  if (message.parts.is_array()) {
    message.parts.push_back(text_part(text));
    refresh_text(message);
    return;
  }
  message.content += text;
}

void prepend_text(Message& message, std::string_view text) {
  if (message.parts.is_array()) {
    message.parts.insert(message.parts.begin(), text_part(text));
    refresh_text(message);
    return;
  }
  message.content.insert(0, text);
}

void set_text(Message& message, std::string text) {
  message.parts = nullptr;
  message.content = std::move(text);
}

std::string image_label(const Json& part) {
  if (!part.is_object()) return "[image]";
  std::string url;
  if (auto it = part.find("image_url"); it != part.end()) {
    url = it->is_object()   ? string_member(*it, "url")
          : it->is_string() ? it->get<std::string>()
                            : "";
  } else {
    url = string_member(part, "url");
  }
  if (starts_with(url, "http://") || starts_with(url, "https://")) return "[image: " + url + "]";
  return "[image]";
}

}  // namespace hermes::internal
