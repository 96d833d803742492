// Agent options as one JSON document, over hermes/agent_options_json.hpp.
#include "c_internal.hpp"
#include "hermes/agent_options_json.hpp"

using hermes::capi::report;

extern "C" {

hermes_status_t hermes_agent_options_set_json(hermes_agent_options_t* options, const char* json,
                                              hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (options == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "options: NULL", out_error);
    auto document = hermes::capi::parse_argument(json, "json");
    if (!document.ok()) return report(document.status(), out_error);
    return report(hermes::apply_agent_options(*document, options->options), out_error);
  });
}

hermes_status_t hermes_agent_options_set_output_schema(hermes_agent_options_t* options,
                                                       const char* schema_json, const char* name,
                                                       hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (options == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "options: NULL", out_error);
    hermes::AgentOptions::Output output;
    if (schema_json != nullptr) {
      auto schema = hermes::capi::parse_argument(schema_json, "schema_json");
      if (!schema.ok()) return report(schema.status(), out_error);
      output.schema = std::move(*schema);
    }
    if (name != nullptr) output.name = name;
    output.max_repairs = options->options.output.max_repairs;
    options->options.output = std::move(output);
    return HERMES_OK;
  });
}

hermes_status_t hermes_agent_options_get_json(const hermes_agent_options_t* options,
                                              char** out_json, hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_json == nullptr)
      return report(HERMES_ERR_INVALID_ARGUMENT, "out_json: NULL", out_error);
    *out_json = nullptr;
    if (options == nullptr) return report(HERMES_ERR_INVALID_ARGUMENT, "options: NULL", out_error);
    return hermes::capi::return_string(
        hermes::capi::to_json_text(hermes::agent_options_to_json(options->options)), out_json,
        out_error);
  });
}

hermes_status_t hermes_agent_options_describe(char** out_json, hermes_error_t** out_error) {
  return hermes::capi::guarded(out_error, [&]() -> hermes_status_t {
    if (out_json == nullptr)
      return report(HERMES_ERR_INVALID_ARGUMENT, "out_json: NULL", out_error);
    *out_json = nullptr;
    return hermes::capi::return_string(hermes::capi::to_json_text(hermes::describe_agent_options()),
                                       out_json, out_error);
  });
}

}  // extern "C"
