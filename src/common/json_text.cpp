#include "common/json_text.hpp"

namespace hermes::internal {

std::string dump_json(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string dump_json_pretty(const Json& value) {
  return value.dump(2, ' ', false, Json::error_handler_t::replace);
}

std::optional<Json> parse_json(std::string_view text) {
  Json out = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (out.is_discarded()) return std::nullopt;
  return out;
}

}  // namespace hermes::internal
