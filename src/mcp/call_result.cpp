#include "mcp/call_result.hpp"

#include <fmt/format.h>

#include "common/json_text.hpp"
#include "hermes/redaction.hpp"
#include "safety/redaction_passes.hpp"

namespace hermes::internal {
namespace {

std::string human_size(std::size_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  if (bytes < 1024 * 1024) return fmt::format("{:.1f} KB", bytes / 1024.0);
  return fmt::format("{:.1f} MB", bytes / (1024.0 * 1024.0));
}

std::string render_resource(const Json& resource) {
  const std::string uri = string_member(resource, "uri");
  if (resource.is_object() && resource.contains("text") && resource["text"].is_string()) {
    return resource["text"].get<std::string>();
  }
  const std::string blob = string_member(resource, "blob");
  std::string mime = string_member(resource, "mimeType");
  if (mime.empty()) mime = "application/octet-stream";
  return binary_placeholder("resource " + uri, mime, blob.size());
}

std::string render_block(const Json& block) {
  const std::string type = string_member(block, "type");
  if (type == "text") return string_member(block, "text");
  if (type == "image" || type == "audio") {
    return binary_placeholder(type, string_member(block, "mimeType"),
                              string_member(block, "data").size());
  }
  if (type == "resource")
    return block.contains("resource") ? render_resource(block["resource"]) : "";
  if (type == "resource_link") {
    std::string name = string_member(block, "name");
    const std::string uri = string_member(block, "uri");
    return "[resource link: " + (name.empty() ? uri : name + " " + uri) + "]";
  }
  return "[" + (type.empty() ? std::string("unknown") : type) + " content]";
}

std::string joined_content(const Json& result) {
  std::string text;
  auto content = result.find("content");
  if (content == result.end() || !content->is_array()) return text;
  bool first = true;
  for (const Json& block : *content) {
    if (!first) text += '\n';
    text += render_block(block);
    first = false;
  }
  return text;
}

}  // namespace

std::string binary_placeholder(const std::string& kind, const std::string& mime_type,
                               std::size_t base64_chars) {
  const std::size_t bytes = base64_chars / 4 * 3;
  return "[" + kind + ": " + (mime_type.empty() ? "unknown type" : mime_type) + ", " +
         human_size(bytes) + "]";
}

std::string redact_for_model(std::string_view text) {
  std::string out = redact_sensitive_text(text);
  return redaction_enabled() ? redact_url_passwords(out) : out;
}

Result<std::string> render_call_result(const Json& result) {
  const std::string text = redact_for_model(joined_content(result));
  auto is_error = result.find("isError");
  if (is_error != result.end() && is_error->is_boolean() && is_error->get<bool>()) {
    return Status::failed_precondition(text.empty() ? "MCP tool returned an error" : text);
  }
  auto structured = result.find("structuredContent");
  if (structured != result.end() && !structured->is_null()) {
    // Masked as text, so that key names ("password": ...) count as they do in any output.
    // A mask that breaks the JSON leaves it a string: the model still reads it.
    const std::string masked = redact_for_model(dump_json(*structured));
    std::optional<Json> parsed = parse_json(masked);
    const Json content = parsed ? std::move(*parsed) : Json(masked);
    if (text.empty()) return dump_json(Json{{"result", content}});
    return dump_json(Json{{"result", text}, {"structuredContent", content}});
  }
  return dump_json(Json{{"result", text}});
}

}  // namespace hermes::internal
