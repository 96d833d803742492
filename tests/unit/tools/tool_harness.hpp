// Calls a built-in tool's handler directly, with a ToolContext whose home is a fresh
// temporary directory and whose state belongs to one simulated agent.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "common/json_text.hpp"
#include "hermes/tool.hpp"
#include "support/temp_dir.hpp"

namespace hermes::testing {

struct ToolHarness {
  TempDir home;
  ToolSessionState state;
  Callbacks callbacks;
  ToolContext ctx;

  ToolHarness() {
    ctx.home = home.path();
    ctx.state = &state;
    ctx.callbacks = &callbacks;
    ctx.session_id = "test-session";
  }

  Result<std::string> call(const ToolSpec& spec, const Json& args) {
    ctx.tool_name = spec.name;
    return spec.handler(args, ctx);
  }

  // Calls a tool that answers in JSON and returns the parsed result.
  Json call_json(const ToolSpec& spec, const Json& args) {
    Result<std::string> r = call(spec, args);
    REQUIRE_MESSAGE(r.ok(), r.status().to_string());
    auto parsed = internal::parse_json(*r);
    REQUIRE_MESSAGE(parsed.has_value(), *r);
    return *parsed;
  }
};

inline const ToolSpec& spec_named(const std::vector<ToolSpec>& specs, const std::string& name) {
  for (const ToolSpec& s : specs) {
    if (s.name == name) return s;
  }
  FAIL("no tool named " << name);
  return specs.front();
}

}  // namespace hermes::testing
