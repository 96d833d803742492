// Lenient readers over simdjson On-Demand values, shared by the stream parsers of every
// wire format. A field of an unexpected type reads as empty (or zero) instead of failing
// the whole payload: one odd field from a compatible server must not sink a stream.
//
// Included only by the library's own sources: simdjson's layout depends on build flags
// that only they are guaranteed to share.
#pragma once

#include <simdjson.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "common/text_utils.hpp"

namespace hermes::internal::ondemand {

namespace od = simdjson::ondemand;
using od::json_type;

inline bool is(od::value& value, json_type type) {
  json_type actual;
  return value.type().get(actual) == simdjson::SUCCESS && actual == type;
}

// A string, or "" for null and for any other type.
inline std::string_view string_of(od::value& value) {
  std::string_view text;
  if (!is(value, json_type::string) || value.get_string().get(text) != simdjson::SUCCESS) return {};
  return text;
}

// A count: integers as they are, reals rounded, anything else 0.
inline int64_t count_of(od::value& value) {
  if (!is(value, json_type::number)) return 0;
  int64_t whole = 0;
  if (value.get_int64().get(whole) == simdjson::SUCCESS) return whole;
  double real = 0;
  if (value.get_double().get(real) == simdjson::SUCCESS && std::isfinite(real)) {
    return static_cast<int64_t>(std::llround(real));
  }
  return 0;
}

// The JSON text of an object or array value, or "" for anything else.
inline std::string_view raw_json_of(od::value& value) {
  std::string_view text;
  if (is(value, json_type::object)) {
    od::object object;
    if (value.get_object().get(object) == simdjson::SUCCESS &&
        object.raw_json().get(text) == simdjson::SUCCESS) {
      return text;
    }
  } else if (is(value, json_type::array)) {
    od::array array;
    if (value.get_array().get(array) == simdjson::SUCCESS &&
        array.raw_json().get(text) == simdjson::SUCCESS) {
      return text;
    }
  }
  return {};
}

// Python truthiness: null, false, 0, "", {} and [] do not count.
inline bool truthy(od::value& value) {
  json_type type;
  if (value.type().get(type) != simdjson::SUCCESS) return false;
  switch (type) {
    case json_type::null:
      return false;
    case json_type::string:
      return !string_of(value).empty();
    case json_type::boolean: {
      bool flag = false;
      return value.get_bool().get(flag) == simdjson::SUCCESS && flag;
    }
    case json_type::number:
      return count_of(value) != 0;
    case json_type::object:
    case json_type::array: {
      const std::string_view text = trim_ascii(raw_json_of(value));
      return text.size() > 2 && !trim_ascii(text.substr(1, text.size() - 2)).empty();
    }
  }
  return false;
}

// Walks objects field by field. The first structural error is remembered and ends every
// walk after it, so a caller checks `error` once at the end.
class FieldWalker {
 public:
  simdjson::error_code error = simdjson::SUCCESS;

  // Calls visit(key, value) for each field of `object` (an od::object or od::document).
  template <typename Iterable, typename Visit>
  void each_field(Iterable& object, Visit&& visit) {
    for (auto result : object) {
      od::field field;
      std::string_view key;
      if (error || (error = std::move(result).get(field)) ||
          (error = field.unescaped_key().get(key))) {
        return;
      }
      visit(key, field.value());
    }
  }

  // each_field over `value` when it is an object; anything else is skipped.
  template <typename Visit>
  void each_field_of(od::value& value, Visit&& visit) {
    od::object object;
    if (!is(value, json_type::object) || (error = value.get_object().get(object))) return;
    each_field(object, std::forward<Visit>(visit));
  }
};

// A reusable parser with its padded copy buffer.
class Parser {
 public:
  // Starts reading `json` as a document. The document (and every view read from it)
  // lives until the next parse.
  simdjson::error_code parse(std::string_view json, od::document& document) {
    buffer_.reserve(json.size() + simdjson::SIMDJSON_PADDING);
    buffer_.assign(json);
    return parser_.iterate(buffer_.data(), buffer_.size(), buffer_.capacity()).get(document);
  }

 private:
  od::parser parser_;
  std::string buffer_;  // The JSON copied with the padding simdjson reads past the end.
};

}  // namespace hermes::internal::ondemand
