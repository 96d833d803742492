#include "providers/anthropic_event.hpp"

#include <limits>

#include "providers/ondemand_json.hpp"

namespace hermes::internal {

using namespace ondemand;

struct AnthropicEventReader::Parser : ondemand::Parser {};

AnthropicEventReader::AnthropicEventReader() : parser_(std::make_unique<Parser>()) {}
AnthropicEventReader::~AnthropicEventReader() = default;

bool AnthropicEventReader::read(std::string_view json, AnthropicEvent& out, std::string& error) {
  out.clear();
  od::document document;
  od::object root;
  FieldWalker walker;
  walker.error = parser_->parse(json, document);
  if (!walker.error) walker.error = document.get_object().get(root);
  if (!walker.error) {
    walker.each_field(root, [&](std::string_view key, od::value field) {
      if (key == "type") {
        out.type = string_of(field);
      } else if (key == "index") {
        if (!is(field, json_type::number)) return;
        const int64_t index = count_of(field);
        if (index >= 0 && index <= std::numeric_limits<int>::max()) {
          out.index = static_cast<int>(index);
        }
      } else if (key == "delta") {
        walker.each_field_of(field, [&](std::string_view name, od::value member) {
          if (name == "type") out.delta_type = string_of(member);
          if (name == "text") out.text = string_of(member);
          if (name == "thinking") out.thinking = string_of(member);
          if (name == "signature") out.signature = string_of(member);
          if (name == "partial_json") out.partial_json = string_of(member);
          if (name == "stop_reason") out.stop_reason = string_of(member);
        });
      } else if (key == "content_block") {
        out.content_block = raw_json_of(field);
      } else if (key == "message") {
        out.message = raw_json_of(field);
      } else if (key == "usage") {
        out.usage = raw_json_of(field);
      } else if (key == "error") {
        out.error = raw_json_of(field);
      }
    });
  }
  if (walker.error) {
    error = simdjson::error_message(walker.error);
    return false;
  }
  return true;
}

}  // namespace hermes::internal
