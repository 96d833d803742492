#include "providers/context_length_probes.hpp"

#include <algorithm>
#include <charconv>
#include <string_view>
#include <vector>

#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "hermes/model_metadata.hpp"
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

std::optional<int64_t> first_known_key(const Json& object) {
  for (std::string_view key : kContextKeys) {
    if (auto n = positive_member(object, key)) return n;
  }
  return std::nullopt;
}

std::optional<int64_t> llamacpp_props(const std::string& root, const MetadataFetcher& fetch) {
  auto props = fetch.get(root + "/props");
  if (!props || !props->is_object()) return std::nullopt;
  return positive_member(props->value("default_generation_settings", Json()), "n_ctx");
}

}  // namespace

std::optional<int64_t> positive_value(const Json& value) {
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

Json member_value(const Json& object, std::string_view key) {
  if (!object.is_object()) return Json();
  auto it = object.find(key);
  return it == object.end() ? Json() : *it;
}

std::string string_member(const Json& object, std::string_view key) {
  const Json value = member_value(object, key);
  return value.is_string() ? value.get<std::string>() : std::string();
}

std::optional<int64_t> positive_member(const Json& object, std::string_view key) {
  if (!object.is_object()) return std::nullopt;
  auto it = object.find(key);
  return it == object.end() ? std::nullopt : positive_value(*it);
}

std::string lm_studio_root(std::string_view base_url) {
  std::string root = without_trailing_slashes(base_url);
  for (std::string_view suffix : {"/api/v1", "/api", "/v1"}) {
    if (root.size() >= suffix.size() &&
        iequals(std::string_view(root).substr(root.size() - suffix.size()), suffix)) {
      root.resize(root.size() - suffix.size());
      break;
    }
  }
  return without_trailing_slashes(root);
}

std::string server_root(std::string_view base_url) {
  std::string root = without_trailing_slashes(base_url);
  if (ends_with_v1(root)) root.resize(root.size() - 3);
  return root;
}

std::vector<std::string> MetadataFetcher::bearer() const {
  if (probe_.api_key.empty() || probe_.api_key.find_first_of("\r\n") != std::string::npos) {
    return {};
  }
  return {"Authorization: Bearer " + probe_.api_key};
}

std::optional<std::string> MetadataFetcher::get_text(const std::string& url, int* status) const {
  return get_body(url, bearer(), status);
}

std::optional<std::string> MetadataFetcher::get_body(const std::string& url,
                                                     std::vector<std::string> headers,
                                                     int* status) const {
  HttpRequest request;
  request.url = url;
  request.headers = std::move(headers);
  request.headers.emplace_back("Accept: application/json");
  request.timeouts = {probe_.timeout, probe_.timeout, probe_.timeout, probe_.timeout};
  request.accept_compressed = true;
  const HttpResult result = HttpClient::shared().send(HttpMethod::kGet, request, CancelToken());
  if (status) *status = result.head.status;
  if (result.failure != TransportFailure::kNone || result.head.status != 200) return std::nullopt;
  return result.body;
}

std::optional<Json> MetadataFetcher::get(const std::string& url, int* status) const {
  return get_with(url, bearer(), status);
}

std::optional<Json> MetadataFetcher::get_with(const std::string& url,
                                              std::vector<std::string> headers, int* status) const {
  auto body = get_body(url, std::move(headers), status);
  if (!body) return std::nullopt;
  return parse_json(*body);
}

std::optional<Json> MetadataFetcher::post(const std::string& url, std::string body) const {
  HttpRequest request;
  request.url = url;
  request.headers = bearer();
  request.headers.emplace_back("Accept: application/json");
  request.body = std::move(body);
  request.timeouts = {probe_.timeout, probe_.timeout, probe_.timeout, probe_.timeout};
  request.accept_compressed = true;
  const HttpResult result = HttpClient::shared().send(HttpMethod::kPost, request, CancelToken());
  if (result.failure != TransportFailure::kNone || result.head.status != 200) return std::nullopt;
  return parse_json(result.body);
}

std::optional<int64_t> anthropic_context_length(const ContextProbe& probe) {
  if (probe.api_key.empty() || probe.api_key.starts_with("sk-ant-oat") ||
      probe.api_key.find_first_of("\r\n") != std::string::npos) {
    return std::nullopt;
  }
  const MetadataFetcher fetch(probe);
  const std::string base = probe.base_url.empty() ? "https://api.anthropic.com" : probe.base_url;
  auto list = fetch.get_with(server_root(base) + "/v1/models?limit=1000",
                             {"x-api-key: " + probe.api_key, "anthropic-version: 2023-06-01"});
  if (!list || !list->contains("data") || !(*list)["data"].is_array()) return std::nullopt;
  for (const Json& entry : (*list)["data"]) {
    if (entry.is_object() && entry.value("id", Json()) == probe.model) {
      return positive_member(entry, "max_input_tokens");
    }
  }
  return std::nullopt;
}

std::optional<int64_t> ollama_show_context_length(const ContextProbe& probe, bool gguf_first,
                                                  int64_t minimum) {
  const MetadataFetcher fetch(probe);
  auto show = fetch.post(server_root(probe.base_url) + "/api/show",
                         dump_json(Json{{"name", probe.model}, {"model", probe.model}}));
  return show ? ollama_context_length(*show, gguf_first, minimum) : std::nullopt;
}

std::optional<int64_t> listed_context_length(const ContextProbe& probe, bool& refused) {
  refused = false;
  const MetadataFetcher fetch(probe);
  // LM Studio's OpenAI-compatible list states no window; its native list has the loaded
  // instance's.
  if (is_local_endpoint(probe.base_url)) {
    if (auto native = fetch.get(lm_studio_root(probe.base_url) + "/api/v1/models")) {
      const Json models = native->value("models", Json());
      if (models.is_array()) {
        for (const Json& m : models) {
          if (!m.is_object()) continue;
          if (string_member(m, "key") != probe.model && string_member(m, "id") != probe.model) {
            continue;
          }
          const Json instances = member_value(m, "loaded_instances");
          if (!instances.is_array()) continue;
          for (const Json& instance : instances) {
            if (auto n = positive_member(member_value(instance, "config"), "context_length")) {
              return n;
            }
          }
        }
      }
    }
  }
  const std::string base = without_trailing_slashes(probe.base_url);
  const std::string other = ends_with_v1(base) ? base.substr(0, base.size() - 3) : base + "/v1";
  for (const std::string& candidate : {base, other}) {
    int status = 0;
    auto list = fetch.get(candidate + "/models", &status);
    refused = status == 401 || status == 403;
    if (refused) return std::nullopt;
    if (!list || !list->is_object()) continue;
    const Json data = list->value("data", Json());
    const Json* entry = find_listed_model(data, probe.model);
    if (!entry) return std::nullopt;
    // /models reports llama.cpp's training maximum; /props has the window it runs.
    if (entry->value("owned_by", Json()) == "llamacpp") {
      if (auto running = llamacpp_props(server_root(candidate), fetch)) return running;
    }
    return context_length_of_model(*entry);
  }
  return std::nullopt;
}

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
  if (!list.is_array()) return nullptr;
  auto id_of = [](const Json& entry) {
    return entry.is_object() && entry.contains("id") && entry["id"].is_string()
               ? entry["id"].get<std::string>()
               : std::string();
  };
  if (!model.empty()) {
    for (const Json& entry : list) {
      const std::string id = id_of(entry);
      const std::size_t slash = id.find('/');
      if (id == model || (slash != std::string::npos && id.substr(slash + 1) == model)) {
        return &entry;
      }
    }
  }
  if (list.size() == 1 && list[0].is_object()) return &list[0];
  // An empty id would be found in every entry.
  if (model.empty()) return nullptr;
  for (const Json& entry : list) {
    const std::string id = id_of(entry);
    if (!id.empty() &&
        (id.find(model) != std::string::npos || model.find(id) != std::string::npos)) {
      return &entry;
    }
  }
  return nullptr;
}

std::optional<int64_t> ollama_context_length(const Json& show, bool gguf_first, int64_t minimum) {
  if (!show.is_object()) return std::nullopt;
  auto usable = [minimum](std::optional<int64_t> n) {
    return n && *n >= minimum ? n : std::nullopt;
  };
  auto num_ctx = [&]() -> std::optional<int64_t> {
    const Json parameters = show.value("parameters", Json());
    if (!parameters.is_string()) return std::nullopt;
    // One "name value" pair per line: "num_ctx                        32768".
    const std::string& text = parameters.get_ref<const std::string&>();
    std::size_t start = 0;
    while (start < text.size()) {
      const std::size_t end = std::min(text.find('\n', start), text.size());
      const std::string_view line = trim_ascii(std::string_view(text).substr(start, end - start));
      if (line.starts_with("num_ctx")) {
        if (auto n = usable(positive_value(Json(std::string(trim_ascii(line.substr(7)))))))
          return n;
      }
      start = end + 1;
    }
    return std::nullopt;
  };
  auto trained = [&]() -> std::optional<int64_t> {
    const Json info = show.value("model_info", Json());
    if (!info.is_object()) return std::nullopt;
    const Json architecture = info.value("general.architecture", Json());
    if (architecture.is_string()) {
      if (auto n =
              usable(positive_member(info, architecture.get<std::string>() + ".context_length"))) {
        return n;
      }
    }
    for (auto it = info.begin(); it != info.end(); ++it) {
      if (it.key().ends_with(".context_length")) {
        if (auto n = usable(positive_value(it.value()))) return n;
      }
    }
    return std::nullopt;
  };
  if (gguf_first) {
    if (auto n = trained()) return n;
    return num_ctx();
  }
  if (auto n = num_ctx()) return n;
  return trained();
}

}  // namespace hermes::internal
