// The value types of hermes/tracing.hpp: ids, W3C traceparent, span lookups, and the
// TraceSink defaults.
#include <algorithm>
#include <string>
#include <string_view>

#include "hermes/tracing.hpp"

namespace hermes {
namespace {

template <std::size_t N>
bool any_set(const std::array<uint8_t, N>& bytes) {
  return std::any_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b != 0; });
}

template <std::size_t N>
std::string to_hex(const std::array<uint8_t, N>& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(N * 2, '0');
  for (std::size_t i = 0; i < N; ++i) {
    out[2 * i] = kDigits[bytes[i] >> 4];
    out[2 * i + 1] = kDigits[bytes[i] & 0xF];
  }
  return out;
}

int lower_hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;  // W3C Trace Context allows lowercase only.
}

template <std::size_t N>
bool from_hex(std::string_view text, std::array<uint8_t, N>& bytes) {
  if (text.size() != N * 2) return false;
  for (std::size_t i = 0; i < N; ++i) {
    int high = lower_hex_digit(text[2 * i]);
    int low = lower_hex_digit(text[2 * i + 1]);
    if (high < 0 || low < 0) return false;
    bytes[i] = static_cast<uint8_t>(high << 4 | low);
  }
  return true;
}

}  // namespace

bool TraceId::valid() const {
  return any_set(bytes);
}
std::string TraceId::hex() const {
  return to_hex(bytes);
}
bool SpanId::valid() const {
  return any_set(bytes);
}
std::string SpanId::hex() const {
  return to_hex(bytes);
}

std::string SpanContext::traceparent() const {
  return "00-" + trace_id.hex() + "-" + span_id.hex() + (sampled ? "-01" : "-00");
}

std::optional<SpanContext> SpanContext::from_traceparent(std::string_view value) {
  // version "-" trace-id "-" parent-id "-" flags: 2 + 1 + 32 + 1 + 16 + 1 + 2 = 55.
  // Version 00 is exactly that; a later version may append "-" and more fields.
  if (value.size() < 55) return std::nullopt;
  std::array<uint8_t, 1> version{};
  std::array<uint8_t, 1> flags{};
  SpanContext context;
  if (!from_hex(value.substr(0, 2), version) || version[0] == 0xFF || value[2] != '-' ||
      !from_hex(value.substr(3, 32), context.trace_id.bytes) || value[35] != '-' ||
      !from_hex(value.substr(36, 16), context.span_id.bytes) || value[52] != '-' ||
      !from_hex(value.substr(53, 2), flags)) {
    return std::nullopt;
  }
  if (value.size() > 55 && (version[0] == 0 || value[55] != '-')) return std::nullopt;
  if (!context.valid()) return std::nullopt;
  context.sampled = (flags[0] & 1) != 0;
  return context;
}

namespace {

Json attributes_json(const std::vector<Attribute>& attributes) {
  Json out = Json::object();
  for (const auto& attribute : attributes) {
    std::visit([&](const auto& value) { out[attribute.key] = value; }, attribute.value);
  }
  return out;
}

const char* status_name(SpanStatusCode code) {
  switch (code) {
    case SpanStatusCode::kOk:
      return "ok";
    case SpanStatusCode::kError:
      return "error";
    default:
      return "unset";
  }
}

}  // namespace

Json span_to_json(const SpanData& span) {
  return Json{
      {"trace_id", span.context.trace_id.hex()},
      {"span_id", span.context.span_id.hex()},
      {"parent_span_id", span.parent_span_id.valid() ? span.parent_span_id.hex() : ""},
      {"name", span.name},
      {"kind", span.kind == SpanKind::kClient ? "client" : "internal"},
      {"start_time_unix_nano", span.start_time_unix_nano},
      {"end_time_unix_nano", span.end_time_unix_nano},
      {"status", status_name(span.status)},
      {"status_message", span.status_message},
      {"attributes", attributes_json(span.attributes)},
  };
}

Json metric_to_json(const MetricRecord& metric) {
  return Json{
      {"name", std::string(metric.name)},
      {"kind", metric.kind == MetricKind::kHistogram ? "histogram" : "counter"},
      {"unit", std::string(metric.unit)},
      {"value", metric.value},
      {"time_unix_nano", metric.time_unix_nano},
      {"attributes", attributes_json(metric.attributes)},
  };
}

const AttributeValue* SpanData::find(std::string_view key) const {
  for (const auto& attribute : attributes) {
    if (attribute.key == key) return &attribute.value;
  }
  return nullptr;
}

TraceSink::~TraceSink() = default;
void TraceSink::on_start(const SpanData& /*span*/) {}
void TraceSink::on_metric(const MetricRecord& /*metric*/) {}
void TraceSink::flush(std::chrono::milliseconds /*timeout*/) {}

}  // namespace hermes
