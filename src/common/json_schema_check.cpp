#include "common/json_schema_check.hpp"

#include <cmath>
#include <string_view>

#include "common/utf8.hpp"

namespace hermes::internal {
namespace {

constexpr int kMaxDepth = 64;

// The JSON type names a schema's "type" uses.
bool is_type(const Json& value, std::string_view type) {
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "string") return value.is_string();
  if (type == "boolean") return value.is_boolean();
  if (type == "null") return value.is_null();
  if (type == "number") return value.is_number();
  if (type == "integer") {
    if (value.is_number_integer()) return true;
    return value.is_number_float() && std::isfinite(value.get<double>()) &&
           value.get<double>() == std::floor(value.get<double>());
  }
  return false;
}

std::string type_name(const Json& value) {
  if (value.is_number_integer()) return "integer";
  if (value.is_number()) return "number";
  return value.type_name();
}

bool known_type(std::string_view type) {
  for (std::string_view t : {"object", "array", "string", "boolean", "null", "number", "integer"}) {
    if (t == type) return true;
  }
  return false;
}

// The schema "#/$defs/x" (or "#/definitions/x") names within `root`, or nullptr.
const Json* resolve(const Json& root, const std::string& ref) {
  if (ref.rfind("#/", 0) != 0 && ref != "#") return nullptr;
  try {
    const Json& target = root.at(Json::json_pointer(ref.substr(1)));
    return target.is_object() || target.is_boolean() ? &target : nullptr;
  } catch (const std::exception&) {
    return nullptr;
  }
}

Status bad(const std::string& where, const std::string& what) {
  return Status::invalid_argument(where + ": " + what);
}

Status check_node(const Json& root, const Json& s, const std::string& where, int depth) {
  if (depth > kMaxDepth) return bad(where, "nested more than 64 deep");
  if (s.is_boolean()) return {};
  if (!s.is_object()) return bad(where, "a schema must be an object");
  if (auto it = s.find("$ref"); it != s.end()) {
    if (!it->is_string()) return bad(where + ".$ref", "must be a string");
    if (resolve(root, it->get<std::string>()) == nullptr) {
      return bad(where + ".$ref",
                 "'" + it->get<std::string>() + "' does not resolve in the schema");
    }
  }
  if (auto it = s.find("type"); it != s.end()) {
    const Json types = it->is_array() ? *it : Json::array({*it});
    if (types.empty()) return bad(where + ".type", "must name a type");
    for (const Json& t : types) {
      if (!t.is_string() || !known_type(t.get<std::string>())) {
        return bad(where + ".type", "unknown type " + t.dump());
      }
    }
  }
  for (const char* key : {"properties", "$defs", "definitions"}) {
    if (auto it = s.find(key); it != s.end()) {
      if (!it->is_object()) return bad(where + "." + key, "must be an object");
      for (const auto& [name, sub] : it->items()) {
        HERMES_RETURN_IF_ERROR(check_node(root, sub, where + "." + key + "." + name, depth + 1));
      }
    }
  }
  for (const char* key : {"items", "additionalProperties", "not"}) {
    if (auto it = s.find(key); it != s.end()) {
      HERMES_RETURN_IF_ERROR(check_node(root, *it, where + "." + key, depth + 1));
    }
  }
  for (const char* key : {"anyOf", "oneOf", "allOf"}) {
    if (auto it = s.find(key); it != s.end()) {
      if (!it->is_array() || it->empty())
        return bad(where + "." + key, "must be a list of schemas");
      for (std::size_t i = 0; i < it->size(); ++i) {
        HERMES_RETURN_IF_ERROR(check_node(
            root, (*it)[i], where + "." + key + "[" + std::to_string(i) + "]", depth + 1));
      }
    }
  }
  if (auto it = s.find("required"); it != s.end()) {
    if (!it->is_array()) return bad(where + ".required", "must be a list of names");
    for (const Json& n : *it) {
      if (!n.is_string()) return bad(where + ".required", "must be a list of names");
    }
  }
  if (auto it = s.find("enum"); it != s.end() && !it->is_array()) {
    return bad(where + ".enum", "must be a list");
  }
  for (const char* key : {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}) {
    if (auto it = s.find(key); it != s.end() && !it->is_number()) {
      return bad(where + "." + key, "must be a number");
    }
  }
  for (const char* key : {"minLength", "maxLength", "minItems", "maxItems"}) {
    if (auto it = s.find(key);
        it != s.end() && !(it->is_number_integer() && it->get<int64_t>() >= 0)) {
      return bad(where + "." + key, "must be a whole number, 0 or more");
    }
  }
  return {};
}

std::string at(const std::string& path, const std::string& key) {
  return path + "." + key;
}

std::optional<std::string> violation(const Json& root, const Json& value, const Json& s,
                                     const std::string& path, int depth) {
  if (depth > kMaxDepth) return path + ": nested more than 64 deep";
  if (s.is_boolean()) {
    return s.get<bool>() ? std::nullopt : std::optional<std::string>(path + ": not allowed");
  }
  if (auto it = s.find("$ref"); it != s.end()) {
    const Json* target = resolve(root, it->get<std::string>());
    if (target == nullptr) return path + ": unresolvable $ref";
    if (auto v = violation(root, value, *target, path, depth + 1)) return v;
  }
  if (auto it = s.find("type"); it != s.end()) {
    const Json types = it->is_array() ? *it : Json::array({*it});
    bool matched = false;
    std::string names;
    for (const Json& t : types) {
      matched = matched || is_type(value, t.get<std::string>());
      names += (names.empty() ? "" : " or ") + t.get<std::string>();
    }
    if (!matched) return path + ": expected " + names + ", got " + type_name(value);
  }
  if (auto it = s.find("const"); it != s.end() && value != *it) {
    return path + ": must be " + it->dump();
  }
  if (auto it = s.find("enum"); it != s.end()) {
    bool found = false;
    for (const Json& option : *it) found = found || option == value;
    if (!found) return path + ": must be one of " + it->dump();
  }
  if (value.is_number()) {
    const double v = value.get<double>();
    if (auto it = s.find("minimum"); it != s.end() && v < it->get<double>()) {
      return path + ": must be at least " + it->dump();
    }
    if (auto it = s.find("maximum"); it != s.end() && v > it->get<double>()) {
      return path + ": must be at most " + it->dump();
    }
    if (auto it = s.find("exclusiveMinimum"); it != s.end() && v <= it->get<double>()) {
      return path + ": must be more than " + it->dump();
    }
    if (auto it = s.find("exclusiveMaximum"); it != s.end() && v >= it->get<double>()) {
      return path + ": must be less than " + it->dump();
    }
  }
  if (value.is_string()) {
    const std::size_t n = utf8_length(value.get<std::string>());
    if (auto it = s.find("minLength"); it != s.end() && n < it->get<std::size_t>()) {
      return path + ": shorter than " + it->dump() + " characters";
    }
    if (auto it = s.find("maxLength"); it != s.end() && n > it->get<std::size_t>()) {
      return path + ": longer than " + it->dump() + " characters";
    }
  }
  if (value.is_array()) {
    if (auto it = s.find("minItems"); it != s.end() && value.size() < it->get<std::size_t>()) {
      return path + ": fewer than " + it->dump() + " items";
    }
    if (auto it = s.find("maxItems"); it != s.end() && value.size() > it->get<std::size_t>()) {
      return path + ": more than " + it->dump() + " items";
    }
    if (auto it = s.find("items"); it != s.end()) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        if (auto v =
                violation(root, value[i], *it, path + "[" + std::to_string(i) + "]", depth + 1))
          return v;
      }
    }
  }
  if (value.is_object()) {
    if (auto it = s.find("required"); it != s.end()) {
      for (const Json& name : *it) {
        if (!value.contains(name.get<std::string>())) {
          return path + ": missing required property '" + name.get<std::string>() + "'";
        }
      }
    }
    const Json* properties = s.contains("properties") ? &s["properties"] : nullptr;
    const auto extra = s.find("additionalProperties");
    for (const auto& [key, item] : value.items()) {
      if (properties != nullptr && properties->contains(key)) {
        if (auto v = violation(root, item, (*properties)[key], at(path, key), depth + 1)) return v;
      } else if (extra != s.end()) {
        if (extra->is_boolean() && !extra->get<bool>()) {
          return path + ": unexpected property '" + key + "'";
        }
        if (auto v = violation(root, item, *extra, at(path, key), depth + 1)) return v;
      }
    }
  }
  if (auto it = s.find("allOf"); it != s.end()) {
    for (const Json& sub : *it) {
      if (auto v = violation(root, value, sub, path, depth + 1)) return v;
    }
  }
  if (auto it = s.find("anyOf"); it != s.end()) {
    std::optional<std::string> first;
    for (const Json& sub : *it) {
      auto v = violation(root, value, sub, path, depth + 1);
      if (!v) {
        first.reset();
        break;
      }
      if (!first) first = v;
    }
    if (first) return *first + " (no alternative of anyOf matches)";
  }
  if (auto it = s.find("oneOf"); it != s.end()) {
    int matches = 0;
    for (const Json& sub : *it) matches += violation(root, value, sub, path, depth + 1) ? 0 : 1;
    if (matches != 1) {
      return path + ": matches " + std::to_string(matches) + " alternatives of oneOf, not one";
    }
  }
  if (auto it = s.find("not"); it != s.end() && !violation(root, value, *it, path, depth + 1)) {
    return path + ": matches a schema it must not";
  }
  return std::nullopt;
}

}  // namespace

Status check_schema(const Json& schema, const std::string& name) {
  if (!schema.is_object()) {
    return Status::invalid_argument(name + ": must be a JSON Schema object, got " +
                                    std::string(schema.type_name()));
  }
  const auto type = schema.find("type");
  const bool object_root =
      schema.contains("$ref") || (type != schema.end() && type->is_string() && *type == "object");
  if (!object_root) {
    return Status::invalid_argument(
        name + ": the answer must be a JSON object: give \"type\": \"object\" at the top");
  }
  return check_node(schema, schema, name, 0);
}

std::optional<std::string> schema_violation(const Json& value, const Json& schema) {
  return violation(schema, value, schema, "$", 0);
}

}  // namespace hermes::internal
