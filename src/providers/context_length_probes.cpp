#include "providers/context_length_probes.hpp"

#include <algorithm>
#include <charconv>
#include <string_view>
#include <vector>

#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "providers/http_client.hpp"
#include "providers/url_parts.hpp"

namespace hermes::internal {
namespace {

// The keys servers put a context window under, in the order they are trusted.
constexpr std::string_view kContextKeys[] = {"context_length",
                                             "context_window",
                                             "context_size",
                                             "max_context_length",
                                             "max_position_embeddings",
                                             "max_model_len",
                                             "max_input_tokens",
                                             "max_sequence_length",
                                             "max_seq_len",
                                             "n_ctx_train",
                                             "n_ctx",
                                             "ctx_size"};

bool ends_with_v1(std::string_view url) {
  return url.size() >= 3 && iequals(url.substr(url.size() - 3), "/v1");
}

// The server root: the base URL without its /v1.
std::string server_root(std::string_view base_url) {
  std::string root = without_trailing_slashes(base_url);
  if (ends_with_v1(root)) root.resize(root.size() - 3);
  return root;
}

std::optional<int64_t> positive(const Json& value) {
  int64_t n = 0;
  if (value.is_number()) {
    n = *json_integer(value);
  } else if (value.is_string()) {
    const std::string_view text = trim_ascii(value.get_ref<const std::string&>());
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  } else {
    return std::nullopt;
  }
  if (n <= 0) return std::nullopt;
  return n;
}

std::optional<int64_t> positive_member(const Json& object, std::string_view key) {
  if (!object.is_object()) return std::nullopt;
  auto it = object.find(key);
  return it == object.end() ? std::nullopt : positive(*it);
}

std::optional<int64_t> first_known_key(const Json& object) {
  for (std::string_view key : kContextKeys) {
    if (auto n = positive_member(object, key)) return n;
  }
  return std::nullopt;
}

// Local and private addresses, where a llama.cpp or Ollama server may be listening.
bool is_local_host(std::string_view host) {
  if (host == "localhost" || host == "[::1]" || host == "0.0.0.0" ||
      host == "host.docker.internal" || host.ends_with(".local") || host.starts_with("127.") ||
      host.starts_with("10.") || host.starts_with("192.168.")) {
    return true;
  }
  int second = 0;
  if (host.starts_with("172.") || host.starts_with("100.")) {
    const std::string_view rest = host.substr(4);
    std::from_chars(rest.data(), rest.data() + rest.size(), second);
    if (host.starts_with("172.")) return second >= 16 && second <= 31;
    return second >= 64 && second <= 127;  // Tailscale's CGNAT range.
  }
  return false;
}

bool is_local_server_name(std::string_view provider) {
  for (std::string_view name : {"ollama", "llamacpp", "llama.cpp", "llama-cpp", "vllm", "lmstudio",
                                "lm-studio", "local", "custom"}) {
    if (provider == name) return true;
  }
  return false;
}

class Prober {
 public:
  explicit Prober(const ContextProbe& probe) : probe_(probe) {}

  std::optional<Json> get(const std::string& url, std::vector<std::string> headers,
                          int* status = nullptr) const {
    return fetch(HttpMethod::kGet, url, std::move(headers), {}, status);
  }
  std::optional<Json> post(const std::string& url, std::string body) const {
    return fetch(HttpMethod::kPost, url, bearer(), std::move(body), nullptr);
  }
  std::vector<std::string> bearer() const {
    if (probe_.api_key.empty() || probe_.api_key.find_first_of("\r\n") != std::string::npos) {
      return {};
    }
    return {"Authorization: Bearer " + probe_.api_key};
  }

 private:
  std::optional<Json> fetch(HttpMethod method, const std::string& url,
                            std::vector<std::string> headers, std::string body, int* status) const {
    HttpRequest request;
    request.url = url;
    request.headers = std::move(headers);
    request.headers.emplace_back("Accept: application/json");
    request.body = std::move(body);
    request.timeouts = {probe_.timeout, probe_.timeout, probe_.timeout, probe_.timeout};
    request.accept_compressed = true;
    const HttpResult result = HttpClient::shared().send(method, request, CancelToken());
    if (status) *status = result.head.status;
    if (result.failure != TransportFailure::kNone || result.head.status != 200) return std::nullopt;
    return parse_json(result.body);
  }

  const ContextProbe& probe_;
};

// Anthropic lists max_input_tokens per model; OAuth tokens are refused there.
std::optional<int64_t> anthropic_models(const ContextProbe& probe, const Prober& prober) {
  if (probe.api_key.empty() || probe.api_key.starts_with("sk-ant-oat") ||
      probe.api_key.find_first_of("\r\n") != std::string::npos) {
    return std::nullopt;
  }
  auto list = prober.get(server_root(probe.base_url) + "/v1/models?limit=1000",
                         {"x-api-key: " + probe.api_key, "anthropic-version: 2023-06-01"});
  if (!list || !list->contains("data") || !(*list)["data"].is_array()) return std::nullopt;
  for (const Json& entry : (*list)["data"]) {
    if (entry.is_object() && entry.value("id", Json()) == probe.model) {
      return positive_member(entry, "max_input_tokens");
    }
  }
  return std::nullopt;
}

std::optional<int64_t> llamacpp_props(const ContextProbe& probe, const Prober& prober) {
  auto props = prober.get(server_root(probe.base_url) + "/props", prober.bearer());
  if (!props || !props->is_object()) return std::nullopt;
  return positive_member(props->value("default_generation_settings", Json()), "n_ctx");
}

std::optional<int64_t> ollama_show(const ContextProbe& probe, const Prober& prober) {
  auto show = prober.post(server_root(probe.base_url) + "/api/show",
                          dump_json(Json{{"name", probe.model}, {"model", probe.model}}));
  return show ? ollama_context_length(*show) : std::nullopt;
}

// The endpoint's /models list, at the base URL and, failing that, with /v1 toggled.
// `refused` is set when the server turned the key away: no other probe will fare better.
std::optional<int64_t> listed_models(const ContextProbe& probe, const Prober& prober,
                                     bool& refused) {
  const std::string base = without_trailing_slashes(probe.base_url);
  const std::string other = ends_with_v1(base) ? base.substr(0, base.size() - 3) : base + "/v1";
  for (const std::string& candidate : {base, other}) {
    int status = 0;
    auto list = prober.get(candidate + "/models", prober.bearer(), &status);
    refused = status == 401 || status == 403;
    if (refused) return std::nullopt;
    if (!list || !list->is_object()) continue;
    const Json data = list->value("data", Json());
    const Json* entry = find_listed_model(data, probe.model);
    if (!entry) return std::nullopt;
    // /models reports llama.cpp's training maximum; /props has the window it runs.
    if (entry->value("owned_by", Json()) == "llamacpp") {
      if (auto running = llamacpp_props(probe, prober)) return running;
    }
    return context_length_of_model(*entry);
  }
  return std::nullopt;
}

}  // namespace

std::optional<int64_t> context_length_of_model(const Json& model) {
  if (!model.is_object()) return std::nullopt;
  const Json meta = model.value("meta", Json());
  for (const Json* source : {&model, &meta}) {
    if (auto running = positive_member(*source, "n_ctx")) return running;
  }
  if (auto top = first_known_key(model)) return top;
  for (auto it = model.begin(); it != model.end(); ++it) {
    if (!it->is_object()) continue;
    if (auto nested = first_known_key(*it)) return nested;
  }
  return positive_member(model, "max_tokens");
}

const Json* find_listed_model(const Json& list, const std::string& model) {
  if (!list.is_array() || model.empty()) return nullptr;
  auto id_of = [](const Json& entry) {
    return entry.is_object() && entry.contains("id") && entry["id"].is_string()
               ? entry["id"].get<std::string>()
               : std::string();
  };
  const std::string base = model.substr(0, model.rfind(':'));
  for (const std::string& wanted : {model, base}) {
    for (const Json& entry : list) {
      const std::string id = id_of(entry);
      const std::size_t slash = id.rfind('/');
      if (id == wanted || (slash != std::string::npos && id.substr(slash + 1) == wanted)) {
        return &entry;
      }
    }
  }
  if (list.size() == 1 && list[0].is_object()) return &list[0];
  for (const Json& entry : list) {
    const std::string id = id_of(entry);
    if (!id.empty() &&
        (id.find(model) != std::string::npos || model.find(id) != std::string::npos)) {
      return &entry;
    }
  }
  return nullptr;
}

std::optional<int64_t> ollama_context_length(const Json& show) {
  if (!show.is_object()) return std::nullopt;
  const Json parameters = show.value("parameters", Json());
  if (parameters.is_string()) {
    // One "name value" pair per line: "num_ctx                        32768".
    const std::string& text = parameters.get_ref<const std::string&>();
    std::size_t start = 0;
    while (start < text.size()) {
      const std::size_t end = std::min(text.find('\n', start), text.size());
      const std::string_view line = trim_ascii(std::string_view(text).substr(start, end - start));
      if (line.starts_with("num_ctx")) {
        if (auto n = positive(Json(std::string(trim_ascii(line.substr(7)))))) return n;
      }
      start = end + 1;
    }
  }
  const Json info = show.value("model_info", Json());
  if (!info.is_object()) return std::nullopt;
  const Json architecture = info.value("general.architecture", Json());
  if (architecture.is_string()) {
    if (auto n = positive_member(info, architecture.get<std::string>() + ".context_length"))
      return n;
  }
  for (auto it = info.begin(); it != info.end(); ++it) {
    if (it.key().ends_with(".context_length")) {
      if (auto n = positive(it.value())) return n;
    }
  }
  return std::nullopt;
}

std::optional<int64_t> probe_context_length(const ContextProbe& probe) {
  if (probe.model.empty() || probe.base_url.empty()) return std::nullopt;
  const Prober prober(probe);
  const std::string provider = lower_ascii(trim_ascii(probe.provider));
  const std::string host = url_host(probe.base_url);
  if (provider == "anthropic" || host == "api.anthropic.com")
    return anthropic_models(probe, prober);
  bool refused = false;
  if (auto listed = listed_models(probe, prober, refused)) return listed;
  if (refused || (!is_local_host(host) && !is_local_server_name(provider))) return std::nullopt;
  if (auto running = llamacpp_props(probe, prober)) return running;
  return ollama_show(probe, prober);
}

}  // namespace hermes::internal
