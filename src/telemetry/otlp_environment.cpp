// OtlpExporter::options_from_environment: the standard OTEL_* variables, read the way
// the OpenTelemetry SDKs read them, with every malformed value reported and replaced by
// its default rather than refused.
#include "telemetry/otlp_environment.hpp"

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <vector>

#include "common/text_utils.hpp"
#include "hermes/otlp_exporter.hpp"
#include "safety/log.hpp"

namespace hermes::internal {
namespace {

std::optional<std::string> env(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) return std::nullopt;
  std::string text(trim_ascii(value));
  if (text.empty()) return std::nullopt;  // Set but empty counts as unset, as in the SDKs.
  return text;
}

std::vector<std::string_view> split_commas(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma == std::string_view::npos ? text.npos : comma - start));
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
}

bool has_control(std::string_view text) {
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7F) return true;
  }
  return false;
}

// A positive whole number no larger than `max`; the default with a warning otherwise.
template <typename T>
void read_number(const char* name, T& target, uint64_t max) {
  const std::optional<std::string> text = env(name);
  if (!text) return;
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size() || value == 0 || value > max) {
    HERMES_LOG_WARN("{}: not a whole number from 1 to {}: \"{}\"; using the default", name, max,
                    *text);
    return;
  }
  target = static_cast<T>(value);
}

void read_millis(const char* name, std::chrono::milliseconds& target) {
  // A day: longer is a typo, and would keep a thread waiting beyond any use.
  int64_t millis = target.count();
  read_number(name, millis, 86'400'000);
  target = std::chrono::milliseconds(millis);
}

// OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER: a list of exporter names; hermes has
// only "otlp". Unset means otlp, as in the SDKs.
bool exporter_selected(const char* name) {
  const std::optional<std::string> text = env(name);
  if (!text) return true;
  bool otlp = false;
  bool none = false;
  for (std::string_view item : split_commas(*text)) {
    const std::string exporter = lower_ascii(trim_ascii(item));
    if (exporter == "otlp") otlp = true;
    if (exporter == "none") none = true;
  }
  if (!otlp && !none) {
    HERMES_LOG_WARN("{}={}: only the otlp exporter is available; this signal is not exported", name,
                    *text);
  }
  return otlp;
}

void check_protocol(const char* name) {
  const std::optional<std::string> text = env(name);
  if (text && *text != "http/json") {
    HERMES_LOG_WARN("{}={}: only http/json is implemented; sending OTLP/HTTP JSON", name, *text);
  }
}

std::vector<std::pair<std::string, std::string>> read_headers(const char* name) {
  const std::optional<std::string> text = env(name);
  if (!text) return {};
  return parse_key_value_list(*text, name);
}

}  // namespace

std::vector<std::pair<std::string, std::string>> parse_key_value_list(std::string_view text,
                                                                      std::string_view variable) {
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t position = 0;
  for (std::string_view entry : split_commas(text)) {
    ++position;
    if (trim_ascii(entry).empty()) continue;
    const std::size_t equals = entry.find('=');
    std::string key(equals == std::string::npos ? "" : trim_ascii(entry.substr(0, equals)));
    std::string value =
        equals == std::string::npos ? "" : percent_decode(trim_ascii(entry.substr(equals + 1)));
    if (key.empty() || has_control(key) || has_control(value)) {
      // Not the entry itself: header values are often credentials.
      HERMES_LOG_WARN("{}: skipping malformed entry {} (key=value expected)", variable, position);
      continue;
    }
    out.emplace_back(std::move(key), std::move(value));
  }
  return out;
}

std::string signal_url(std::string_view base, std::string_view path) {
  std::string out(base);
  while (!out.empty() && out.back() == '/') out.pop_back();
  return out + std::string(path);
}

}  // namespace hermes::internal

namespace hermes {

bool OtlpExporter::options_from_environment(OtlpExporterOptions& options) {
  using internal::env;
  if (std::optional<std::string> disabled = env("OTEL_SDK_DISABLED");
      disabled && internal::lower_ascii(*disabled) == "true") {
    return false;
  }
  options.export_traces = internal::exporter_selected("OTEL_TRACES_EXPORTER");
  options.export_metrics = internal::exporter_selected("OTEL_METRICS_EXPORTER");
  options.endpoint = env("OTEL_EXPORTER_OTLP_ENDPOINT").value_or("");
  options.traces_endpoint = env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT").value_or("");
  options.metrics_endpoint = env("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT").value_or("");
  // No endpoint: nothing to send to. (The SDKs would try localhost:4318; a library that
  // starts sending because a variable is absent would surprise its host.)
  if (options.endpoint.empty()) {
    if (options.traces_endpoint.empty()) options.export_traces = false;
    if (options.metrics_endpoint.empty()) options.export_metrics = false;
  }
  if (!options.export_traces && !options.export_metrics) return false;

  options.headers = internal::read_headers("OTEL_EXPORTER_OTLP_HEADERS");
  options.traces_headers = internal::read_headers("OTEL_EXPORTER_OTLP_TRACES_HEADERS");
  options.metrics_headers = internal::read_headers("OTEL_EXPORTER_OTLP_METRICS_HEADERS");
  internal::check_protocol("OTEL_EXPORTER_OTLP_PROTOCOL");
  internal::check_protocol("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL");
  internal::check_protocol("OTEL_EXPORTER_OTLP_METRICS_PROTOCOL");

  if (std::optional<std::string> attributes = env("OTEL_RESOURCE_ATTRIBUTES")) {
    for (auto& [key, value] :
         internal::parse_key_value_list(*attributes, "OTEL_RESOURCE_ATTRIBUTES")) {
      options.resource_attributes.push_back({std::move(key), std::move(value)});
    }
  }
  // OTEL_SERVICE_NAME wins over a service.name in OTEL_RESOURCE_ATTRIBUTES.
  if (std::optional<std::string> name = env("OTEL_SERVICE_NAME")) {
    options.service_name = *name;
    std::erase_if(options.resource_attributes,
                  [](const Attribute& a) { return a.key == "service.name"; });
  }

  internal::read_millis("OTEL_EXPORTER_OTLP_TIMEOUT", options.export_timeout);
  internal::read_millis("OTEL_BSP_SCHEDULE_DELAY", options.schedule_delay);
  internal::read_millis("OTEL_METRIC_EXPORT_INTERVAL", options.metric_export_interval);
  internal::read_number("OTEL_BSP_MAX_QUEUE_SIZE", options.max_queue_size, 1'000'000);
  internal::read_number("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", options.max_export_batch_size, 1'000'000);
  // The SDKs cap the batch at the queue rather than refuse the pair.
  if (options.max_export_batch_size > options.max_queue_size) {
    HERMES_LOG_WARN(
        "OTEL_BSP_MAX_EXPORT_BATCH_SIZE ({}) is above OTEL_BSP_MAX_QUEUE_SIZE ({}); using the "
        "queue size",
        options.max_export_batch_size, options.max_queue_size);
    options.max_export_batch_size = options.max_queue_size;
  }
  return true;
}

}  // namespace hermes
