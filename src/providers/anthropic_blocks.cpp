#include "providers/anthropic_blocks.hpp"

#include "common/json_text.hpp"
#include "common/text_utils.hpp"

namespace hermes::internal::anthropic {
namespace {

std::string type_of(const Json& block) {
  return string_member(block, "type");
}

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
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
  std::string out(id);
  for (char& c : out) {
    if (!is_alnum(c) && c != '_' && c != '-') c = '_';
  }
  return out.empty() ? "tool_0" : out;
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
  if (type == "text") {
    if (is_blank_text(block)) return std::nullopt;
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
    std::string data = string_member(block, "data");
    if (data.empty()) return std::nullopt;
    return Json{{"type", "redacted_thinking"}, {"data", std::move(data)}};
  }
  if (type == "tool_use") {
    return Json{{"type", "tool_use"},
                {"id", sanitize_tool_id(string_member(block, "id"))},
                {"name", string_member(block, "name")},
                {"input", block.contains("input") ? block["input"] : Json::object()}};
  }
  if (type == "image" && block.contains("source") && block["source"].is_object()) {
    return Json{{"type", "image"}, {"source", block["source"]}};
  }
  return std::nullopt;
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
