#include "providers/responses_event.hpp"

#include <limits>

#include "providers/ondemand_json.hpp"

namespace hermes::internal {

using namespace ondemand;

struct ResponsesEventReader::Parser : ondemand::Parser {};

ResponsesEventReader::ResponsesEventReader() : parser_(std::make_unique<Parser>()) {}
ResponsesEventReader::~ResponsesEventReader() = default;

bool ResponsesEventReader::read(std::string_view json, ResponsesEvent& out, std::string& error) {
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
      } else if (key == "delta") {
        out.delta = string_of(field);
      } else if (key == "item_id") {
        out.item_id = string_of(field);
      } else if (key == "output_index") {
        if (!is(field, json_type::number)) return;
        const int64_t index = count_of(field);
        if (index >= 0 && index <= std::numeric_limits<int>::max()) {
          out.output_index = static_cast<int>(index);
        }
      } else if (key == "arguments") {
        out.arguments = string_of(field);
      } else if (key == "item") {
        out.item = raw_json_of(field);
      } else if (key == "response") {
        out.response = raw_json_of(field);
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
