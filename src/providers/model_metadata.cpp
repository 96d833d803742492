// The context-length resolution chain (see hermes/model_metadata.hpp).
#include "hermes/model_metadata.hpp"

#include <string>

#include "hermes/home.hpp"
#include "providers/context_length_probes.hpp"
#include "safety/log.hpp"

namespace hermes {

int64_t get_model_context_length(std::string_view model, std::string_view base_url,
                                 std::string_view provider, std::optional<int64_t> config_override,
                                 const ContextLengthOptions& options) {
  if (config_override && *config_override > 0) return *config_override;
  const std::string home = options.home.empty() ? default_home() : options.home;
  if (!base_url.empty()) {
    if (auto cached = cached_context_length(model, base_url, home)) return *cached;
  }
  if (options.probe_endpoint && !base_url.empty() && !model.empty()) {
    internal::ContextProbe probe;
    probe.model = std::string(model);
    probe.base_url = std::string(base_url);
    probe.provider = std::string(provider);
    probe.api_key = options.api_key;
    probe.timeout = options.probe_timeout;
    if (auto reported = internal::probe_context_length(probe)) {
      // Only what a server reported is worth keeping; guesses are recomputed each time.
      save_context_length(model, base_url, *reported, home);
      return *reported;
    }
  }
  if (auto known = default_context_length(model)) return *known;
  HERMES_LOG_WARN(
      "could not determine the context length of '{}' at '{}'; assuming {} tokens (set an "
      "explicit context length to override)",
      model, base_url, kDefaultContextLength);
  return kDefaultContextLength;
}

}  // namespace hermes
