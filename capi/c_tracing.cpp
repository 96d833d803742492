// Spans and metrics from C: a TraceSink that hands each event to a function pointer as
// JSON.
#include "c_internal.hpp"

using hermes::capi::UserData;

namespace {

class CallbackTraceSink : public hermes::TraceSink {
 public:
  CallbackTraceSink(hermes_event_fn fn, bool with_start, std::shared_ptr<UserData> data)
      : fn_(fn), with_start_(with_start), data_(std::move(data)) {}

  void on_start(const hermes::SpanData& span) override {
    if (with_start_) send({{"event", "span_start"}, {"span", hermes::span_to_json(span)}});
  }
  void on_end(const hermes::SpanData& span) override {
    send({{"event", "span_end"}, {"span", hermes::span_to_json(span)}});
  }
  void on_metric(const hermes::MetricRecord& metric) override {
    send({{"event", "metric"}, {"metric", hermes::metric_to_json(metric)}});
  }

 private:
  void send(const hermes::Json& event) {
    fn_(hermes::capi::to_json_text(event).c_str(), data_->get());
  }

  hermes_event_fn fn_;
  bool with_start_;
  std::shared_ptr<UserData> data_;
};

}  // namespace

extern "C" {

hermes_status_t hermes_agent_options_set_trace_callback(hermes_agent_options_t* o,
                                                        hermes_event_fn fn, int with_span_start,
                                                        void* user_data,
                                                        hermes_destroy_fn destroy) {
  if (o == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  if (fn == nullptr) {
    o->options.tracing.sink = nullptr;
    return HERMES_OK;
  }
  o->options.tracing.sink = std::make_shared<CallbackTraceSink>(
      fn, with_span_start != 0, std::make_shared<UserData>(user_data, destroy));
  return HERMES_OK;
}

}  // extern "C"
