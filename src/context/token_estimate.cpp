#include "hermes/token_estimate.hpp"

#include "common/json_text.hpp"

namespace hermes {
namespace {

constexpr int64_t kImageTokens = 1600;

bool is_cjk(char32_t cp) {
  return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
         (cp >= 0x20000 && cp <= 0x2A6DF) || (cp >= 0x3000 && cp <= 0x303F) ||
         (cp >= 0x3040 && cp <= 0x309F) || (cp >= 0x30A0 && cp <= 0x30FF) ||
         (cp >= 0xAC00 && cp <= 0xD7AF);
}

bool is_image_part(const Json& part) {
  if (!part.is_object()) return false;
  auto type = part.find("type");
  if (type == part.end() || !type->is_string()) return false;
  const auto& t = type->get_ref<const std::string&>();
  return t == "image_url" || t == "image" || t == "input_image";
}

// The message's wire JSON with image parts removed (counted separately).
Json without_images(const Message& m, int64_t& images) {
  Json j = message_to_json(m);
  auto content = j.find("content");
  if (content != j.end() && content->is_array()) {
    Json kept = Json::array();
    for (const auto& part : *content) {
      if (is_image_part(part)) {
        ++images;
      } else {
        kept.push_back(part);
      }
    }
    *content = std::move(kept);
  }
  return j;
}

}  // namespace

int64_t estimate_tokens_rough(std::string_view text) {
  int64_t ascii = 0;
  int64_t cjk = 0;
  int64_t other_bytes = 0;
  for (std::size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    std::size_t len = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    if (i + len > text.size()) len = text.size() - i;
    if (len == 1) {
      ++ascii;
    } else {
      char32_t cp = len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
      for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
      if (is_cjk(cp)) {
        ++cjk;
      } else {
        other_bytes += static_cast<int64_t>(len);
      }
    }
    i += len;
  }
  return (ascii + 3) / 4 + cjk + (other_bytes + 3) / 4;
}

int64_t estimate_messages_tokens_rough(const std::vector<Message>& messages) {
  int64_t images = 0;
  Json wire = Json::array();
  for (const auto& m : messages) wire.push_back(without_images(m, images));
  return estimate_tokens_rough(internal::dump_json(wire)) + images * kImageTokens;
}

int64_t estimate_messages_tokens_rough(const Json& messages) {
  auto parsed = messages_from_json(messages);
  if (parsed.ok()) return estimate_messages_tokens_rough(*parsed);
  return estimate_tokens_rough(internal::dump_json(messages));
}

int64_t estimate_tools_tokens_rough(const Json& tools) {
  int64_t chars = 0;
  if (!tools.is_array()) return 0;
  for (const auto& tool : tools) {
    const Json& fn = tool.contains("function") ? tool["function"] : tool;
    if (auto n = fn.find("name"); n != fn.end() && n->is_string()) chars += static_cast<int64_t>(n->get_ref<const std::string&>().size());
    if (auto d = fn.find("description"); d != fn.end() && d->is_string()) chars += static_cast<int64_t>(d->get_ref<const std::string&>().size());
    if (auto p = fn.find("parameters"); p != fn.end()) chars += static_cast<int64_t>(internal::dump_json(*p).size());
  }
  return chars / 4;
}

}  // namespace hermes
