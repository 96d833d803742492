// Versions, status codes, error objects and library-owned memory.
#include <cstdlib>
#include <cstring>

#include "c_internal.hpp"
#include "hermes/version.hpp"

namespace hermes::capi {

hermes_status_t report(const Status& status, hermes_error_t** out_error) {
  if (status.ok()) return HERMES_OK;
  return report(static_cast<hermes_status_t>(status.code()), status.message(), out_error);
}

hermes_status_t report(hermes_status_t code, std::string message, hermes_error_t** out_error) {
  if (out_error != nullptr) {
    try {
      *out_error = new hermes_error_t{code, std::move(message)};
    } catch (...) {
      *out_error = nullptr;  // Out of memory: the code alone must do.
    }
  }
  return code;
}

char* copy_string(const std::string& text) {
  auto* out = static_cast<char*>(std::malloc(text.size() + 1));
  if (out == nullptr) return nullptr;
  std::memcpy(out, text.data(), text.size());
  out[text.size()] = '\0';
  return out;
}

hermes_status_t return_string(const std::string& text, char** out, hermes_error_t** out_error) {
  *out = copy_string(text);
  return *out != nullptr ? HERMES_OK : report(HERMES_ERR_RESOURCE_EXHAUSTED, "out of memory", out_error);
}

Result<Json> parse_argument(const char* text, const char* what) {
  if (text == nullptr) return Status::invalid_argument(std::string(what) + ": NULL");
  auto parsed = from_json_text(text);
  if (!parsed) return Status::invalid_argument(std::string(what) + ": not valid JSON");
  return std::move(*parsed);
}

}  // namespace hermes::capi

extern "C" {

const char* hermes_version(void) { return HERMES_VERSION_STRING; }

uint32_t hermes_abi_version(void) { return HERMES_ABI_VERSION; }

int hermes_abi_compatible(uint32_t header_abi_version) {
  return header_abi_version == HERMES_ABI_VERSION ? 1 : 0;
}

hermes_status_t hermes_error_code(const hermes_error_t* error) {
  return error == nullptr ? HERMES_ERR_INVALID_ARGUMENT : error->code;
}

const char* hermes_error_message(const hermes_error_t* error) {
  return error == nullptr ? "" : error->message.c_str();
}

void hermes_error_free(hermes_error_t* error) { delete error; }

const char* hermes_status_name(hermes_status_t status) {
  if (status > 0 || status < HERMES_ERR_INTERNAL) return "unknown";
  // status_code_name returns views of string literals, so data() is NUL-terminated.
  return hermes::status_code_name(static_cast<hermes::StatusCode>(status)).data();
}

void hermes_free(void* ptr) { std::free(ptr); }

}  // extern "C"
