#include "tools/argument_coercion.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/json_text.hpp"
#include "common/text_utils.hpp"

namespace hermes::internal {
namespace {

// The schema's type names ("type" may be a string or a list; anyOf/oneOf branches count).
std::vector<std::string> types_of(const Json& schema) {
  std::vector<std::string> out;
  if (!schema.is_object()) return out;
  if (auto t = schema.find("type"); t != schema.end()) {
    if (t->is_string()) out.push_back(t->get<std::string>());
    if (t->is_array()) {
      for (const auto& x : *t) {
        if (x.is_string()) out.push_back(x.get<std::string>());
      }
    }
  }
  for (const char* key : {"anyOf", "oneOf"}) {
    if (auto branches = schema.find(key); branches != schema.end() && branches->is_array()) {
      for (const auto& b : *branches) {
        for (auto& t : types_of(b)) out.push_back(std::move(t));
      }
    }
  }
  return out;
}

bool allows_null(const Json& schema, const std::vector<std::string>& types) {
  for (const auto& t : types) {
    if (t == "null") return true;
  }
  // Schemas come from embedders: a non-boolean "nullable" means no, not an exception.
  if (!schema.is_object()) return false;
  const auto nullable = schema.find("nullable");
  return nullable != schema.end() && nullable->is_boolean() && nullable->get<bool>();
}

std::optional<Json> parse_number(const std::string& text, bool integer_only) {
  std::string s = text;
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t start = 0;
  while (start < s.size() && std::isspace(static_cast<unsigned char>(s[start]))) ++start;
  s = s.substr(start);
  if (s.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  if (integer_only || s.find_first_of(".eE") == std::string::npos) {
    long long v = std::strtoll(s.c_str(), &end, 10);
    if (end != s.c_str() + s.size() || errno != 0) {
      if (integer_only) {
        // "3.0" is an integer written as a float.
        double d = std::strtod(s.c_str(), &end);
        // Only within long long's range: converting a larger double is undefined.
        if (end == s.c_str() + s.size() && std::isfinite(d) && d == std::floor(d) && d >= -0x1p63 &&
            d < 0x1p63) {
          return Json(static_cast<long long>(d));
        }
      }
      return std::nullopt;
    }
    return Json(v);
  }
  double d = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(d)) return std::nullopt;
  return Json(d);
}

std::optional<Json> parse_bool(const std::string& text) {
  const std::string s = lower_ascii(text);
  if (s == "true" || s == "yes" || s == "1" || s == "on") return Json(true);
  if (s == "false" || s == "no" || s == "0" || s == "off") return Json(false);
  return std::nullopt;
}

Json coerce_value(const Json& schema, Json value);

// Recurse into containers whose elements the schema describes.
Json coerce_nested(const Json& schema, Json value) {
  if (!schema.is_object()) return value;
  if (value.is_array()) {
    if (auto items = schema.find("items"); items != schema.end() && items->is_object()) {
      for (auto& element : value) element = coerce_value(*items, std::move(element));
    }
  } else if (value.is_object()) {
    if (auto props = schema.find("properties"); props != schema.end() && props->is_object()) {
      for (auto it = value.begin(); it != value.end(); ++it) {
        if (auto p = props->find(it.key()); p != props->end())
          it.value() = coerce_value(*p, std::move(it.value()));
      }
    }
  }
  return value;
}

Json coerce_value(const Json& schema, Json value) {
  const std::vector<std::string> types = types_of(schema);
  if (types.empty()) return value;
  if (value.is_string()) {
    const std::string text = value.get<std::string>();
    if (text == "null" && allows_null(schema, types)) return nullptr;
    for (const auto& t : types) {
      std::optional<Json> converted;
      if (t == "integer") converted = parse_number(text, /*integer_only=*/true);
      if (t == "number") converted = parse_number(text, /*integer_only=*/false);
      if (t == "boolean") converted = parse_bool(text);
      if (t == "object" || t == "array") {
        if (auto parsed = parse_json(text); parsed && ((t == "object" && parsed->is_object()) ||
                                                       (t == "array" && parsed->is_array()))) {
          converted = std::move(*parsed);
        }
      }
      if (t == "string") return value;  // Already the right type.
      if (converted) return coerce_nested(schema, std::move(*converted));
    }
    // A scalar for an array: a one-element list (a JSON list text was handled above).
    for (const auto& t : types) {
      if (t == "array") return Json::array({std::move(value)});
    }
    return value;
  }
  if (!value.is_null() && !value.is_array() && !value.is_object()) {
    for (const auto& t : types) {
      if (t == "array") return Json::array({std::move(value)});
    }
  }
  return coerce_nested(schema, std::move(value));
}

}  // namespace

Json coerce_tool_arguments(const Json& schema, Json arguments) {
  if (!arguments.is_object()) return Json::object();
  if (!schema.is_object()) return arguments;
  auto props = schema.find("properties");
  if (props == schema.end() || !props->is_object()) return arguments;
  for (auto it = arguments.begin(); it != arguments.end(); ++it) {
    if (auto p = props->find(it.key()); p != props->end()) {
      it.value() = coerce_value(*p, std::move(it.value()));
    }
  }
  return arguments;
}

}  // namespace hermes::internal
