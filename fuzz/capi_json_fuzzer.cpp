// The C ABI's JSON inputs: message lists, error facts, tool schemas, a history to resume
// from, and a host provider's answer, each given arbitrary text.
//
// Input: `a NUL b`, or just `a` (then b = a). `a` is the messages/facts/schema/history
// text, `b` the answer the host's provider callback hands back, so a run can also go on
// to call the registered tool with whatever arguments the answer holds.
//
// Invariants: a call returns HERMES_OK with its out string set to JSON that parses, or a
// documented error code with an error object whose code is that status and no out
// string. Nothing the library returns is leaked (LeakSanitizer checks every run), and
// the agent touches nothing outside a scratch home with a tool that only echoes.
#include <unistd.h>

#include <filesystem>
#include <string>

#include "common/json_text.hpp"
#include "fuzz/fuzz_support.hpp"
#include "hermes_c.h"

namespace {

using hermes::fuzz::require;

// Checks the outcome of a call that returns JSON text, and releases what it returned.
void check_json_call(const char* call, hermes_status_t status, char* out, hermes_error_t* error) {
  if (status == HERMES_OK) {
    require(out != nullptr, call, "HERMES_OK without a result");
    require(error == nullptr, call, "HERMES_OK with an error object");
    require(hermes::internal::parse_json(out).has_value(), call, out);
  } else {
    require(status < 0 && status >= HERMES_ERR_INTERNAL, call, "an unknown status code");
    require(status != HERMES_ERR_INTERNAL, call, hermes_error_message(error));
    require(out == nullptr, call, "a failed call set its result");
    require(error != nullptr, call, "a failed call without an error object");
    require(hermes_error_code(error) == status, call, "the error's code is not the status");
  }
  hermes_free(out);
  hermes_error_free(error);
}

const std::string& scratch_home() {
  static const std::string home = [] {
    const auto dir = std::filesystem::temp_directory_path() /
                     ("hermes-capi-fuzz-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir.string();
  }();
  return home;
}

hermes_status_t answer_with(hermes_provider_call_t* call, void* user_data) {
  return hermes_provider_call_set_response(call, static_cast<const std::string*>(user_data)->c_str());
}

hermes_status_t echo_tool(hermes_tool_call_t* call, void*) {
  return hermes_tool_call_set_result(call, hermes_tool_call_arguments(call));
}

void check_utilities(const std::string& a) {
  char* out = nullptr;
  hermes_error_t* error = nullptr;
  check_json_call("hermes_sanitize_messages", hermes_sanitize_messages(a.c_str(), &out, &error),
                  out, error);
  out = nullptr;
  error = nullptr;
  check_json_call("hermes_classify_api_error",
                  hermes_classify_api_error(a.c_str(), &out, &error), out, error);
  out = nullptr;
  error = nullptr;
  check_json_call("hermes_detect_dangerous_command",
                  hermes_detect_dangerous_command(a.c_str(), &out, &error), out, error);
  out = nullptr;
  error = nullptr;
  const hermes_status_t redacted = hermes_redact_text(a.c_str(), &out, &error);
  require(redacted == HERMES_OK && out != nullptr, "hermes_redact_text failed");
  hermes_free(out);
  int64_t tokens = 0;
  const hermes_status_t limit = hermes_parse_context_limit(a.c_str(), &tokens);
  require(limit == HERMES_OK || limit == HERMES_ERR_NOT_FOUND, "hermes_parse_context_limit");
  require(limit != HERMES_OK || tokens > 0, "a context limit that is not positive");
  require(hermes_estimate_tokens(a.c_str()) >= 0, "a negative token estimate");
}

// A registry with the echo tool, its schema taken from `schema` when the registry
// accepts it.
hermes_tool_registry_t* registry_with_schema(const std::string& schema) {
  hermes_tool_registry_t* registry = hermes_tool_registry_new();
  hermes_error_t* error = nullptr;
  hermes_status_t added = hermes_tool_registry_add(registry, "echo", nullptr, "Echoes its arguments",
                                                   schema.c_str(), HERMES_TOOL_PARALLEL_SAFE,
                                                   echo_tool, nullptr, nullptr, &error);
  if (added != HERMES_OK) {
    require(error != nullptr && hermes_error_code(error) == added, "hermes_tool_registry_add");
    hermes_error_free(error);
    error = nullptr;
    added = hermes_tool_registry_add(registry, "echo", nullptr, "Echoes its arguments", nullptr,
                                     HERMES_TOOL_PARALLEL_SAFE, echo_tool, nullptr, nullptr, &error);
    require(added == HERMES_OK, "hermes_tool_registry_add without a schema",
            hermes_error_message(error));
  }
  return registry;
}

void check_conversation(const std::string& a, const std::string& answer) {
  hermes_tool_registry_t* registry = registry_with_schema(a);
  hermes_agent_options_t* options = hermes_agent_options_new();
  require(hermes_agent_options_set_provider_callback(options, "host", "host-model", answer_with,
                                                     const_cast<std::string*>(&answer),
                                                     nullptr) == HERMES_OK,
          "set_provider_callback");
  hermes_agent_options_set_home(options, scratch_home().c_str());
  hermes_agent_options_set_persist_sessions(options, 0);
  hermes_agent_options_set_tools(options, registry);
  hermes_agent_options_enable_toolset(options, "custom");
  hermes_agent_options_set_context_length(options, 64000);
  hermes_agent_options_set_max_iterations(options, 3);
  // One attempt per model call, and no wait before a retry that a malformed answer earns.
  hermes_agent_options_set_max_retries(options, 1);
  for (int32_t which : {HERMES_BACKOFF_BASE, HERMES_BACKOFF_MAX, HERMES_BACKOFF_INVALID_RESPONSE_BASE,
                        HERMES_BACKOFF_INVALID_RESPONSE_MAX}) {
    hermes_agent_options_set_retry_backoff_ms(options, which, 0);
  }
  hermes_tool_registry_free(registry);

  hermes_agent_t* agent = nullptr;
  hermes_error_t* error = nullptr;
  require(hermes_agent_new(options, &agent, &error) == HERMES_OK, "hermes_agent_new",
          hermes_error_message(error));
  char* out = nullptr;
  check_json_call("hermes_agent_run_conversation",
                  hermes_agent_run_conversation(agent, "Go on.", nullptr, a.c_str(), nullptr, &out,
                                                &error),
                  out, error);
  out = nullptr;
  error = nullptr;
  check_json_call("hermes_agent_history", hermes_agent_history(agent, &out, &error), out, error);
  hermes_agent_free(agent);
  hermes_agent_options_free(options);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = hermes::fuzz::as_text(data, size);
  const std::size_t nul = input.find('\0');
  // The C ABI takes NUL-terminated text: `a` ends at the first NUL.
  const std::string a(input.substr(0, nul));
  const std::string b(nul == std::string_view::npos ? input : input.substr(nul + 1));
  const std::string answer(b.c_str());
  hermes::fuzz::no_throw("C ABI", [&] {
    check_utilities(a);
    check_conversation(a, answer);
  });
  return 0;
}
