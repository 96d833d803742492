// The pieces of the OpenTelemetry SDK's environment configuration that are more than a
// lookup: "k=v,k2=v2" lists and signal URLs derived from a base endpoint.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hermes::internal {

// `text` read as the W3C Baggage-like list OTEL_EXPORTER_OTLP_HEADERS and
// OTEL_RESOURCE_ATTRIBUTES use: comma-separated key=value pairs, surrounding spaces
// trimmed, values percent-decoded. Entries without "=" or with an empty key, and any
// whose key or decoded value holds a control character, are skipped with a warning
// naming `variable`.
std::vector<std::pair<std::string, std::string>> parse_key_value_list(std::string_view text,
                                                                      std::string_view variable);

// `base` + `path` ("/v1/traces") with exactly one slash between them, as the SDK derives
// a signal's URL from OTEL_EXPORTER_OTLP_ENDPOINT.
std::string signal_url(std::string_view base, std::string_view path);

}  // namespace hermes::internal
