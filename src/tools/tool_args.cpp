#include "tools/tool_args.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "common/text_utils.hpp"

namespace hermes::internal {
namespace {

const Json* find_arg(const Json& args, std::string_view key) {
  if (!args.is_object()) return nullptr;
  auto it = args.find(std::string(key));
  if (it == args.end() || it->is_null()) return nullptr;
  return &*it;
}

Status wrong_type(std::string_view key, std::string_view expected, const Json& value) {
  return Status::invalid_argument("Argument '" + std::string(key) + "' must be " +
                                  std::string(expected) + ", got " + json_type_name(value) + ".");
}

std::string lower_trimmed(std::string s) {
  s.erase(0, s.find_first_not_of(" \t\r\n"));
  s.erase(s.find_last_not_of(" \t\r\n") + 1);
  return lower_ascii(s);
}

}  // namespace

std::string json_type_name(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return "boolean";
    case Json::value_t::string:
      return "string";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
      return "integer";
    case Json::value_t::number_float:
      return "number";
    case Json::value_t::array:
      return "array";
    case Json::value_t::object:
      return "object";
    default:
      return "value";
  }
}

Result<std::string> arg_string(const Json& args, std::string_view key) {
  const Json* v = find_arg(args, key);
  if (v == nullptr)
    return Status::invalid_argument("Missing required argument '" + std::string(key) + "'.");
  if (!v->is_string()) return wrong_type(key, "a string", *v);
  return v->get<std::string>();
}

Result<std::optional<std::string>> arg_optional_string(const Json& args, std::string_view key) {
  const Json* v = find_arg(args, key);
  if (v == nullptr) return std::optional<std::string>();
  if (!v->is_string()) return wrong_type(key, "a string", *v);
  return std::optional<std::string>(v->get<std::string>());
}

Status check_string_args(const Json& args, std::initializer_list<std::string_view> keys) {
  for (std::string_view key : keys) {
    const Json* v = find_arg(args, key);
    if (v != nullptr && !v->is_string()) return wrong_type(key, "a string", *v);
  }
  return {};
}

Result<std::optional<int64_t>> arg_optional_int(const Json& args, std::string_view key) {
  const Json* v = find_arg(args, key);
  if (v == nullptr) return std::optional<int64_t>();
  if (v->is_number_integer()) return std::optional<int64_t>(v->get<int64_t>());
  if (v->is_number_float()) {
    const double d = v->get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9e15) {
      return std::optional<int64_t>(static_cast<int64_t>(d));
    }
  } else if (v->is_string()) {
    const std::string s = lower_trimmed(v->get<std::string>());
    char* end = nullptr;
    const long long n = std::strtoll(s.c_str(), &end, 10);
    if (!s.empty() && end == s.c_str() + s.size()) return std::optional<int64_t>(n);
  }
  return wrong_type(key, "an integer", *v);
}

Result<bool> arg_bool(const Json& args, std::string_view key, bool fallback) {
  const Json* v = find_arg(args, key);
  if (v == nullptr) return fallback;
  if (v->is_boolean()) return v->get<bool>();
  if (v->is_string()) {
    const std::string s = lower_trimmed(v->get<std::string>());
    if (s == "true" || s == "1" || s == "yes") return true;
    if (s == "false" || s == "0" || s == "no" || s.empty()) return false;
  }
  if (v->is_number_integer()) return v->get<int64_t>() != 0;
  return wrong_type(key, "a boolean", *v);
}

}  // namespace hermes::internal
