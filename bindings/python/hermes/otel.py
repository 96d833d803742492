"""Forwarding hermes' spans and metrics to the OpenTelemetry API.

When an application already runs the OpenTelemetry SDK (its tracer provider, exporters
and sampling), hermes' spans belong in it::

    import hermes
    from hermes.otel import OpenTelemetrySink

    agent = hermes.Agent(model="gpt-4.1-mini", trace_sink=OpenTelemetrySink())

Each hermes span becomes an OpenTelemetry span with the same name, kind, times,
attributes and status, under the same parent: the turn's span under the span current
where ``chat()`` was called (or under ``traceparent``), the rest under the turn. The ids
are the tracer provider's own. Measurements go to instruments of a meter named "hermes":
counters (``add``) and histograms (``record``).

Needs the ``opentelemetry-api`` package; creating the sink without it raises ImportError.
"""

import threading
from typing import Any, Dict, Optional

from ._native import __version__

__all__ = ["OpenTelemetrySink"]


class OpenTelemetrySink:
    """A hermes trace sink (``hermes.Agent(trace_sink=...)``) over the OpenTelemetry API."""

    def __init__(self, tracer_provider: Any = None, meter_provider: Any = None) -> None:
        try:
            from opentelemetry import metrics, trace
        except ImportError as error:  # pragma: no cover - depends on the environment
            raise ImportError(
                "hermes.otel needs the opentelemetry-api package (pip install opentelemetry-api)"
            ) from error
        self._trace = trace
        self._tracer = trace.get_tracer("hermes", __version__, tracer_provider)
        self._meter = metrics.get_meter("hermes", __version__, meter_provider)
        self._lock = threading.Lock()
        self._open: Dict[str, Any] = {}  # hermes span id -> the OpenTelemetry span.
        self._instruments: Dict[str, Any] = {}

    # Spans ---------------------------------------------------------------------------

    def on_start(self, span: Dict[str, Any]) -> None:
        started = self._start(span)
        with self._lock:
            self._open[span["span_id"]] = started

    def on_end(self, span: Dict[str, Any]) -> None:
        with self._lock:
            started = self._open.pop(span["span_id"], None)
        if started is None:  # The start was not seen (a sink attached mid-turn).
            started = self._start(span)
        started.set_attributes(span["attributes"])
        if span["status"] == "error":
            from opentelemetry.trace import Status, StatusCode

            started.set_status(Status(StatusCode.ERROR, span["status_message"] or None))
        started.end(end_time=span["end_time_unix_nano"])

    def _start(self, span: Dict[str, Any]) -> Any:
        trace = self._trace
        kind = trace.SpanKind.CLIENT if span["kind"] == "client" else trace.SpanKind.INTERNAL
        return self._tracer.start_span(
            span["name"],
            context=self._parent_context(span),
            kind=kind,
            attributes=span["attributes"],
            start_time=span["start_time_unix_nano"],
        )

    def _parent_context(self, span: Dict[str, Any]) -> Optional[Any]:
        parent_id = span["parent_span_id"]
        if not parent_id:
            return None  # The current context: the caller's span, if any.
        with self._lock:
            parent = self._open.get(parent_id)
        trace = self._trace
        if parent is None:
            # A parent outside this sink (traceparent): continue that trace as given.
            parent = trace.NonRecordingSpan(
                trace.SpanContext(
                    trace_id=int(span["trace_id"], 16),
                    span_id=int(parent_id, 16),
                    is_remote=True,
                    trace_flags=trace.TraceFlags(trace.TraceFlags.SAMPLED),
                )
            )
        return trace.set_span_in_context(parent)

    # Metrics -------------------------------------------------------------------------

    def on_metric(self, metric: Dict[str, Any]) -> None:
        name = metric["name"]
        with self._lock:
            instrument = self._instruments.get(name)
            if instrument is None:
                if metric["kind"] == "counter":
                    instrument = self._meter.create_counter(name, unit=metric["unit"])
                else:
                    instrument = self._meter.create_histogram(name, unit=metric["unit"])
                self._instruments[name] = instrument
        if metric["kind"] == "counter":
            instrument.add(metric["value"], attributes=metric["attributes"])
        else:
            instrument.record(metric["value"], attributes=metric["attributes"])
