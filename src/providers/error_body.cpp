#include "providers/error_body.hpp"

#include "common/json_text.hpp"

namespace hermes::internal {
namespace {

// A string member as text; numbers and objects are rendered as JSON, null and absent
// members give "".
std::string member_text(const Json& object, std::string_view key) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return {};
  if (it->is_string()) return it->get<std::string>();
  return dump_json(*it);
}

// Python truthiness of a JSON value, which the upstream code-extraction rules rely on.
bool truthy(const Json& value) {
  if (value.is_null()) return false;
  if (value.is_boolean()) return value.get<bool>();
  if (value.is_number_integer() || value.is_number_unsigned()) return value.get<int64_t>() != 0;
  if (value.is_number_float()) return value.get<double>() != 0.0;
  if (value.is_string()) return !value.get_ref<const std::string&>().empty();
  return !value.empty();
}

const Json* member(const Json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

// `a or b` in Python.
const Json* first_truthy(const Json* a, const Json* b) {
  if (a && truthy(*a)) return a;
  if (b && truthy(*b)) return b;
  return nullptr;
}

// The code inside an error object: code, else type; only strings count, and "400" is
// noise (OpenRouter and vLLM put the HTTP status there).
std::string code_of_error_object(const Json& error) {
  const Json* code = first_truthy(member(error, "code"), member(error, "type"));
  if (!code || !code->is_string()) return {};
  std::string_view text = trim_ascii(code->get_ref<const std::string&>());
  return text.empty() || text == "400" ? std::string() : std::string(text);
}

// The first truthy of the top-level code, error_code and errorCode; strings and integers
// count.
std::string top_level_code(const Json& body, bool camel_case) {
  const Json* code = first_truthy(member(body, "code"), member(body, "error_code"));
  if (!code && camel_case) code = first_truthy(member(body, "errorCode"), nullptr);
  if (!code) return {};
  std::string text;
  if (code->is_string()) {
    text = std::string(trim_ascii(code->get_ref<const std::string&>()));
  } else if (code->is_number_integer() || code->is_number_unsigned()) {
    text = std::to_string(code->get<int64_t>());
  }
  return text == "400" ? std::string() : text;
}

std::string extract_code(const Json& body) {
  if (const Json* error = member(body, "error"); error && error->is_object()) {
    if (std::string code = code_of_error_object(*error); !code.empty()) return code;
    // Some relays wrap a whole JSON error document as the message string.
    const Json* message = member(*error, "message");
    if (message && message->is_string() &&
        trim_ascii(message->get_ref<const std::string&>()).substr(0, 1) == "{") {
      if (auto inner = parse_json(message->get_ref<const std::string&>());
          inner && inner->is_object()) {
        if (const Json* e = member(*inner, "error"); e && e->is_object()) {
          if (std::string code = code_of_error_object(*e); !code.empty()) return code;
        }
        if (std::string code = top_level_code(*inner, false); !code.empty()) return code;
      }
    }
  }
  return top_level_code(body, true);
}

// A string member, trimmed; "" for anything else.
std::string trimmed_string(const Json* value) {
  if (!value || !value->is_string()) return {};
  return std::string(trim_ascii(value->get_ref<const std::string&>()));
}

// Whether the body or its error object gives a time the limit resets at.
bool states_reset_time(const Json& body) {
  for (const Json* payload : {&body, member(body, "error")}) {
    if (!payload || !payload->is_object()) continue;
    for (std::string_view key : {"resets_in_seconds", "resets_at", "reset_at", "retry_after"}) {
      const Json* value = member(*payload, key);
      if (!value || value->is_null()) continue;
      if (value->is_string() && value->get_ref<const std::string&>().empty()) continue;
      return true;
    }
  }
  return false;
}

// OpenRouter hides the upstream provider's error in error.metadata.raw, usually as a
// JSON string with its own error.message, sometimes as plain text.
std::string metadata_message(const Json& error) {
  const Json* metadata = member(error, "metadata");
  const Json* raw = metadata ? member(*metadata, "raw") : nullptr;
  if (!raw || !raw->is_string()) return {};
  const std::string_view text = trim_ascii(raw->get_ref<const std::string&>());
  if (text.empty()) return {};
  auto inner = parse_json(text);
  if (!inner) return std::string(text);
  if (const Json* e = member(*inner, "error"); e && e->is_object()) {
    return member_text(*e, "message");
  }
  return {};
}

std::optional<int> http_status_of(const Json* value) {
  if (!value) return std::nullopt;
  int64_t n = 0;
  if (value->is_number_integer() || value->is_number_unsigned()) {
    n = value->get<int64_t>();
  } else if (value->is_string() && value->get_ref<const std::string&>().size() == 3) {
    const std::string& s = value->get_ref<const std::string&>();
    for (char c : s) {
      if (c < '0' || c > '9') return std::nullopt;
    }
    n = std::stoi(s);
  } else {
    return std::nullopt;
  }
  if (n < 100 || n > 599) return std::nullopt;
  return static_cast<int>(n);
}

std::optional<int> stated_status(const Json& body) {
  const Json* error = member(body, "error");
  for (std::string_view key : {"status_code", "status", "http_status", "code"}) {
    if (error && error->is_object()) {
      if (auto s = http_status_of(member(*error, key))) return s;
    }
  }
  for (std::string_view key : {"status_code", "status", "http_status", "code"}) {
    if (auto s = http_status_of(member(body, key))) return s;
  }
  return std::nullopt;
}

}  // namespace

ErrorBody read_error_body(const Json& body) {
  ErrorBody out;
  if (!body.is_object()) return out;
  out.is_json = true;
  if (const Json* error = member(body, "error")) {
    if (error->is_object()) {
      out.error_message = member_text(*error, "message");
      out.metadata_message = metadata_message(*error);
      if (const Json* metadata = member(*error, "metadata"); metadata && metadata->is_object()) {
        out.has_upstream_metadata =
            metadata->contains("raw") || metadata->contains("provider_name");
        out.upstream_provider = trimmed_string(member(*metadata, "provider_name"));
      }
    } else if (error->is_string()) {
      out.other_message = error->get<std::string>();
    }
  }
  out.flat_message = member_text(body, "message");
  if (out.other_message.empty()) out.other_message = member_text(body, "detail");
  if (out.other_message.empty()) out.other_message = member_text(body, "error_message");
  out.proxy_message = trimmed_string(member(body, "errorMessage"));
  if (out.proxy_message.empty()) {
    if (const Json* args = member(body, "errorArgs"); args && args->is_object()) {
      out.proxy_message = trimmed_string(member(*args, "reason"));
    }
  }
  out.states_reset = states_reset_time(body);
  out.code = extract_code(body);
  out.status = stated_status(body);
  return out;
}

ErrorBody read_error_body(std::string_view body) {
  auto json = parse_json(trim_ascii(body));
  if (!json) return {};
  return read_error_body(*json);
}

std::string best_error_message(const ErrorBody& facts, std::string_view raw_body,
                               std::size_t max_bytes) {
  for (const std::string* candidate :
       {&facts.error_message, &facts.flat_message, &facts.proxy_message, &facts.other_message}) {
    std::string_view text = trim_ascii(*candidate);
    if (!text.empty()) return truncate_utf8(text, max_bytes);
  }
  return truncate_utf8(trim_ascii(raw_body), max_bytes);
}

}  // namespace hermes::internal
