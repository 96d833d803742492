#include "providers/anthropic_blocks.hpp"

#include <algorithm>

#include "common/json_text.hpp"
#include "common/text_utils.hpp"

namespace hermes::internal::anthropic {
namespace {

std::string type_of(const Json& block) {
  return string_member(block, "type");
}

constexpr std::string_view kEmptyToolId = "tool_0";

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

char sanitized(char c) {
  return is_alnum(c) || c == '_' || c == '-' ? c : '_';
}

// An image URL as an image block: data URLs carry base64 data, others are fetched by URL.
Json image_block(std::string_view url) {
  url = trim_ascii(url);
  if (!url.starts_with("data:")) {
    return {{"type", "image"}, {"source", {{"type", "url"}, {"url", std::string(url)}}}};
  }
  const std::size_t comma = url.find(',');
  const std::string_view header = url.substr(5, comma == std::string_view::npos ? 0 : comma - 5);
  const std::string_view data =
      comma == std::string_view::npos ? std::string_view() : url.substr(comma + 1);
  std::string media_type(trim_ascii(header.substr(0, header.find(';'))));
  if (!media_type.starts_with("image/")) media_type = "image/jpeg";
  if (iequals(media_type, "image/jpg")) media_type = "image/jpeg";
  return {
      {"type", "image"},
      {"source", {{"type", "base64"}, {"media_type", media_type}, {"data", std::string(data)}}}};
}

bool is_replayable(const Json& block, std::string_view type) {
  if (type == "text") return !is_blank_text(block);
  if (type == "thinking" || type == "tool_use") return true;
  if (type == "redacted_thinking") return !string_member(block, "data").empty();
  if (type == "image") return block.contains("source") && block["source"].is_object();
  return false;
}

}  // namespace

Json text_block(std::string text) {
  return {{"type", "text"}, {"text", std::move(text)}};
}

bool is_blank_text(const Json& block) {
  if (type_of(block) != "text") return false;
  auto it = block.find("text");
  return it == block.end() || !it->is_string() ||
         trim_ascii(it->get_ref<const std::string&>()).empty();
}

bool is_thinking(const Json& block) {
  const std::string type = type_of(block);
  return type == "thinking" || type == "redacted_thinking";
}

bool is_cacheable(const Json& block) {
  const std::string type = type_of(block);
  return type == "text" || type == "tool_use";
}

std::string sanitize_tool_id(std::string_view id) {
  std::string out(id.empty() ? kEmptyToolId : id);
  for (char& c : out) c = sanitized(c);
  return out;
}

int compare_sanitized_tool_ids(std::string_view a, std::string_view b) {
  if (a == b) return 0;  // Usually so: a result names its call's id as the call wrote it.
  if (a.empty()) a = kEmptyToolId;
  if (b.empty()) b = kEmptyToolId;
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    const auto x = static_cast<unsigned char>(sanitized(a[i]));
    const auto y = static_cast<unsigned char>(sanitized(b[i]));
    if (x != y) return x < y ? -1 : 1;
  }
  return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

Json parse_arguments(std::string_view arguments) {
  if (trim_ascii(arguments).empty()) return Json::object();
  auto parsed = parse_json(arguments);
  return parsed && parsed->is_object() ? *parsed : Json::object();
}

std::optional<Json> block_from_part(const Json& part) {
  if (part.is_string()) return text_block(part.get<std::string>());
  if (!part.is_object()) return std::nullopt;
  const std::string type = type_of(part);
  if (type == "text" || type == "input_text") return text_block(string_member(part, "text"));
  if (type == "image_url" || type == "input_image") {
    const Json image = part.value("image_url", Json());
    const std::string url = image.is_object() ? string_member(image, "url")
                                              : (image.is_string() ? image.get<std::string>() : "");
    if (url.empty()) return std::nullopt;
    return image_block(url);
  }
  if (type == "image" && part.contains("source") && part["source"].is_object()) {
    return Json{{"type", "image"}, {"source", part["source"]}};
  }
  return std::nullopt;
}

std::optional<Json> replayable_block(const Json& block) {
  const std::string type = type_of(block);
  if (!is_replayable(block, type)) return std::nullopt;
  if (type == "text") {
    Json out = text_block(string_member(block, "text"));
    if (block.contains("citations") && block["citations"].is_array() &&
        !block["citations"].empty()) {
      out["citations"] = block["citations"];
    }
    return out;
  }
  if (type == "thinking") {
    Json out = {{"type", "thinking"}, {"thinking", string_member(block, "thinking")}};
    if (std::string signature = string_member(block, "signature"); !signature.empty()) {
      out["signature"] = std::move(signature);
    }
    return out;
  }
  if (type == "redacted_thinking") {
    return Json{{"type", "redacted_thinking"}, {"data", string_member(block, "data")}};
  }
  if (type == "tool_use") {
    return Json{{"type", "tool_use"},
                {"id", sanitize_tool_id(string_member(block, "id"))},
                {"name", string_member(block, "name")},
                {"input", block.contains("input") ? block["input"] : Json::object()}};
  }
  return Json{{"type", "image"}, {"source", block["source"]}};
}

bool replays_stored_blocks(const Json& stored) {
  if (!stored.is_array()) return false;
  for (const Json& block : stored) {
    const std::string type = type_of(block);
    if (type == "text" || is_replayable(block, type)) return true;
  }
  return false;
}

bool mark_last_cacheable(Json& blocks, const Json& marker) {
  if (!blocks.is_array()) return false;
  for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) {
    if (!is_cacheable(*it)) continue;
    if (!it->contains("cache_control")) (*it)["cache_control"] = marker;
    return true;
  }
  return false;
}

}  // namespace hermes::internal::anthropic
