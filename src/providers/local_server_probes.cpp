// A local model server's own account of a model's window. The server's kind is found
// by asking, most specific first, for what only that kind serves; then its own report is
// read, then the OpenAI-compatible endpoints every kind has.
#include <string>
#include <string_view>

#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "providers/context_length_probes.hpp"
#include "providers/url_parts.hpp"

namespace hermes::internal {
namespace {

enum class LocalServerKind { kUnknown, kLmStudio, kOllama, kLlamaCpp, kVllm };

// LM Studio answers Ollama's /api/tags with 200 and an error body, so Ollama's answer
// must list models; older llama.cpp builds serve /props without the /v1.
LocalServerKind detect_local_server(const ContextProbe& probe, const MetadataFetcher& fetch) {
  const std::string root = server_root(probe.base_url);
  if (fetch.get_text(lm_studio_root(probe.base_url) + "/api/v1/models")) {
    return LocalServerKind::kLmStudio;
  }
  if (auto tags = fetch.get(root + "/api/tags");
      tags && tags->is_object() && tags->contains("models")) {
    return LocalServerKind::kOllama;
  }
  for (const char* path : {"/v1/props", "/props"}) {
    if (auto text = fetch.get_text(root + path)) {
      if (text->find("default_generation_settings") != std::string::npos) {
        return LocalServerKind::kLlamaCpp;
      }
      break;
    }
  }
  if (auto version = fetch.get(root + "/version");
      version && version->is_object() && version->contains("version")) {
    return LocalServerKind::kVllm;
  }
  return LocalServerKind::kUnknown;
}

// "publisher/slug" ids (LM Studio's native ids) match a configured "slug".
bool same_model_id(const std::string& id, const std::string& model) {
  if (id == model) return true;
  const std::size_t slash = id.rfind('/');
  return slash != std::string::npos && id.substr(slash + 1) == model;
}

std::optional<int64_t> lm_studio_window(const ContextProbe& probe, const MetadataFetcher& fetch) {
  auto native = fetch.get(lm_studio_root(probe.base_url) + "/api/v1/models");
  if (!native || !native->is_object()) return std::nullopt;
  const Json models = native->value("models", Json());
  if (!models.is_array()) return std::nullopt;
  for (const Json& m : models) {
    if (!m.is_object()) continue;
    if (!same_model_id(string_member(m, "key"), probe.model) &&
        !same_model_id(string_member(m, "id"), probe.model)) {
      continue;
    }
    const Json instances = member_value(m, "loaded_instances");
    if (!instances.is_array()) return std::nullopt;
    for (const Json& instance : instances) {
      if (auto n = positive_member(member_value(instance, "config"), "context_length")) return n;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

// llama.cpp's router answers /props for a model it has not loaded yet, while its
// /v1/models has no window for it.
std::optional<int64_t> llama_cpp_window(const ContextProbe& probe, const MetadataFetcher& fetch) {
  const std::string root = server_root(probe.base_url);
  for (const std::string& path : {"/props?model=" + probe.model, std::string("/props")}) {
    auto props = fetch.get(root + path);
    if (!props || !props->is_object()) continue;
    if (auto n = positive_member(props->value("default_generation_settings", Json()), "n_ctx")) {
      return n;
    }
  }
  return std::nullopt;
}

// /v1/models/<model>: the window keys first, max_tokens (often the output cap) last.
std::optional<int64_t> model_detail_window(const ContextProbe& probe,
                                           const MetadataFetcher& fetch) {
  auto detail = fetch.get(server_root(probe.base_url) + "/v1/models/" + probe.model);
  if (!detail || !detail->is_object()) return std::nullopt;
  return context_length_of_model(*detail);
}

// /v1/models: the model's entry, or the only entry (llama.cpp lists a GGUF path as id).
std::optional<int64_t> model_list_window(const ContextProbe& probe, const MetadataFetcher& fetch) {
  auto list = fetch.get(server_root(probe.base_url) + "/v1/models");
  if (!list || !list->is_object()) return std::nullopt;
  const Json data = member_value(*list, "data");
  if (!data.is_array()) return std::nullopt;
  const Json* matched = nullptr;
  for (const Json& entry : data) {
    if (entry.is_object() && same_model_id(string_member(entry, "id"), probe.model)) {
      matched = &entry;
      break;
    }
  }
  if (!matched && data.size() == 1 && data[0].is_object()) matched = &data[0];
  return matched ? context_length_of_model(*matched) : std::nullopt;
}

}  // namespace

std::optional<int64_t> local_context_length(const ContextProbe& probe) {
  if (probe.model.empty() || probe.base_url.empty()) return std::nullopt;
  const MetadataFetcher fetch(probe);
  switch (detect_local_server(probe, fetch)) {
    case LocalServerKind::kOllama:
      // The num_ctx it was configured with is the window it allocates: prefer it.
      if (auto n = ollama_show_context_length(probe, false)) return n;
      break;
    case LocalServerKind::kLmStudio:
      if (auto n = lm_studio_window(probe, fetch)) return n;
      break;
    case LocalServerKind::kLlamaCpp:
      if (auto n = llama_cpp_window(probe, fetch)) return n;
      break;
    case LocalServerKind::kVllm:
    case LocalServerKind::kUnknown:
      break;
  }
  if (auto n = model_detail_window(probe, fetch)) return n;
  return model_list_window(probe, fetch);
}

}  // namespace hermes::internal
