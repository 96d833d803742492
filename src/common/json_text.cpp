#include "common/json_text.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>

#include "common/byte_scan.hpp"
#include "common/utf8.hpp"

namespace hermes::internal {

namespace {

void append_string(std::string& out, std::string_view text) {
  if (!is_valid_utf8(text)) {  // Rare: the library's own writer replaces what is broken.
    out += Json(std::string(text)).dump(-1, ' ', false, Json::error_handler_t::replace);
    return;
  }
  out.push_back('"');
  const char* p = text.data();
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    std::size_t run = json_plain_prefix(p + i, n - i);
    // Valid UTF-8 beyond ASCII is written as it is, like the plain bytes around it.
    while (i + run < n && static_cast<unsigned char>(p[i + run]) >= 0x80) {
      ++run;
      run += json_plain_prefix(p + i + run, n - i - run);
    }
    out.append(p + i, run);
    i += run;
    if (i == n) break;
    const auto b = static_cast<unsigned char>(p[i++]);
    switch (b) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default: {
        static constexpr char kHex[] = "0123456789abcdef";
        const char escape[] = {'\\', 'u', '0', '0', kHex[b >> 4], kHex[b & 0xF]};
        out.append(escape, sizeof escape);
      }
    }
  }
  out.push_back('"');
}

template <typename Number>
void append_number(std::string& out, Number number) {
  char buf[24];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, number);
  out.append(buf, ec == std::errc() ? end : buf);
}

}  // namespace

// The same text as nlohmann's compact dump (which walks strings a code point at a time,
// the largest cost of a model call with a long history), written a run of bytes at a time.
void append_json(std::string& out, const Json& value) {
  switch (value.type()) {
    case Json::value_t::object: {
      out.push_back('{');
      bool first = true;
      for (auto it = value.begin(); it != value.end(); ++it) {
        if (!first) out.push_back(',');
        first = false;
        append_string(out, it.key());
        out.push_back(':');
        append_json(out, it.value());
      }
      out.push_back('}');
      break;
    }
    case Json::value_t::array: {
      out.push_back('[');
      bool first = true;
      for (const Json& element : value) {
        if (!first) out.push_back(',');
        first = false;
        append_json(out, element);
      }
      out.push_back(']');
      break;
    }
    case Json::value_t::string:
      append_string(out, value.get_ref<const std::string&>());
      break;
    case Json::value_t::boolean:
      out += value.get<bool>() ? "true" : "false";
      break;
    case Json::value_t::null:
      out += "null";
      break;
    case Json::value_t::number_integer:
      append_number(out, value.get<std::int64_t>());
      break;
    case Json::value_t::number_unsigned:
      append_number(out, value.get<std::uint64_t>());
      break;
    default:  // Floating point (its shortest round-trip form), binary, discarded.
      out += value.dump(-1, ' ', false, Json::error_handler_t::replace);
  }
}

void append_json_string(std::string& out, std::string_view text) {
  append_string(out, text);
}

std::string dump_json(const Json& value) {
  std::string out;
  append_json(out, value);
  return out;
}

std::string dump_json_pretty(const Json& value) {
  return value.dump(2, ' ', false, Json::error_handler_t::replace);
}

bool json_nesting_exceeds(std::string_view text, int limit) {
  const char* p = text.data();
  const std::size_t n = text.size();
  int depth = 0;
  for (std::size_t i = 0; i < n; ++i) {
    switch (p[i]) {
      case '"':
        // Skip the string: an escape takes the byte after the backslash with it.
        for (++i; i < n && p[i] != '"'; ++i) {
          if (p[i] == '\\') ++i;
        }
        break;
      case '[':
      case '{':
        if (++depth > limit) return true;
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default:
        break;
    }
  }
  return false;
}

std::string json_too_deep_message() {
  return "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
}

Result<Json> parse_json_checked(std::string_view text) {
  if (json_nesting_exceeds(text)) return Status::resource_exhausted(json_too_deep_message());
  Json out = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (out.is_discarded()) return Status::invalid_argument("not valid JSON");
  return out;
}

std::optional<Json> parse_json(std::string_view text) {
  if (json_nesting_exceeds(text)) return std::nullopt;
  Json out = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (out.is_discarded()) return std::nullopt;
  return out;
}

std::string string_member(const Json& object, const char* key) {
  if (!object.is_object()) return {};
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<int64_t> json_integer(const Json& value) {
  if (value.is_number_integer() && !value.is_number_unsigned()) return value.get<int64_t>();
  if (value.is_number_unsigned()) {
    const uint64_t n = value.get<uint64_t>();
    return n > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<int64_t>(n);
  }
  if (!value.is_number_float()) return std::nullopt;
  const double d = value.get<double>();
  if (std::isnan(d)) return 0;
  // 2^63 is exact as a double; anything at or above it does not fit.
  if (d >= 9223372036854775808.0) return INT64_MAX;
  if (d <= -9223372036854775808.0) return INT64_MIN;
  return static_cast<int64_t>(d);
}

}  // namespace hermes::internal
