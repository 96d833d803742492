// The context-length resolution chain (see hermes/model_metadata.hpp for its order).
#include "hermes/model_metadata.hpp"

#include <string>

#include "common/text_utils.hpp"
#include "hermes/home.hpp"
#include "providers/context_length_cache.hpp"
#include "providers/context_length_probes.hpp"
#include "providers/context_length_table.hpp"
#include "providers/endpoint_url.hpp"
#include "safety/log.hpp"

namespace hermes {
namespace {

// One resolution: the inputs as the chain uses them.
struct Lookup {
  std::string model;  // Without a provider prefix or an OpenRouter routing variant.
  std::string base_url;
  std::string provider;  // Trimmed and lower-cased.
  std::string home;
  const ContextLengthOptions* options = nullptr;

  bool may_probe() const { return options->probe_endpoint && !base_url.empty(); }
  internal::ContextProbe probe() const {
    internal::ContextProbe p;
    p.model = model;
    p.base_url = base_url;
    p.provider = provider;
    p.api_key = options->api_key;
    p.timeout = options->probe_timeout;
    return p;
  }
};

// Windows that change under one id (LM Studio's loaded context, Codex's entitlement) are
// never taken from, nor written to, the cache.
bool bypasses_cache(const Lookup& l) {
  return l.provider == "lmstudio" || l.provider == "openai-codex";
}

void remember(const Lookup& l, int64_t length) {
  if (!bypasses_cache(l)) save_context_length(l.model, l.base_url, length, l.home);
}

// A local server's report, cached only when an agent could work in it.
std::optional<int64_t> probe_local(const Lookup& l) {
  if (!l.may_probe() || !is_local_endpoint(l.base_url)) return std::nullopt;
  const auto reported = internal::local_context_length(l.probe());
  if (!reported) return std::nullopt;
  if (*reported >= kMinimumContextLength) remember(l, *reported);
  return reported;
}

// The cached entry, checked: nullopt sends the chain on to live sources.
std::optional<int64_t> checked_cache_entry(const Lookup& l) {
  if (l.base_url.empty() || bypasses_cache(l)) return std::nullopt;
  const auto cached = internal::stored_context_length(l.model, l.base_url, l.home);
  if (!cached) return std::nullopt;
  if (*cached <= 0 || internal::is_known_underreport(l.model, *cached) ||
      internal::stale_pre_catalog_entry(l.model, *cached)) {
    HERMES_LOG_INFO("dropping the cached context length {} of {}@{}; resolving it again", *cached,
                    l.model, l.base_url);
    internal::forget_context_length(l.model, l.base_url, l.home);
    return std::nullopt;
  }
  // A local server may have been restarted with another window under the same id.
  if (l.may_probe() && is_local_endpoint(l.base_url)) {
    const auto live = internal::local_context_length(l.probe());
    if (live && *live != *cached) {
      internal::forget_context_length(l.model, l.base_url, l.home);
      if (*live >= kMinimumContextLength) remember(l, *live);
      return live;
    }
  }
  return cached;
}

std::optional<int64_t> table_or_nothing(const Lookup& l) {
  return default_context_length(l.model);
}

int64_t fallback(const Lookup& l) {
  HERMES_LOG_WARN(
      "could not determine the context length of '{}' at '{}'; assuming {} tokens (set an "
      "explicit context length to override)",
      l.model, l.base_url, kDefaultContextLength);
  return kDefaultContextLength;
}

// Step 6: an endpoint that is not a well-known provider's host.
int64_t resolve_custom_endpoint(const Lookup& l) {
  if (l.may_probe()) {
    bool refused = false;
    if (auto listed = internal::listed_context_length(l.probe(), refused)) {
      // hermes keeps no in-memory copy of the list; the cache stands in for one.
      remember(l, *listed);
      return *listed;
    }
    if (auto local = probe_local(l)) return *local;
    // A hosted Ollama's num_ctx may be an arbitrary cap: its trained maximum first.
    if (auto shown = internal::ollama_show_context_length(l.probe(), true, 1'024)) {
      remember(l, *shown);
      return *shown;
    }
  }
  // A proxied gateway may answer no probe, yet serve a model the table knows.
  if (auto known = table_or_nothing(l)) return *known;
  return fallback(l);
}

// Steps 7 and 8: well-known providers whose own metadata is authoritative.
std::optional<int64_t> resolve_known_provider(const Lookup& l, const std::string& inferred) {
  if (!l.may_probe()) return std::nullopt;
  if (l.provider == "anthropic" ||
      internal::parse_endpoint_url(l.base_url).host == "api.anthropic.com") {
    if (auto n = internal::anthropic_context_length(l.probe())) return n;
  }
  if (inferred.find("ollama") != std::string::npos) {
    if (auto shown = internal::ollama_show_context_length(l.probe(), true, 1'024)) {
      remember(l, *shown);
      return shown;
    }
  }
  if (l.provider == "openrouter" || inferred == "openrouter") {
    bool refused = false;
    auto listed = internal::listed_context_length(l.probe(), refused);
    // OpenRouter has listed Kimi models at 32K for far larger windows.
    if (listed && !(*listed == 32'768 && internal::is_known_underreport(l.model, *listed))) {
      return listed;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<int64_t> next_probe_tier(int64_t current) {
  for (int64_t tier : kContextProbeTiers) {
    if (tier < current) return tier;
  }
  return std::nullopt;
}

int64_t get_model_context_length(std::string_view model, std::string_view base_url,
                                 std::string_view provider, std::optional<int64_t> config_override,
                                 const ContextLengthOptions& options) {
  if (config_override && *config_override > 0) return *config_override;
  // An empty id would be found inside every key and every listed model.
  if (internal::trim_ascii(model).empty()) return kDefaultContextLength;
  Lookup l;
  l.options = &options;
  l.home = options.home.empty() ? default_home() : options.home;
  l.base_url = std::string(internal::trim_ascii(base_url));
  if (!internal::parse_endpoint_url(l.base_url).valid) l.base_url.clear();
  l.provider = internal::lower_ascii(internal::trim_ascii(provider));
  l.model = strip_provider_prefix(internal::trim_ascii(model));
  const std::string inferred = internal::provider_for_base_url(l.base_url).value_or("");
  // Routing variants share their base model's window; the suffixed id stays on the wire.
  if (l.provider == "openrouter" || inferred == "openrouter") {
    l.model = internal::without_openrouter_variant(l.model);
  }
  if (auto scoped = internal::endpoint_scoped_context_length(l.model, l.base_url)) return *scoped;
  if (auto cached = checked_cache_entry(l)) return *cached;
  if (!l.base_url.empty() && inferred.empty()) return resolve_custom_endpoint(l);
  if (auto known = resolve_known_provider(l, inferred)) return *known;
  if (auto local = probe_local(l)) return *local;
  if (auto known = table_or_nothing(l)) return *known;
  return fallback(l);
}

}  // namespace hermes
