#include "agent/settled_options.hpp"

#include <string>

namespace hermes::internal {
namespace {

// The old name's value goes to the new place unless that holds a different one.
Status move_alias(std::string& old_value, std::string& new_value, const char* old_name,
                  const char* new_name) {
  if (old_value.empty()) return {};
  if (!new_value.empty() && new_value != old_value) {
    return Status::invalid_argument(std::string(old_name) + " (deprecated) and " + new_name +
                                    " are both set and differ; set only " + new_name);
  }
  new_value = std::move(old_value);
  old_value.clear();
  return {};
}

}  // namespace

Status settle_options(AgentOptions& options) {
#if defined(__GNUC__) || defined(__clang__)
#  pragma GCC diagnostic push
#  pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
  HERMES_RETURN_IF_ERROR(
      move_alias(options.model, options.provider.model, "model", "provider.model"));
  HERMES_RETURN_IF_ERROR(
      move_alias(options.base_url, options.provider.base_url, "base_url", "provider.base_url"));
  HERMES_RETURN_IF_ERROR(
      move_alias(options.api_key, options.provider.api_key, "api_key", "provider.api_key"));
  // persistence.enabled is a plain bool whose default is true: only false was set.
  if (options.persist_sessions) {
    if (*options.persist_sessions && !options.persistence.enabled) {
      return Status::invalid_argument(
          "persist_sessions (deprecated) and persistence.enabled are both set and differ; set "
          "only persistence.enabled");
    }
    options.persistence.enabled = *options.persist_sessions;
    options.persist_sessions.reset();
  }
#if defined(__GNUC__) || defined(__clang__)
#  pragma GCC diagnostic pop
#endif
  if (options.provider.base_url.empty() && !options.provider.instance) {
    options.provider.base_url = kDefaultBaseUrl;
  }
  return {};
}

}  // namespace hermes::internal
