// A TraceSink that hands every span and measurement to two sinks, so a test can hold
// what hermes reported beside what an adapter made of it.
#pragma once

#include <memory>
#include <utility>

#include "hermes/tracing.hpp"

namespace hermes::testing::otel {

class TeeSink : public TraceSink {
 public:
  TeeSink(std::shared_ptr<TraceSink> first, std::shared_ptr<TraceSink> second)
      : first_(std::move(first)), second_(std::move(second)) {}

  void on_start(const SpanData& span) override {
    first_->on_start(span);
    second_->on_start(span);
  }
  void on_end(const SpanData& span) override {
    first_->on_end(span);
    second_->on_end(span);
  }
  void on_metric(const MetricRecord& metric) override {
    first_->on_metric(metric);
    second_->on_metric(metric);
  }

 private:
  std::shared_ptr<TraceSink> first_;
  std::shared_ptr<TraceSink> second_;
};

}  // namespace hermes::testing::otel
