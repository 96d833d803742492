// Tools registered from C.
#include <optional>

#include "c_internal.hpp"

struct hermes_tool_call_t {
  std::string name;
  std::string id;
  std::string arguments;
  std::string session_id;
  hermes::CancelToken cancel;
  std::optional<std::string> result;
  std::string error;
};

using hermes::capi::report;

extern "C" {

hermes_tool_registry_t* hermes_tool_registry_new(void) {
  try {
    return new hermes_tool_registry_t{std::make_shared<hermes::ToolRegistry>()};
  } catch (...) {
    return nullptr;
  }
}

void hermes_tool_registry_free(hermes_tool_registry_t* registry) { delete registry; }

void hermes_tool_registry_freep(hermes_tool_registry_t** registry) {
  if (registry == nullptr) return;
  delete *registry;
  *registry = nullptr;
}

hermes_status_t hermes_tool_registry_add(hermes_tool_registry_t* registry, const char* name,
                                         const char* toolset, const char* description,
                                         const char* parameters_json, uint32_t flags,
                                         hermes_tool_handler_fn handler, void* user_data,
                                         hermes_destroy_fn destroy, hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (registry == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "registry: NULL", out_error);
    if (name == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "name: NULL", out_error);
    if (handler == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "handler: NULL", out_error);
    hermes::ToolSpec spec;
    spec.name = name;
    if (toolset != nullptr) spec.toolset = toolset;
    if (description != nullptr) spec.description = description;
    if (parameters_json != nullptr) {
      auto parsed = hermes::capi::from_json_text(parameters_json);
      if (!parsed || !parsed->is_object()) {
        return report(HERMES_ERR_INVALID_ARGUMENT, "parameters_json: not a JSON object", out_error);
      }
      spec.parameters = std::move(*parsed);
    }
    spec.parallel_safe = (flags & HERMES_TOOL_PARALLEL_SAFE) != 0;
    spec.interactive = (flags & HERMES_TOOL_INTERACTIVE) != 0;

    // Created only once validation passed: on failure the caller keeps ownership.
    auto data = std::make_shared<hermes::capi::UserData>(user_data, nullptr);
    spec.handler = [handler, data](const hermes::Json& args,
                                   hermes::ToolContext& ctx) -> hermes::Result<std::string> {
      hermes_tool_call_t call;
      call.name = ctx.tool_name;
      call.id = ctx.tool_call_id;
      call.arguments = hermes::capi::to_json_text(args);
      call.session_id = ctx.session_id;
      call.cancel = ctx.cancel;
      hermes_status_t st = handler(&call, data->get());
      if (st == HERMES_OK) return call.result.value_or("");
      std::string message = call.error.empty() ? hermes_status_name(st) : call.error;
      const bool known = st < 0 && st >= HERMES_ERR_INTERNAL;
      return hermes::Status(static_cast<hermes::StatusCode>(known ? st : HERMES_ERR_INTERNAL), message);
    };
    hermes::Status s = registry->registry->register_tool(std::move(spec));
    if (!s.ok()) return report(s, out_error);
    // Registered: from now on the registry owns user_data.
    data->adopt(destroy);
    return HERMES_OK;
  });
}

const char* hermes_tool_call_name(const hermes_tool_call_t* call) { return call ? call->name.c_str() : ""; }
const char* hermes_tool_call_id(const hermes_tool_call_t* call) { return call ? call->id.c_str() : ""; }
const char* hermes_tool_call_arguments(const hermes_tool_call_t* call) {
  return call ? call->arguments.c_str() : "{}";
}
const char* hermes_tool_call_session_id(const hermes_tool_call_t* call) {
  return call ? call->session_id.c_str() : "";
}
int hermes_tool_call_cancelled(const hermes_tool_call_t* call) {
  return call != nullptr && call->cancel.cancelled() ? 1 : 0;
}

hermes_status_t hermes_tool_call_set_result(hermes_tool_call_t* call, const char* text) {
  if (call == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  try {
    call->result = text == nullptr ? "" : text;
  } catch (...) {
    return HERMES_ERR_RESOURCE_EXHAUSTED;
  }
  return HERMES_OK;
}

hermes_status_t hermes_tool_call_set_error(hermes_tool_call_t* call, const char* message) {
  if (call == nullptr) return HERMES_ERR_INVALID_ARGUMENT;
  try {
    call->error = message == nullptr ? "" : message;
  } catch (...) {
    return HERMES_ERR_RESOURCE_EXHAUSTED;
  }
  return HERMES_OK;
}

}  // extern "C"
