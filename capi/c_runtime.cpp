// Runtimes, and turns started on them that report their result to a C callback.
#include <cstdint>
#include <limits>

#include "c_internal.hpp"
#include "hermes/runtime.hpp"

using hermes::capi::report;

struct hermes_runtime_t {
  std::unique_ptr<hermes::Runtime> runtime;
};

namespace hermes::capi {
namespace {

Status wrong_option(const std::string& key, const char* expected) {
  return Status::invalid_argument("options_json: " + key + ": expected " + expected);
}

// An integer option no larger than `max` (Runtime::create checks the real bounds).
Result<std::uint64_t> count_option(const std::string& key, const Json& value, std::uint64_t max) {
  if (!value.is_number_integer()) return wrong_option(key, "an integer");
  if (value.is_number_unsigned()) {
    auto n = value.get<std::uint64_t>();
    if (n <= max) return n;
  } else if (auto n = value.get<std::int64_t>(); n >= 0 && static_cast<std::uint64_t>(n) <= max) {
    return static_cast<std::uint64_t>(n);
  }
  return Status::invalid_argument("options_json: " + key + ": out of range");
}

Result<RuntimeOptions> runtime_options_from_json(const char* options_json) {
  RuntimeOptions options;
  if (options_json == nullptr) return options;
  auto document = parse_argument(options_json, "options_json");
  if (!document.ok()) return document.status();
  if (!document->is_object()) return Status::invalid_argument("options_json: expected an object");
  constexpr auto kIntMax = static_cast<std::uint64_t>(std::numeric_limits<int>::max());
  for (const auto& [key, value] : document->items()) {
    if (key == "io_threads" || key == "tool_workers") {
      auto n = count_option(key, value, kIntMax);
      if (!n.ok()) return n.status();
      (key == "io_threads" ? options.io_threads : options.tool_workers) = static_cast<int>(*n);
    } else if (key == "stack_bytes") {
      auto n = count_option(key, value, std::numeric_limits<std::size_t>::max());
      if (!n.ok()) return n.status();
      options.stack_bytes = static_cast<std::size_t>(*n);
    } else {
      return Status::invalid_argument("options_json: " + key + ": unknown key");
    }
  }
  return options;
}

// A result for `done` when the real one cannot be turned into text (out of memory).
constexpr const char* kUnconvertibleResult =
    R"({"completed":false,"failed":true,"interrupted":false,"exit_reason":"internal_error",)"
    R"("error":"internal error: the turn's result could not be converted to JSON"})";

// Marks a done callback as returned, however its wrapper ends.
struct DoneReturned {
  std::shared_ptr<PendingDone> pending;
  ~DoneReturned() { pending->remove(); }
};

}  // namespace
}  // namespace hermes::capi

extern "C" {

hermes_status_t hermes_runtime_new(const char* options_json, hermes_runtime_t** out_runtime,
                                   hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_runtime == nullptr) {
      return report(HERMES_ERR_INVALID_ARGUMENT, "out_runtime: NULL", out_error);
    }
    *out_runtime = nullptr;
    auto options = hermes::capi::runtime_options_from_json(options_json);
    if (!options.ok()) return report(options.status(), out_error);
    auto runtime = hermes::Runtime::create(*options);
    if (!runtime.ok()) {
      const hermes::Status& s = runtime.status();
      if (s.code() != hermes::StatusCode::kInvalidArgument) return report(s, out_error);
      return report(HERMES_ERR_INVALID_ARGUMENT, "options_json: " + s.message(), out_error);
    }
    *out_runtime = new hermes_runtime_t{std::move(*runtime)};
    return HERMES_OK;
  });
}

void hermes_runtime_free(hermes_runtime_t* runtime) {
  delete runtime;
}

void hermes_runtime_freep(hermes_runtime_t** runtime) {
  if (runtime == nullptr) return;
  delete *runtime;
  *runtime = nullptr;
}

hermes_status_t hermes_runtime_stats_json(const hermes_runtime_t* runtime, char** out_json,
                                          hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_json == nullptr)
      return report(HERMES_ERR_INVALID_ARGUMENT, "out_json: NULL", out_error);
    *out_json = nullptr;
    if (runtime == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "runtime: NULL", out_error);
    const hermes::RuntimeStats stats = runtime->runtime->stats();
    const hermes::RuntimeOptions& options = runtime->runtime->options();
    const hermes::Json j{
        {"turns_running", stats.turns_running}, {"transfers", stats.transfers},
        {"tool_jobs", stats.tool_jobs},         {"turns_started", stats.turns_started},
        {"io_threads", options.io_threads},     {"tool_workers", options.tool_workers},
        {"stack_bytes", options.stack_bytes}};
    return hermes::capi::return_string(hermes::capi::to_json_text(j), out_json, out_error);
  });
}

hermes_status_t hermes_agent_run_turn_async(hermes_agent_t* agent, hermes_runtime_t* runtime,
                                            const char* turn_json, hermes_turn_done_fn done,
                                            void* user_data, hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (agent == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "agent: NULL", out_error);
    if (runtime == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "runtime: NULL", out_error);
    if (done == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "done: NULL", out_error);
    std::string user_message;
    auto turn = hermes::capi::parse_turn(turn_json, user_message);
    if (!turn.ok()) return report(turn.status(), out_error);
    // A pull stream runs its turn synchronously on a thread of its own, which the agent's
    // asynchronous slot does not see.
    if (agent->tap->attached()) {
      return report(HERMES_ERR_FAILED_PRECONDITION, "agent: a stream is running a turn on it",
                    out_error);
    }
    std::shared_ptr<hermes::capi::PendingDone> pending = agent->pending_done;
    pending->add();
    hermes::Status started;
    try {
      started = agent->agent->run_conversation_async(
          *runtime->runtime, user_message, std::move(*turn),
          [done, user_data, pending](hermes::ConversationResult result) {
            hermes::capi::DoneReturned returned{pending};
            std::string text;
            const char* json = hermes::capi::kUnconvertibleResult;
            try {
              text = hermes::capi::turn_result_text(result);
              json = text.c_str();
            } catch (...) {
            }
            done(json, user_data);
          });
    } catch (...) {
      pending->remove();
      throw;
    }
    if (!started.ok()) pending->remove();
    return report(started, out_error);
  });
}

}  // extern "C"
