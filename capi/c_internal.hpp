// Shared pieces of the C ABI implementation: the handle types and the conversions
// between hermes::Status and hermes_status_t / hermes_error_t.
#pragma once

#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "c_event_tap.hpp"
#include "hermes/agent.hpp"
#include "hermes/session_store.hpp"
#include "hermes/status.hpp"
#include "hermes_c.h"

struct hermes_error_t {
  hermes_status_t code;
  std::string message;
};

struct hermes_tool_registry_t {
  std::shared_ptr<hermes::ToolRegistry> registry;
};

struct hermes_agent_options_t {
  hermes::AgentOptions options;
};

namespace hermes::capi {

// The done callbacks of hermes_agent_run_turn_async that have not returned yet. The C++
// agent lets go of a turn just before its completion callback runs, so hermes_agent_free
// waits here too: no done callback may run once the agent is freed.
class PendingDone {
 public:
  void add() {
    std::lock_guard<std::mutex> lock(mu_);
    ++count_;
  }
  void remove() {
    std::lock_guard<std::mutex> lock(mu_);
    if (--count_ == 0) idle_.notify_all();
  }
  bool idle() {
    std::lock_guard<std::mutex> lock(mu_);
    return count_ == 0;
  }
  void wait_idle() {
    std::unique_lock<std::mutex> lock(mu_);
    idle_.wait(lock, [this] { return count_ == 0; });
  }

 private:
  std::mutex mu_;
  std::condition_variable idle_;
  int count_ = 0;
};

}  // namespace hermes::capi

struct hermes_agent_t {
  std::unique_ptr<hermes::Agent> agent;
  // Where the agent's callbacks also send their events while a hermes_stream_t is open.
  std::shared_ptr<hermes::capi::EventTap> tap;
  // Shared with the done callbacks in flight, which may outlive the agent by a moment.
  std::shared_ptr<hermes::capi::PendingDone> pending_done =
      std::make_shared<hermes::capi::PendingDone>();
};

// The text a callback hands back (clarify, auth refresh, memory provider); unset when
// the callback set none.
struct hermes_answer_t {
  std::optional<std::string> text;
};

struct hermes_store_t {
  std::shared_ptr<hermes::SessionStore> store;
};

namespace hermes::capi {

// Stores `status` in *out_error (when not NULL) and returns its code.
hermes_status_t report(const Status& status, hermes_error_t** out_error);

// The same for a failure detected in the C layer itself.
hermes_status_t report(hermes_status_t code, std::string message, hermes_error_t** out_error);

// JSON text <-> Json through the public API only (the C library must link against a
// shared libhermes_agent, which exports nothing internal). Invalid UTF-8 is replaced, parse
// failures give nullopt; neither throws.
inline std::string to_json_text(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}
inline std::optional<Json> from_json_text(const char* text) {
  Json out = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (out.is_discarded()) return std::nullopt;
  return out;
}

// A copy of `text` allocated with malloc, for `char **out` parameters.
char* copy_string(const std::string& text);

// Stores a malloc'ed copy of `text` in *out, or reports out-of-memory.
hermes_status_t return_string(const std::string& text, char** out, hermes_error_t** out_error);

// Parses `text` (NULL, not JSON: InvalidArgument naming `what`).
Result<Json> parse_argument(const char* text, const char* what);

// The turn hermes_agent_run_turn describes; its user message goes to `user_message`.
// InvalidArgument names an unknown key or a value of the wrong type.
Result<TurnOptions> turn_options_from_json(const Json& turn, std::string& user_message);

// The same from the text of `turn_json` (NULL or not JSON: InvalidArgument).
Result<TurnOptions> parse_turn(const char* turn_json, std::string& user_message);

// The result JSON text of hermes_agent_run_turn and the done callback of
// hermes_agent_run_turn_async.
std::string turn_result_text(const ConversationResult& result);

// Owns a C user_data pointer and calls its destructor once, when the last holder goes.
class UserData {
 public:
  UserData(void* data, hermes_destroy_fn destroy) : data_(data), destroy_(destroy) {}
  ~UserData() {
    if (destroy_ != nullptr) destroy_(data_);
  }
  UserData(const UserData&) = delete;
  UserData& operator=(const UserData&) = delete;
  void* get() const { return data_; }
  // Hands the destructor over once the library has taken ownership of the data.
  void adopt(hermes_destroy_fn destroy) { destroy_ = destroy; }

 private:
  void* data_;
  hermes_destroy_fn destroy_;
};

}  // namespace hermes::capi

namespace hermes::capi {

// Runs `fn`, turning any escaping exception into HERMES_ERR_INTERNAL: nothing thrown in
// C++ may cross the C boundary.
template <typename Fn>
hermes_status_t guarded(hermes_error_t** out_error, Fn&& fn) noexcept {
  try {
    return fn();
  } catch (const std::exception& e) {
    return report(HERMES_ERR_INTERNAL, std::string("internal error: ") + e.what(), out_error);
  } catch (...) {
    return report(HERMES_ERR_INTERNAL, "internal error", out_error);
  }
}

}  // namespace hermes::capi
