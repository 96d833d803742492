"""Tracing from Python: a sink object receives span and metric dicts; OtlpExporter sends
them over OTLP/HTTP; hermes.otel.OpenTelemetrySink forwards them to the opentelemetry API
with the same tree. opentelemetry-api is not installable here, so the last is checked
against a stand-in of the API's calls the adapter makes (fake_opentelemetry below)."""
import json
import sys
import threading
import types

import pytest

import hermes

TOOL = (lambda args: {"sum": args["a"] + args["b"]},
        {"name": "add", "description": "Add.",
         "parameters": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}}})


def make_agent(mock_server, tmp_path, **kwargs):
    return hermes.Agent(model="mock-model", base_url=mock_server.base_url, api_key="sk-test",
                        home=str(tmp_path), persist_sessions=False, background_review=False,
                        tools=[TOOL], retry_backoff={"base": 0.001, "max": 0.001}, **kwargs)


def script(mock_server):
    mock_server.enqueue(
        {"chat_error": {"status": 500, "message": "upstream fell over"}},
        {"chat_tool_calls": [{"id": "call_1", "name": "add", "arguments": {"a": 2, "b": 40}}], "stream": True},
        {"chat_text": "42.", "stream": True},
    )


class Recorder:
    def __init__(self):
        self.lock = threading.Lock()
        self.started, self.ended, self.metrics = [], [], []

    def on_start(self, span):
        with self.lock:
            self.started.append(span)

    def on_end(self, span):
        with self.lock:
            self.ended.append(span)

    def on_metric(self, metric):
        with self.lock:
            self.metrics.append(metric)


def test_a_python_sink_sees_the_span_tree_and_metrics(mock_server, tmp_path):
    script(mock_server)
    sink = Recorder()
    agent = make_agent(mock_server, tmp_path, trace_sink=sink)
    assert agent.chat("2+40?") == "42."

    by_id = {s["span_id"]: s for s in sink.ended}
    assert len(by_id) == len(sink.ended) == len(sink.started)
    parent = {s["span_id"]: by_id.get(s["parent_span_id"], {}).get("name", "") for s in sink.ended}
    pairs = sorted((s["name"], parent[s["span_id"]]) for s in sink.ended if s["name"] != "hermes.store.write")
    assert pairs == sorted([
        ("invoke_agent hermes", ""),
        ("hermes.step", "invoke_agent hermes"), ("hermes.step", "invoke_agent hermes"),
        ("chat mock-model", "hermes.step"), ("chat mock-model", "hermes.step"),
        ("chat mock-model", "hermes.step"), ("execute_tool add", "hermes.step"),
    ])
    failed = [s for s in sink.ended if s["status"] == "error"]
    assert len(failed) == 1
    assert failed[0]["attributes"]["error.type"] == "server_error"
    assert failed[0]["attributes"]["http.response.status_code"] == 500
    tool = next(s for s in sink.ended if s["name"] == "execute_tool add")
    assert tool["attributes"]["gen_ai.tool.call.id"] == "call_1"
    assert "gen_ai.tool.call.arguments" not in tool["attributes"]
    calls = [m for m in sink.metrics if m["name"] == "hermes.model_calls"]
    assert sum(m["value"] for m in calls) == 3
    assert {m["kind"] for m in calls} == {"counter"}


def test_options_are_checked(mock_server, tmp_path):
    with pytest.raises(TypeError, match="trace_sink: expected a hermes.OtlpExporter"):
        make_agent(mock_server, tmp_path, trace_sink=object())
    with pytest.raises(ValueError, match="tracing.traceparent"):
        make_agent(mock_server, tmp_path, trace_sink=Recorder(), traceparent="00-zz")
    with pytest.raises(ValueError, match="OTLP|endpoint|URL|url"):
        hermes.OtlpExporter("not a url")


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_sink_that_raises_does_not_break_the_turn(mock_server, tmp_path):
    class Broken:
        def on_end(self, span):
            raise RuntimeError("sink broke")

    mock_server.enqueue({"chat_text": "Fine.", "stream": True})
    agent = make_agent(mock_server, tmp_path, trace_sink=Broken())
    assert agent.chat("Hi") == "Fine."


def test_the_otlp_exporter_sends_to_a_receiver(mock_server, tmp_path, monkeypatch):
    # The mock server records any POST; it stands in for a collector on loopback, its
    # answers to /v1/traces and /v1/metrics kept apart from the model's.
    receiver_url = mock_server.url
    for path in ("/v1/traces", "/v1/metrics") * 2:
        mock_server.enqueue({"body": "{}", "path_prefix": path})
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver_url)
    monkeypatch.setenv("OTEL_SERVICE_NAME", "python-test")
    exporter = hermes.OtlpExporter.from_environment()
    assert exporter is not None and exporter.traces_url == receiver_url + "/v1/traces"
    monkeypatch.setenv("OTEL_SDK_DISABLED", "true")
    assert hermes.OtlpExporter.from_environment() is None

    mock_server.enqueue({"chat_text": "Hi.", "stream": True})
    agent = make_agent(mock_server, tmp_path, trace_sink=exporter)
    assert agent.chat("Hello") == "Hi."
    exporter.flush(10)
    stats = exporter.stats()
    assert stats["spans_exported"] >= 3 and stats["spans_dropped"] == 0
    posted = [r for r in mock_server.requests() if r["path"] == "/v1/traces"]
    assert posted
    body = json.loads(posted[0]["body"])
    names = {s["name"] for s in body["resourceSpans"][0]["scopeSpans"][0]["spans"]}
    assert {"invoke_agent hermes", "hermes.step", "chat mock-model"} <= names
    exporter.shutdown()


# --- hermes.otel against a stand-in of the opentelemetry API ---------------------------

class FakeSpan:
    def __init__(self, name, parent, kind, attributes, start_time):
        self.name, self.parent, self.kind = name, parent, kind
        self.attributes = dict(attributes or {})
        self.start_time, self.end_time, self.status = start_time, None, None

    def set_attributes(self, attributes):
        self.attributes.update(attributes)

    def set_status(self, status):
        self.status = status

    def end(self, end_time=None):
        self.end_time = end_time


def fake_opentelemetry(spans, measurements):
    """The subset of opentelemetry.trace / opentelemetry.metrics the adapter calls."""
    otel = types.ModuleType("opentelemetry")
    trace = types.ModuleType("opentelemetry.trace")
    metrics = types.ModuleType("opentelemetry.metrics")
    trace.SpanKind = types.SimpleNamespace(CLIENT="client", INTERNAL="internal")
    trace.TraceFlags = type("TraceFlags", (int,), {"SAMPLED": 1})
    trace.SpanContext = lambda **fields: types.SimpleNamespace(**fields)
    trace.NonRecordingSpan = lambda context: types.SimpleNamespace(remote=context)
    trace.set_span_in_context = lambda span: {"span": span}
    trace.StatusCode = types.SimpleNamespace(ERROR="ERROR")
    trace.Status = lambda code, description=None: (code, description)

    class Tracer:
        def start_span(self, name, context=None, kind=None, attributes=None, start_time=None):
            span = FakeSpan(name, context["span"] if context else None, kind, attributes, start_time)
            spans.append(span)
            return span

    trace.get_tracer = lambda name, version=None, provider=None: Tracer()

    class Instrument:
        def __init__(self, name, kind):
            self.name, self.kind = name, kind

        def add(self, value, attributes=None):
            measurements.append((self.name, self.kind, value))

        def record(self, value, attributes=None):
            measurements.append((self.name, self.kind, value))

    class Meter:
        def create_counter(self, name, unit=""):
            return Instrument(name, "counter")

        def create_histogram(self, name, unit=""):
            return Instrument(name, "histogram")

    metrics.get_meter = lambda name, version=None, provider=None: Meter()
    otel.trace, otel.metrics = trace, metrics
    return {"opentelemetry": otel, "opentelemetry.trace": trace, "opentelemetry.metrics": metrics}


def test_the_opentelemetry_sink_rebuilds_the_tree(mock_server, tmp_path, monkeypatch):
    spans, measurements = [], []
    for name, module in fake_opentelemetry(spans, measurements).items():
        monkeypatch.setitem(sys.modules, name, module)
    from hermes.otel import OpenTelemetrySink

    script(mock_server)
    traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    agent = make_agent(mock_server, tmp_path, trace_sink=OpenTelemetrySink(), traceparent=traceparent)
    assert agent.chat("2+40?") == "42."

    turn = next(s for s in spans if s.name == "invoke_agent hermes")
    # The turn continues the caller's trace from the traceparent.
    assert turn.parent.remote.trace_id == int("4bf92f3577b34da6a3ce929d0e0e4736", 16)
    assert turn.parent.remote.span_id == int("00f067aa0ba902b7", 16)
    steps = [s for s in spans if s.name == "hermes.step"]
    assert len(steps) == 2 and all(s.parent is turn for s in steps)
    chats = [s for s in spans if s.name == "chat mock-model"]
    assert len(chats) == 3 and all(s.parent in steps for s in chats)
    assert all(s.kind == "client" for s in chats)
    assert [s.status for s in chats if s.status] == [("ERROR", chats[0].status[1])]
    tool = next(s for s in spans if s.name == "execute_tool add")
    assert tool.parent in steps and tool.attributes["gen_ai.tool.name"] == "add"
    for s in spans:
        assert s.end_time is not None and s.end_time >= s.start_time
    assert ("hermes.model_calls", "counter", 3.0) not in measurements  # One add per call:
    assert sum(v for n, k, v in measurements if n == "hermes.model_calls") == 3
    assert {k for n, k, v in measurements if n == "gen_ai.client.operation.duration"} == {"histogram"}
