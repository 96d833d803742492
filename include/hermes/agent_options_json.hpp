// hermes/agent_options_json.hpp — the agent's options as one JSON document.
//
// One table in the library describes every option of AgentOptions that is plain data:
// its name, type, default, bounds and what it does. The C ABI and every binding read and
// write options through it, so an option added to the table reaches them all:
//
//   hermes::AgentOptions options;
//   auto applied = hermes::apply_agent_options(
//       hermes::Json::parse(R"({"model": "gpt-4.1-mini",
//                               "compression": {"threshold_percent": 0.7},
//                               "timeouts": {"idle": 30}})"),
//       options);
//   if (!applied.ok()) { /* applied.message() names the option */ }
//
// The document nests as AgentOptions does: "compression.threshold_percent" is the key
// "threshold_percent" of the object "compression". Durations are seconds (a number).
// Options that are objects of the host (the provider and session store instances, the
// tool registry, callbacks, hooks, the context engine, the memory provider) are not in
// the document; set them in code.
#pragma once

#include "hermes/agent.hpp"
#include "hermes/export.hpp"
#include "hermes/json.hpp"
#include "hermes/status.hpp"

namespace hermes {

// Every option of the document, in the table's order, as
// {"name": "compression.threshold_percent", "type": "number", "default": 0.5,
//  "doc": "...", "minimum": 0, "exclusive_minimum": true, "maximum": 1}.
// Types: "string", "string?" (null clears it), "boolean", "boolean?", "integer",
// "integer?", "number", "number?", "seconds", "strings" (a list), "enum" (with
// "values"), "providers" (a list of {"model", "provider", "base_url", "api_key",
// "api_mode"} objects, model required).
HERMES_API Json describe_agent_options();

// Sets the options the document names and leaves the others as they are. Checks the
// whole document first: an unknown key, a value of the wrong type or out of bounds is
// InvalidArgument naming it ("compression.threshold_percent: must be at most 1"), and
// then nothing is changed. A document nested deeper than the options are is refused.
HERMES_API Status apply_agent_options(const Json& document, AgentOptions& options);

// Every option of the document with its value in `options` (api keys included: treat the
// result as a secret).
HERMES_API Json agent_options_to_json(const AgentOptions& options);

}  // namespace hermes
