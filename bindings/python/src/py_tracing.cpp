// Tracing from Python: hermes.OtlpExporter, and any object with on_end(span) (and
// optionally on_start(span), on_metric(metric), flush(timeout)) as a trace sink, which
// is how hermes.otel.OpenTelemetrySink forwards to the opentelemetry API.
#include "py_tracing.hpp"

#include <pybind11/stl.h>

#include <chrono>
#include <string>
#include <utility>

#include "hermes/otlp_exporter.hpp"
#include "json_convert.hpp"
#include "py_common.hpp"

namespace py = pybind11;

namespace hermes::python {
namespace {

std::chrono::milliseconds seconds_arg(double seconds, const char* what) {
  if (!(seconds > 0) || seconds > 366.0 * 86400) {
    throw py::value_error(std::string(what) + ": expected a positive number of seconds");
  }
  return std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
}

// Spans and metrics handed to a Python object as dicts (span_to_json, metric_to_json).
// Called from the turn's thread and tool workers with the GIL released: each call takes
// it. A method that raises is reported as unraisable and the turn goes on.
class PyTraceSink : public TraceSink {
 public:
  explicit PyTraceSink(const py::object& sink)
      : sink_(std::make_shared<PyRef>(sink)),
        has_start_(py::hasattr(sink, "on_start")),
        has_metric_(py::hasattr(sink, "on_metric")),
        has_flush_(py::hasattr(sink, "flush")) {}

  void on_start(const SpanData& span) override {
    if (!has_start_) return;
    Json j = span_to_json(span);
    run_guarded("hermes trace sink on_start", [&] { sink_->get().attr("on_start")(to_python(j)); });
  }
  void on_end(const SpanData& span) override {
    Json j = span_to_json(span);
    run_guarded("hermes trace sink on_end", [&] { sink_->get().attr("on_end")(to_python(j)); });
  }
  void on_metric(const MetricRecord& metric) override {
    if (!has_metric_) return;
    Json j = metric_to_json(metric);
    run_guarded("hermes trace sink on_metric",
                [&] { sink_->get().attr("on_metric")(to_python(j)); });
  }
  void flush(std::chrono::milliseconds timeout) override {
    if (!has_flush_) return;
    run_guarded("hermes trace sink flush",
                [&] { sink_->get().attr("flush")(static_cast<double>(timeout.count()) / 1000.0); });
  }

 private:
  std::shared_ptr<PyRef> sink_;
  bool has_start_, has_metric_, has_flush_;
};

py::dict stats_dict(const OtlpExporterStats& s) {
  py::dict d;
  d["spans_queued"] = s.spans_queued;
  d["spans_exported"] = s.spans_exported;
  d["spans_dropped"] = s.spans_dropped;
  d["spans_failed"] = s.spans_failed;
  d["trace_exports"] = s.trace_exports;
  d["trace_export_failures"] = s.trace_export_failures;
  d["metric_exports"] = s.metric_exports;
  d["metric_export_failures"] = s.metric_export_failures;
  d["metric_records"] = s.metric_records;
  d["metric_records_dropped"] = s.metric_records_dropped;
  return d;
}

std::shared_ptr<OtlpExporter> make_exporter(const std::string& endpoint,
                                            const std::string& service_name,
                                            const std::map<std::string, std::string>& headers,
                                            double schedule_delay, double export_timeout,
                                            double metric_export_interval) {
  OtlpExporterOptions o;
  o.endpoint = endpoint;
  o.service_name = service_name;
  for (const auto& [name, value] : headers) o.headers.emplace_back(name, value);
  o.schedule_delay = seconds_arg(schedule_delay, "schedule_delay");
  o.export_timeout = seconds_arg(export_timeout, "export_timeout");
  o.metric_export_interval = seconds_arg(metric_export_interval, "metric_export_interval");
  auto exporter = OtlpExporter::create(std::move(o));
  if (!exporter.ok()) raise_status(exporter.status());
  return std::move(*exporter);
}

}  // namespace

std::shared_ptr<TraceSink> trace_sink_from_python(const py::handle& sink) {
  if (py::isinstance<OtlpExporter>(sink)) return sink.cast<std::shared_ptr<OtlpExporter>>();
  if (!py::hasattr(sink, "on_end")) {
    throw py::type_error(
        "trace_sink: expected a hermes.OtlpExporter or an object with on_end(span)");
  }
  return std::make_shared<PyTraceSink>(py::reinterpret_borrow<py::object>(sink));
}

void register_tracing(py::module_& m) {
  py::class_<OtlpExporter, std::shared_ptr<OtlpExporter>>(
      m, "OtlpExporter",
      "Sends spans and metrics to an OpenTelemetry collector over OTLP/HTTP (JSON).")
      .def(py::init(&make_exporter), py::arg("endpoint"), py::kw_only(),
           py::arg("service_name") = "hermes",
           py::arg("headers") = std::map<std::string, std::string>{},
           py::arg("schedule_delay") = 5.0, py::arg("export_timeout") = 10.0,
           py::arg("metric_export_interval") = 60.0)
      .def_static(
          "from_environment",
          []() -> py::object {
            auto exporter = OtlpExporter::from_environment();
            if (!exporter.ok()) raise_status(exporter.status());
            if (!*exporter) return py::none();
            return py::cast(std::shared_ptr<OtlpExporter>(std::move(*exporter)));
          },
          "The exporter the OTEL_* variables describe, or None when they ask for none.")
      .def(
          "flush",
          [](OtlpExporter& e, double timeout) {
            py::gil_scoped_release release;
            e.flush(seconds_arg(timeout, "timeout"));
          },
          py::arg("timeout") = 5.0)
      .def(
          "shutdown",
          [](OtlpExporter& e, double timeout) {
            py::gil_scoped_release release;
            e.shutdown(seconds_arg(timeout, "timeout"));
          },
          py::arg("timeout") = 5.0)
      .def("stats", [](const OtlpExporter& e) { return stats_dict(e.stats()); })
      .def_property_readonly("traces_url", &OtlpExporter::traces_url)
      .def_property_readonly("metrics_url", &OtlpExporter::metrics_url);
}

}  // namespace hermes::python
