// Starting and ending spans, and the span a thread is working in.
//
// Everything here costs a branch when tracing is off: a SpanParent without a sink starts
// inactive spans, and an inactive span ignores what it is told. Callers that build
// attributes at some cost check `if (span)` first.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/tracing.hpp"

namespace hermes::internal {

// Nanoseconds since the Unix epoch, now.
int64_t unix_time_nanos();

// Where a new span hangs: the sink that receives it and the parent's context (invalid
// for a new trace).
struct SpanParent {
  std::shared_ptr<TraceSink> sink;
  SpanContext context;
  bool capture_content = false;  // TracingOptions::capture_content, passed down.

  explicit operator bool() const { return sink != nullptr; }
};

// A span in progress. Move-only; ends (and reaches the sink) at end() or destruction.
class ActiveSpan {
 public:
  ActiveSpan() = default;
  // Starts a span under `parent`: a child of its context, or the root of a new trace.
  // Inactive when the parent has no sink.
  ActiveSpan(const SpanParent& parent, std::string name, SpanKind kind,
             std::vector<Attribute> attributes = {});
  ActiveSpan(ActiveSpan&& other) noexcept = default;
  ActiveSpan& operator=(ActiveSpan&& other) noexcept;
  ActiveSpan(const ActiveSpan&) = delete;
  ActiveSpan& operator=(const ActiveSpan&) = delete;
  ~ActiveSpan() { end(); }

  explicit operator bool() const { return data_ != nullptr; }

  // Sets an attribute, replacing one of the same key.
  void set(std::string_view key, AttributeValue value);
  // Marks the span failed: status ERROR with `message`, and error.type = `error_type`.
  void set_error(std::string_view error_type, std::string_view message);
  void set_name(std::string name);
  void end();

  // The parent for this span's children (an empty one when inactive).
  SpanParent as_parent() const;
  bool capture_content() const { return capture_content_; }

 private:
  std::shared_ptr<TraceSink> sink_;
  std::unique_ptr<SpanData> data_;
  bool capture_content_ = false;
};

// Makes `parent` the current thread's span for the scope's lifetime, so that code with
// no handle on the agent (MCP requests, store writes) can hang its spans under it.
class SpanScope {
 public:
  explicit SpanScope(SpanParent parent);
  ~SpanScope();
  SpanScope(const SpanScope&) = delete;
  SpanScope& operator=(const SpanScope&) = delete;

 private:
  SpanParent previous_;
};

// The current thread's span (empty outside any SpanScope).
const SpanParent& current_span();

// Exchanges the current thread's span with `other`, so that a fiber keeps its own span
// while other fibers run on its thread.
void swap_current_span(SpanParent& other);

// Sends one measurement to `sink` (nothing when null), stamped now.
void record_metric(TraceSink* sink, std::string_view name, MetricKind kind, std::string_view unit,
                   double value, std::vector<Attribute> attributes);

}  // namespace hermes::internal
