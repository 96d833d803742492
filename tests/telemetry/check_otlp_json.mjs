// Checks hermes' OTLP/JSON request bodies against the OpenTelemetry JS encoders
// (@opentelemetry/otlp-transformer's JsonTraceSerializer and JsonMetricsSerializer).
//
//   node check_otlp_json.mjs REFERENCE_DIR PAYLOAD_DIR
//
// REFERENCE_DIR holds the node_modules that scripts/install-otlp-reference installs;
// PAYLOAD_DIR the traces-*.json and metrics-*.json files tests/telemetry/otlp_payloads
// wrote. For each body, the spans (or metrics) it describes are rebuilt as the JS SDK's
// ReadableSpan (or ResourceMetrics) objects, reading only the field names OTLP defines,
// and encoded again by the reference serializer. The two JSON trees must then agree:
//   - every field hermes wrote exists in the reference encoding with the same value (a
//     misspelled or misplaced field, a wrong enum number, an id or time that is off fails);
//   - every field of the reference encoding that carries information is in hermes' body;
//   - 64-bit integers (times, intValue, counts) are decimal strings in hermes' body, where
//     the JS encoder writes JSON numbers (both are valid OTLP/JSON; hermes chose strings);
//   - trace and span ids are lowercase hex of the right length, not base64;
//   - the protobuf serializers accept the rebuilt objects.
// Before the payloads, the check runs on deliberately broken copies of a body and must
// reject each one, so that it cannot pass by accepting everything.
// Prints one line per file; exits 1 on the first mismatch.
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

const [referenceDir, payloadDir] = process.argv.slice(2);
if (!referenceDir || !payloadDir) {
  console.error("usage: node check_otlp_json.mjs REFERENCE_DIR PAYLOAD_DIR");
  process.exit(2);
}
const require = createRequire(path.join(path.resolve(referenceDir), "package.json"));
const transformer = require("@opentelemetry/otlp-transformer");
const metricsSdk = require("@opentelemetry/sdk-metrics");
const api = require("@opentelemetry/api");

class Mismatch extends Error {}
function fail(where, message) {
  throw new Mismatch(`${where}: ${message}`);
}

// --- Reading hermes' body into the SDK's objects -------------------------------------

const INT64_FIELDS = new Set([
  "intValue", "startTimeUnixNano", "endTimeUnixNano", "timeUnixNano", "count", "asInt",
]);

function nanosToHrTime(text, where) {
  if (typeof text !== "string" || !/^[0-9]+$/.test(text)) {
    fail(where, `not a decimal string of nanoseconds: ${JSON.stringify(text)}`);
  }
  const nanos = BigInt(text);
  return [Number(nanos / 1000000000n), Number(nanos % 1000000000n)];
}

function anyValueToJs(value, where) {
  if (value === null || typeof value !== "object") fail(where, "AnyValue is not an object");
  const keys = Object.keys(value);
  if (keys.length !== 1) fail(where, `AnyValue must have one field, has ${keys}`);
  if ("stringValue" in value) return value.stringValue;
  if ("boolValue" in value) return value.boolValue;
  if ("doubleValue" in value) return value.doubleValue;
  if ("intValue" in value) return Number(value.intValue);
  if ("arrayValue" in value) {
    return (value.arrayValue.values ?? []).map((v, i) => anyValueToJs(v, `${where}[${i}]`));
  }
  fail(where, `unknown AnyValue field ${keys[0]}`);
}

function attributesToJs(list, where) {
  if (!Array.isArray(list)) fail(where, "attributes is not an array");
  const out = {};
  list.forEach((kv, i) => {
    out[kv.key] = anyValueToJs(kv.value, `${where}[${i}](${kv.key})`);
  });
  return out;
}

function checkId(id, length, where) {
  if (typeof id !== "string" || !new RegExp(`^[0-9a-f]{${length}}$`).test(id) || /^0+$/.test(id)) {
    fail(where, `not a non-zero ${length}-digit lowercase hex id: ${JSON.stringify(id)}`);
  }
}

// OTLP SpanKind (INTERNAL 1 .. CONSUMER 5) to the API's (INTERNAL 0 .. CONSUMER 4).
function spanKindToJs(kind, where) {
  if (!Number.isInteger(kind) || kind < 1 || kind > 5) fail(where, `bad span kind ${kind}`);
  return kind - 1;
}

function readableSpans(body) {
  const spans = [];
  (body.resourceSpans ?? []).forEach((rs, r) => {
    const resource = { attributes: attributesToJs(rs.resource?.attributes, `resourceSpans[${r}].resource`) };
    (rs.scopeSpans ?? []).forEach((ss, s) => {
      const scope = { name: ss.scope?.name, version: ss.scope?.version };
      (ss.spans ?? []).forEach((span, i) => {
        const where = `resourceSpans[${r}].scopeSpans[${s}].spans[${i}]`;
        checkId(span.traceId, 32, `${where}.traceId`);
        checkId(span.spanId, 16, `${where}.spanId`);
        if (span.parentSpanId !== undefined) checkId(span.parentSpanId, 16, `${where}.parentSpanId`);
        const context = { traceId: span.traceId, spanId: span.spanId, traceFlags: 1 };
        spans.push({
          name: span.name,
          kind: spanKindToJs(span.kind, `${where}.kind`),
          spanContext: () => context,
          parentSpanContext: span.parentSpanId
            ? { traceId: span.traceId, spanId: span.parentSpanId, traceFlags: 1 }
            : undefined,
          startTime: nanosToHrTime(span.startTimeUnixNano, `${where}.startTimeUnixNano`),
          endTime: nanosToHrTime(span.endTimeUnixNano, `${where}.endTimeUnixNano`),
          attributes: attributesToJs(span.attributes, `${where}.attributes`),
          droppedAttributesCount: span.droppedAttributesCount ?? 0,
          status: { code: span.status?.code, message: span.status?.message },
          events: [],
          links: [],
          droppedEventsCount: 0,
          droppedLinksCount: 0,
          resource,
          instrumentationScope: scope,
        });
      });
    });
  });
  return spans;
}

function temporality(value) {
  if (value === 1) return metricsSdk.AggregationTemporality.DELTA;
  if (value === 2) return metricsSdk.AggregationTemporality.CUMULATIVE;
  return undefined;
}

function metricToJs(metric, where) {
  const descriptor = {
    name: metric.name,
    description: metric.description,
    unit: metric.unit,
    valueType: api.ValueType.DOUBLE,
  };
  const point = (p, value, i) => ({
    startTime: nanosToHrTime(p.startTimeUnixNano, `${where}.dataPoints[${i}].startTimeUnixNano`),
    endTime: nanosToHrTime(p.timeUnixNano, `${where}.dataPoints[${i}].timeUnixNano`),
    attributes: attributesToJs(p.attributes, `${where}.dataPoints[${i}].attributes`),
    value,
  });
  if (metric.sum) {
    return {
      descriptor,
      dataPointType: metricsSdk.DataPointType.SUM,
      aggregationTemporality: temporality(metric.sum.aggregationTemporality),
      isMonotonic: metric.sum.isMonotonic,
      dataPoints: (metric.sum.dataPoints ?? []).map((p, i) => point(p, p.asDouble, i)),
    };
  }
  if (metric.histogram) {
    return {
      descriptor,
      dataPointType: metricsSdk.DataPointType.HISTOGRAM,
      aggregationTemporality: temporality(metric.histogram.aggregationTemporality),
      dataPoints: (metric.histogram.dataPoints ?? []).map((p, i) =>
        point(p, {
          buckets: { boundaries: p.explicitBounds, counts: (p.bucketCounts ?? []).map(Number) },
          count: Number(p.count),
          sum: p.sum,
          min: p.min,
          max: p.max,
        }, i)),
    };
  }
  fail(where, "neither a sum nor a histogram");
}

function resourceMetrics(body) {
  return (body.resourceMetrics ?? []).map((rm, r) => ({
    resource: { attributes: attributesToJs(rm.resource?.attributes, `resourceMetrics[${r}].resource`) },
    scopeMetrics: (rm.scopeMetrics ?? []).map((sm, s) => ({
      scope: { name: sm.scope?.name, version: sm.scope?.version },
      metrics: (sm.metrics ?? []).map((m, i) =>
        metricToJs(m, `resourceMetrics[${r}].scopeMetrics[${s}].metrics[${i}]`)),
    })),
  }));
}

// --- Comparing hermes' tree with the reference encoding -----------------------------

// Reference fields hermes may leave out: they are empty, zero, or say nothing hermes
// knows (span flags, trace state, schema URLs).
const OPTIONAL_FIELDS = new Set(["flags", "traceState", "schemaUrl"]);
function isDefault(value) {
  return value === undefined || value === 0 || value === "" || value === false ||
    (Array.isArray(value) && value.length === 0);
}

function compare(ours, theirs, where, key) {
  if (INT64_FIELDS.has(key) || key === "bucketCounts[]") {
    if (typeof ours !== "string" || !/^-?[0-9]+$/.test(ours)) {
      fail(where, `a 64-bit integer must be a decimal string, is ${JSON.stringify(ours)}`);
    }
    if (BigInt(ours) !== BigInt(theirs)) fail(where, `${ours} != reference ${theirs}`);
    return;
  }
  if (Array.isArray(theirs)) {
    if (!Array.isArray(ours) || ours.length !== theirs.length) {
      fail(where, `array of ${ours?.length} != reference's ${theirs.length}`);
    }
    const itemKey = key === "bucketCounts" ? "bucketCounts[]" : "";
    ours.forEach((item, i) => compare(item, theirs[i], `${where}[${i}]`, itemKey));
    return;
  }
  if (theirs !== null && typeof theirs === "object") {
    if (ours === null || typeof ours !== "object" || Array.isArray(ours)) {
      fail(where, `not an object: ${JSON.stringify(ours)}`);
    }
    for (const k of Object.keys(ours)) {
      if (!(k in theirs)) fail(`${where}.${k}`, "not a field of the reference encoding");
      compare(ours[k], theirs[k], `${where}.${k}`, k);
    }
    for (const k of Object.keys(theirs)) {
      if (!(k in ours) && !OPTIONAL_FIELDS.has(k) && !isDefault(theirs[k])) {
        fail(`${where}.${k}`, `missing (reference: ${JSON.stringify(theirs[k])})`);
      }
    }
    return;
  }
  if (ours !== theirs) fail(where, `${JSON.stringify(ours)} != reference ${JSON.stringify(theirs)}`);
}

function reencode(serializer, objects) {
  return JSON.parse(new TextDecoder().decode(serializer.serializeRequest(objects)));
}

function check(kind, body) {
  if (kind === "traces") {
    const spans = readableSpans(body);
    if (spans.length === 0) fail("traces", "no spans");
    compare(body, reencode(transformer.JsonTraceSerializer, spans), "traces", "");
    if (!(transformer.ProtobufTraceSerializer.serializeRequest(spans)?.length > 0)) {
      fail("traces", "the protobuf serializer refused the spans");
    }
    return `${spans.length} spans`;
  }
  const metrics = resourceMetrics(body);
  const count = metrics.flatMap((rm) => rm.scopeMetrics.flatMap((sm) => sm.metrics)).length;
  if (count === 0) fail("metrics", "no metrics");
  // The serializer takes one ResourceMetrics; hermes sends one resource per request.
  if (metrics.length !== 1) fail("metrics", `${metrics.length} resources in one request`);
  const reference = reencode(transformer.JsonMetricsSerializer, metrics[0]);
  compare(body, reference, "metrics", "");
  if (!(transformer.ProtobufMetricsSerializer.serializeRequest(metrics[0])?.length > 0)) {
    fail("metrics", "the protobuf serializer refused the metrics");
  }
  return `${count} metrics`;
}

// --- The check of the check ---------------------------------------------------------

function brokenCopies(kind, body) {
  const copy = () => structuredClone(body);
  const cases = [];
  const add = (name, mutate) => {
    const c = copy();
    mutate(c);
    cases.push([name, c]);
  };
  if (kind === "traces") {
    const span = (c) => c.resourceSpans[0].scopeSpans[0].spans[0];
    add("a misspelled field", (c) => { const s = span(c); s.spanID = s.spanId; delete s.spanId; });
    add("snake_case", (c) => { const s = span(c); s.start_time_unix_nano = s.startTimeUnixNano; delete s.startTimeUnixNano; });
    add("a base64 id", (c) => { span(c).traceId = Buffer.from(span(c).traceId, "hex").toString("base64"); });
    add("a time as a number", (c) => { span(c).endTimeUnixNano = Number(span(c).endTimeUnixNano); });
    add("a kind as a name", (c) => { span(c).kind = "SPAN_KIND_CLIENT"; });
    add("an intValue as a number", (c) => {
      const a = c.resourceSpans[0].scopeSpans[0].spans.flatMap((s) => s.attributes)
        .find((kv) => "intValue" in kv.value);
      a.value.intValue = Number(a.value.intValue);
    });
    add("a field in the wrong place", (c) => { c.resourceSpans[0].scope = c.resourceSpans[0].scopeSpans[0].scope; });
  } else {
    const metric = (c, k) => c.resourceMetrics[0].scopeMetrics[0].metrics.find((m) => k in m);
    add("a temporality as a name", (c) => { metric(c, "sum").sum.aggregationTemporality = "AGGREGATION_TEMPORALITY_CUMULATIVE"; });
    add("asInt for a double sum", (c) => { const p = metric(c, "sum").sum.dataPoints[0]; p.asInt = String(p.asDouble); delete p.asDouble; });
    add("bucket counts as numbers", (c) => { const p = metric(c, "histogram").histogram.dataPoints[0]; p.bucketCounts = p.bucketCounts.map(Number); });
    add("a missing count", (c) => { delete metric(c, "histogram").histogram.dataPoints[0].count; });
    add("a misspelled field", (c) => { const h = metric(c, "histogram").histogram; h.dataPoint = h.dataPoints; });
  }
  return cases;
}

// --- Main -----------------------------------------------------------------------------

const files = fs.readdirSync(payloadDir).filter((f) => /^(traces|metrics)-\d+\.json$/.test(f)).sort();
if (!files.some((f) => f.startsWith("traces")) || !files.some((f) => f.startsWith("metrics"))) {
  console.error(`check_otlp_json: no traces-*.json and metrics-*.json in ${payloadDir}`);
  process.exit(1);
}
let failed = false;
const selfChecked = new Set();
for (const file of files) {
  const kind = file.startsWith("traces") ? "traces" : "metrics";
  const body = JSON.parse(fs.readFileSync(path.join(payloadDir, file), "utf8"));
  try {
    console.log(`${file}: ok (${check(kind, body)})`);
  } catch (err) {
    if (!(err instanceof Mismatch)) throw err;
    console.log(`${file}: MISMATCH ${err.message}`);
    failed = true;
    continue;
  }
  if (selfChecked.has(kind)) continue;
  selfChecked.add(kind);
  for (const [name, broken] of brokenCopies(kind, body)) {
    let rejected = false;
    try {
      check(kind, broken);
    } catch (err) {
      rejected = true;
    }
    if (!rejected) {
      console.log(`${file}: the check accepted a broken copy (${name})`);
      failed = true;
    }
  }
  console.log(`${file}: broken copies rejected`);
}
process.exit(failed ? 1 : 0);
