// The persistent cache of context windows servers reported: <home>/context_length_cache.json,
// {"context_lengths": {"<model>@<base_url>": tokens}}. Keyed by endpoint as well as by
// model, because one model has different windows at different providers.
#include "providers/context_length_cache.hpp"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>

#include "common/atomic_file.hpp"
#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "hermes/home.hpp"
#include "hermes/model_metadata.hpp"
#include "safety/log.hpp"

namespace hermes {
namespace {

constexpr const char* kCacheFileName = "context_length_cache.json";
constexpr const char* kLengthsKey = "context_lengths";

// Serialises read-modify-write cycles of the file within the process.
std::mutex& file_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::string cache_path(const std::string& home) {
  return (home.empty() ? default_home() : home) + "/" + kCacheFileName;
}

// "/v1" and "/v1/" share one entry.
std::string cache_key(std::string_view model, std::string_view base_url) {
  std::string base(internal::trim_ascii(base_url));
  while (!base.empty() && base.back() == '/') base.pop_back();
  return std::string(model) + "@" + base;
}

Json read_lengths(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Json::object();
  std::ostringstream text;
  text << in.rdbuf();
  auto parsed = internal::parse_json(text.str());
  if (!parsed || !parsed->is_object()) return Json::object();
  auto lengths = parsed->find(kLengthsKey);
  return lengths != parsed->end() && lengths->is_object() ? *lengths : Json::object();
}

// Kimi and MiniMax endpoints have reported 32K windows for models that hold far more; a
// cached value that small for them is a stale under-report, not a fact.
bool known_underreport(std::string_view model, int64_t length) {
  const std::string name = internal::lower_ascii(model);
  const bool family = name.starts_with("kimi") || name.find("moonshot") != std::string::npos ||
                      name.starts_with("minimax") || name.find("minimaxai/") != std::string::npos;
  return family && length <= 32'768;
}

// A truncating write killed midway would leave a file that reads as empty, losing every
// entry; the atomic write replaces the old file whole or not at all, and keeps it private
// like the rest of the home.
bool write_atomically(const std::string& path, const std::string& text) {
  return internal::write_file_atomically(path, text).ok();
}

}  // namespace

std::optional<int64_t> cached_context_length(std::string_view model, std::string_view base_url,
                                             const std::string& home) {
  const auto length = internal::stored_context_length(model, base_url, home);
  if (!length || *length <= 0 || known_underreport(model, *length)) return std::nullopt;
  return length;
}

namespace internal {

std::optional<int64_t> stored_context_length(std::string_view model, std::string_view base_url,
                                             const std::string& home) {
  Json lengths;
  {
    std::lock_guard<std::mutex> lock(file_mutex());
    lengths = read_lengths(cache_path(home));
  }
  const std::string key = cache_key(model, base_url);
  for (const std::string& candidate :
       {key, std::string(model) + "@" + std::string(base_url), key + "/"}) {
    auto it = lengths.find(candidate);
    if (it != lengths.end() && it->is_number_integer()) return it->get<int64_t>();
  }
  return std::nullopt;
}

bool is_known_underreport(std::string_view model, int64_t length) {
  return known_underreport(model, length);
}

void forget_context_length(std::string_view model, std::string_view base_url,
                           const std::string& home) {
  const std::string path = cache_path(home);
  const std::string key = cache_key(model, base_url);
  std::lock_guard<std::mutex> lock(file_mutex());
  Json lengths = read_lengths(path);
  bool changed = false;
  for (const std::string& candidate :
       {key, std::string(model) + "@" + std::string(base_url), key + "/"}) {
    changed = lengths.erase(candidate) > 0 || changed;
  }
  if (changed &&
      !write_atomically(path, internal::dump_json_pretty(Json{{kLengthsKey, lengths}}) + "\n")) {
    HERMES_LOG_DEBUG("could not write the context length cache {}", path);
  }
}

}  // namespace internal

bool save_context_length(std::string_view model, std::string_view base_url, int64_t length,
                         const std::string& home) {
  if (length <= 0) return false;
  const std::string path = cache_path(home);
  const std::string key = cache_key(model, base_url);
  std::lock_guard<std::mutex> lock(file_mutex());
  Json lengths = read_lengths(path);
  auto it = lengths.find(key);
  if (it != lengths.end() && it->is_number_integer() && it->get<int64_t>() == length) return true;
  lengths[key] = length;
  if (!write_atomically(path, internal::dump_json_pretty(Json{{kLengthsKey, lengths}}) + "\n")) {
    HERMES_LOG_DEBUG("could not write the context length cache {}", path);
    return false;
  }
  return true;
}

}  // namespace hermes
