#include "telemetry/otlp_json.hpp"

#include <cmath>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

#include "common/json_text.hpp"
#include "common/utf8.hpp"
#include "hermes/json.hpp"
#include "hermes/version.hpp"

namespace hermes::internal {
namespace {

std::string cut(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  return std::string(text.substr(0, utf8_prefix_length(text, max_bytes)));
}

// Strict JSON encoders (and so every collector) reject invalid UTF-8.
std::string text(std::string_view value) {
  return sanitize_utf8(value);
}

// int64/uint64/fixed64 fields are strings in the protobuf JSON mapping: a JavaScript
// number cannot hold them.
std::string decimal(int64_t value) {
  return std::to_string(value);
}
std::string decimal(uint64_t value) {
  return std::to_string(value);
}

Json number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  return value;
}

Json any_value(const AttributeValue& value) {
  return std::visit(
      [](const auto& v) -> Json {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::string>) {
          return {{"stringValue", text(v)}};
        } else if constexpr (std::is_same_v<T, int64_t>) {
          return {{"intValue", decimal(v)}};
        } else if constexpr (std::is_same_v<T, double>) {
          return {{"doubleValue", number(v)}};
        } else if constexpr (std::is_same_v<T, bool>) {
          return {{"boolValue", v}};
        } else {
          Json values = Json::array();
          for (const std::string& item : v) values.push_back({{"stringValue", text(item)}});
          return {{"arrayValue", {{"values", std::move(values)}}}};
        }
      },
      value);
}

Json attributes_json(const std::vector<Attribute>& attributes) {
  Json out = Json::array();
  for (const Attribute& attribute : attributes) {
    out.push_back({{"key", text(attribute.key)}, {"value", any_value(attribute.value)}});
  }
  return out;
}

Json scope_json() {
  return {{"name", "hermes"}, {"version", HERMES_VERSION_STRING}};
}

Json resource_json(const std::vector<Attribute>& resource) {
  return {{"attributes", attributes_json(resource)}};
}

// SpanKind in trace.proto: UNSPECIFIED 0, INTERNAL 1, SERVER 2, CLIENT 3.
int kind_number(SpanKind kind) {
  return kind == SpanKind::kClient ? 3 : 1;
}

// Status.StatusCode: UNSET 0, OK 1, ERROR 2.
int status_number(SpanStatusCode code) {
  switch (code) {
    case SpanStatusCode::kOk:
      return 1;
    case SpanStatusCode::kError:
      return 2;
    case SpanStatusCode::kUnset:
      break;
  }
  return 0;
}

// The spans are written straight to text, the members of each object in the order the
// JSON serialiser keeps them (sorted by key): a batch is most of what tracing costs.
void append_text(std::string& out, std::string_view value) {
  append_json_string(out, text(value));
}

void append_any_value(std::string& out, const AttributeValue& value) {
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::string>) {
          out += "{\"stringValue\":";
          append_text(out, v);
          out += '}';
        } else if constexpr (std::is_same_v<T, int64_t>) {
          out += "{\"intValue\":\"";
          out += decimal(v);
          out += "\"}";
        } else if constexpr (std::is_same_v<T, double>) {
          out += "{\"doubleValue\":";
          append_json(out, number(v));
          out += '}';
        } else if constexpr (std::is_same_v<T, bool>) {
          out += v ? "{\"boolValue\":true}" : "{\"boolValue\":false}";
        } else {
          out += "{\"arrayValue\":{\"values\":[";
          for (std::size_t i = 0; i < v.size(); ++i) {
            if (i > 0) out += ',';
            out += "{\"stringValue\":";
            append_text(out, v[i]);
            out += '}';
          }
          out += "]}}";
        }
      },
      value);
}

void append_attributes(std::string& out, const std::vector<Attribute>& attributes) {
  out += '[';
  for (std::size_t i = 0; i < attributes.size(); ++i) {
    if (i > 0) out += ',';
    out += "{\"key\":";
    append_text(out, attributes[i].key);
    out += ",\"value\":";
    append_any_value(out, attributes[i].value);
    out += '}';
  }
  out += ']';
}

void append_span(std::string& out, const QueuedSpan& queued) {
  const SpanData& span = queued.span;
  out += "{\"attributes\":";
  append_attributes(out, span.attributes);
  if (queued.dropped_attributes > 0) {
    out += ",\"droppedAttributesCount\":";
    out += std::to_string(queued.dropped_attributes);
  }
  out += ",\"endTimeUnixNano\":\"";
  out += decimal(span.end_time_unix_nano);
  out += "\",\"kind\":";
  out += std::to_string(kind_number(span.kind));
  out += ",\"name\":";
  append_text(out, span.name);
  if (span.parent_span_id.valid()) {
    out += ",\"parentSpanId\":\"";
    out += span.parent_span_id.hex();
    out += '"';
  }
  out += ",\"spanId\":\"";
  out += span.context.span_id.hex();
  out += "\",\"startTimeUnixNano\":\"";
  out += decimal(span.start_time_unix_nano);
  out += "\",\"status\":{\"code\":";
  out += std::to_string(status_number(span.status));
  if (!span.status_message.empty()) {
    out += ",\"message\":";
    append_text(out, span.status_message);
  }
  out += "},\"traceId\":\"";
  out += span.context.trace_id.hex();
  out += "\"}";
}

Json sum_json(const MetricSeries& series, const std::string& start, const std::string& now) {
  Json points = Json::array();
  for (const MetricPoint& point : series.points) {
    points.push_back({{"attributes", attributes_json(point.attributes)},
                      {"startTimeUnixNano", start},
                      {"timeUnixNano", now},
                      {"asDouble", number(point.sum)}});
  }
  // AggregationTemporality: DELTA 1, CUMULATIVE 2.
  return {{"dataPoints", std::move(points)}, {"aggregationTemporality", 2}, {"isMonotonic", true}};
}

Json histogram_json(const MetricSeries& series, const std::string& start, const std::string& now) {
  Json points = Json::array();
  for (const MetricPoint& point : series.points) {
    Json buckets = Json::array();
    for (uint64_t count : point.bucket_counts) buckets.push_back(decimal(count));
    Json bounds = Json::array();
    for (double bound : series.bounds) bounds.push_back(number(bound));
    Json out = {{"attributes", attributes_json(point.attributes)},
                {"startTimeUnixNano", start},
                {"timeUnixNano", now},
                {"count", decimal(point.count)},
                {"sum", number(point.sum)},
                {"bucketCounts", std::move(buckets)},
                {"explicitBounds", std::move(bounds)}};
    if (point.count > 0) {
      out["min"] = number(point.min);
      out["max"] = number(point.max);
    }
    points.push_back(std::move(out));
  }
  return {{"dataPoints", std::move(points)}, {"aggregationTemporality", 2}};
}

}  // namespace

AttributeValue bounded_value(const AttributeValue& value) {
  if (const auto* s = std::get_if<std::string>(&value)) {
    return cut(*s, kMaxAttributeValueBytes);
  }
  if (const auto* list = std::get_if<std::vector<std::string>>(&value)) {
    std::vector<std::string> out;
    out.reserve(list->size());
    // The whole array within one value's budget: a list of many long strings is cut too.
    std::size_t budget = kMaxAttributeValueBytes;
    for (const std::string& item : *list) {
      if (budget == 0) break;
      out.push_back(cut(item, budget));
      budget -= out.back().size();
    }
    return out;
  }
  return value;
}

QueuedSpan bounded_copy(const SpanData& span) {
  QueuedSpan out;
  SpanData& copy = out.span;
  copy.context = span.context;
  copy.parent_span_id = span.parent_span_id;
  copy.name = cut(span.name, kMaxNameBytes);
  copy.kind = span.kind;
  copy.start_time_unix_nano = span.start_time_unix_nano;
  copy.end_time_unix_nano = span.end_time_unix_nano;
  copy.status = span.status;
  copy.status_message = cut(span.status_message, kMaxAttributeValueBytes);
  const std::size_t kept = std::min(span.attributes.size(), kMaxSpanAttributes);
  copy.attributes.reserve(kept);
  for (std::size_t i = 0; i < kept; ++i) {
    const Attribute& attribute = span.attributes[i];
    copy.attributes.push_back({cut(attribute.key, kMaxNameBytes), bounded_value(attribute.value)});
  }
  out.dropped_attributes = static_cast<uint32_t>(span.attributes.size() - kept);
  out.bytes = 256 + copy.name.size() + copy.status_message.size();
  for (const Attribute& attribute : copy.attributes) {
    out.bytes += 48 + attribute.key.size();
    if (const auto* s = std::get_if<std::string>(&attribute.value)) out.bytes += s->size();
    if (const auto* list = std::get_if<std::vector<std::string>>(&attribute.value)) {
      for (const std::string& item : *list) out.bytes += 24 + item.size();
    }
  }
  return out;
}

std::vector<Attribute> make_resource(const std::string& service_name,
                                     const std::vector<Attribute>& extra) {
  std::vector<Attribute> out;
  bool named = false;
  for (const Attribute& attribute : extra) named = named || attribute.key == "service.name";
  if (!named) out.push_back({"service.name", cut(service_name, kMaxAttributeValueBytes)});
  for (const Attribute& attribute : extra) {
    out.push_back({cut(attribute.key, kMaxNameBytes), bounded_value(attribute.value)});
  }
  out.push_back({"telemetry.sdk.name", std::string("hermes")});
  out.push_back({"telemetry.sdk.language", std::string("cpp")});
  out.push_back({"telemetry.sdk.version", std::string(HERMES_VERSION_STRING)});
  return out;
}

std::string encode_traces(const std::vector<Attribute>& resource,
                          const std::vector<QueuedSpan>& spans) {
  std::size_t expected = 256;
  for (const QueuedSpan& span : spans) expected += span.bytes;
  std::string out;
  out.reserve(expected);
  out += "{\"resourceSpans\":[{\"resource\":{\"attributes\":";
  append_attributes(out, resource);
  out += "},\"scopeSpans\":[{\"scope\":{\"name\":\"hermes\",\"version\":";
  append_text(out, HERMES_VERSION_STRING);
  out += "},\"spans\":[";
  for (std::size_t i = 0; i < spans.size(); ++i) {
    if (i > 0) out += ',';
    append_span(out, spans[i]);
  }
  out += "]}]}]}";
  return out;
}

std::string encode_metrics(const std::vector<Attribute>& resource,
                           const std::vector<MetricSeries>& metrics, int64_t start_unix_nano,
                           int64_t now_unix_nano) {
  const std::string start = decimal(start_unix_nano);
  const std::string now = decimal(now_unix_nano);
  Json list = Json::array();
  for (const MetricSeries& series : metrics) {
    Json metric = {{"name", text(series.name)}};
    if (!series.unit.empty()) metric["unit"] = text(series.unit);
    if (!series.description.empty()) metric["description"] = text(series.description);
    if (series.kind == MetricKind::kCounter) {
      metric["sum"] = sum_json(series, start, now);
    } else {
      metric["histogram"] = histogram_json(series, start, now);
    }
    list.push_back(std::move(metric));
  }
  Json scope_metrics = Json::array({{{"scope", scope_json()}, {"metrics", std::move(list)}}});
  Json resource_metrics = Json::array(
      {{{"resource", resource_json(resource)}, {"scopeMetrics", std::move(scope_metrics)}}});
  return dump_json({{"resourceMetrics", std::move(resource_metrics)}});
}

}  // namespace hermes::internal
