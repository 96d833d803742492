// Span lifetimes and the per-thread current span (see tracer.hpp).
#include "common/tracer.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <random>
#include <utility>

namespace hermes::internal {
namespace {

thread_local SpanParent current;

// Ids need to be unique, not secret. Each thread's generator is seeded from one process
// seed (read once from std::random_device) and a counter: tool calls run on fresh threads,
// and opening the system's entropy source for each would cost more than the span.
std::mt19937_64& id_generator() {
  static const uint64_t process_seed =
      (static_cast<uint64_t>(std::random_device{}()) << 32 | std::random_device{}()) ^
      static_cast<uint64_t>(unix_time_nanos());
  static std::atomic<uint64_t> threads{0};
  thread_local std::mt19937_64 rng{process_seed + 0x9E3779B97F4A7C15ULL * ++threads};
  return rng;
}

template <std::size_t N>
void fill_random(std::array<uint8_t, N>& bytes) {
  do {
    for (std::size_t i = 0; i < N; i += 8) {
      uint64_t word = id_generator()();
      for (std::size_t j = 0; j < 8 && i + j < N; ++j)
        bytes[i + j] = static_cast<uint8_t>(word >> (8 * j));
    }
  } while (std::all_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b == 0; }));
}

// A sink's exception never reaches the agent.
template <typename Call>
void guarded(Call&& call) {
  try {
    call();
  } catch (...) {
  }
}

}  // namespace

int64_t unix_time_nanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

ActiveSpan::ActiveSpan(const SpanParent& parent, std::string name, SpanKind kind,
                       std::vector<Attribute> attributes)
    : sink_(parent.sink), capture_content_(parent.capture_content) {
  if (!sink_) return;
  data_ = std::make_unique<SpanData>();
  if (parent.context.valid()) {
    data_->context.trace_id = parent.context.trace_id;
    data_->context.sampled = parent.context.sampled;
    data_->parent_span_id = parent.context.span_id;
  } else {
    fill_random(data_->context.trace_id.bytes);
  }
  fill_random(data_->context.span_id.bytes);
  data_->name = std::move(name);
  data_->kind = kind;
  data_->attributes = std::move(attributes);
  data_->start_time_unix_nano = unix_time_nanos();
  guarded([&] { sink_->on_start(*data_); });
}

ActiveSpan& ActiveSpan::operator=(ActiveSpan&& other) noexcept {
  if (this != &other) {
    end();
    sink_ = std::move(other.sink_);
    data_ = std::move(other.data_);
    capture_content_ = other.capture_content_;
  }
  return *this;
}

void ActiveSpan::set(std::string_view key, AttributeValue value) {
  if (!data_) return;
  for (auto& attribute : data_->attributes) {
    if (attribute.key == key) {
      attribute.value = std::move(value);
      return;
    }
  }
  data_->attributes.push_back({std::string(key), std::move(value)});
}

void ActiveSpan::set_error(std::string_view error_type, std::string_view message) {
  if (!data_) return;
  data_->status = SpanStatusCode::kError;
  data_->status_message = std::string(message);
  set("error.type", std::string(error_type));
}

void ActiveSpan::set_name(std::string name) {
  if (data_) data_->name = std::move(name);
}

void ActiveSpan::end() {
  if (!data_) return;
  data_->end_time_unix_nano = unix_time_nanos();
  guarded([&] { sink_->on_end(*data_); });
  data_.reset();
  sink_.reset();
}

SpanParent ActiveSpan::as_parent() const {
  if (!data_) return {};
  return {sink_, data_->context, capture_content_};
}

SpanScope::SpanScope(SpanParent parent) : previous_(std::exchange(current, std::move(parent))) {}

SpanScope::~SpanScope() {
  current = std::move(previous_);
}

void swap_current_span(SpanParent& other) {
  std::swap(current, other);
}

const SpanParent& current_span() {
  return current;
}

void record_metric(TraceSink* sink, std::string_view name, MetricKind kind, std::string_view unit,
                   double value, std::vector<Attribute> attributes) {
  if (sink == nullptr) return;
  MetricRecord record;
  record.name = name;
  record.kind = kind;
  record.unit = unit;
  record.value = value;
  record.attributes = std::move(attributes);
  record.time_unix_nano = unix_time_nanos();
  guarded([&] { sink->on_metric(record); });
}

}  // namespace hermes::internal
