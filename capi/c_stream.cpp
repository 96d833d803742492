// Pull streaming: a turn on a library thread whose events the caller takes one by one.
#include <thread>

#include "c_internal.hpp"

using hermes::capi::report;

struct hermes_stream_t {
  hermes_agent_t* agent = nullptr;
  std::shared_ptr<hermes::capi::EventQueue> queue;
  std::thread worker;
  bool done = false;  // The "done" event was handed out.
};

extern "C" {

hermes_status_t hermes_agent_stream(hermes_agent_t* agent, const char* user_message,
                                    hermes_stream_t** out_stream, hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_stream == nullptr)
      return report(HERMES_ERR_INVALID_ARGUMENT, "out_stream: NULL", out_error);
    *out_stream = nullptr;
    if (agent == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "agent: NULL", out_error);
    if (user_message == nullptr)
      return report(HERMES_ERR_INVALID_ARGUMENT, "user_message: NULL", out_error);
    if (agent->tap->attached()) {
      return report(HERMES_ERR_FAILED_PRECONDITION, "agent: a stream is already running on it",
                    out_error);
    }
    if (!agent->pending_done->idle()) {
      return report(HERMES_ERR_FAILED_PRECONDITION,
                    "agent: a turn started on a runtime is running on it", out_error);
    }
    auto stream = std::make_unique<hermes_stream_t>();
    stream->agent = agent;
    stream->queue = std::make_shared<hermes::capi::EventQueue>();
    agent->tap->attach(stream->queue);
    stream->worker =
        std::thread([agent, queue = stream->queue, message = std::string(user_message)] {
          hermes::Json result;
          try {
            result = agent->agent->run_conversation(message).to_json();
          } catch (const std::exception& e) {
            result = {{"completed", false}, {"error", std::string("internal error: ") + e.what()}};
          }
          agent->tap->detach();
          queue->push({{"type", "done"}, {"result", std::move(result)}});
        });
    *out_stream = stream.release();
    return HERMES_OK;
  });
}

hermes_status_t hermes_stream_next(hermes_stream_t* stream, int64_t timeout_ms,
                                   char** out_event_json, hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_event_json == nullptr)
      return report(HERMES_ERR_INVALID_ARGUMENT, "out_event_json: NULL", out_error);
    *out_event_json = nullptr;
    if (stream == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "stream: NULL", out_error);
    if (stream->done) return HERMES_OK;
    auto event = stream->queue->pop(std::chrono::milliseconds(timeout_ms < 0 ? -1 : timeout_ms));
    if (!event)
      return report(HERMES_ERR_DEADLINE_EXCEEDED, "no event within the timeout", out_error);
    if ((*event)["type"] == "done") stream->done = true;
    return hermes::capi::return_string(hermes::capi::to_json_text(*event), out_event_json,
                                       out_error);
  });
}

void hermes_stream_free(hermes_stream_t* stream) {
  if (stream == nullptr) return;
  try {
    if (stream->worker.joinable()) {
      if (!stream->done) stream->agent->agent->interrupt("");
      stream->worker.join();
    }
  } catch (...) {
  }
  delete stream;
}

void hermes_stream_freep(hermes_stream_t** stream) {
  if (stream == nullptr) return;
  hermes_stream_free(*stream);
  *stream = nullptr;
}

}  // extern "C"
