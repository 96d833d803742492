// Calls a built-in tool's handler directly, with a ToolContext whose home is a fresh
// temporary directory and whose state belongs to one simulated agent.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/atomic_file.hpp"
#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "hermes/tool.hpp"
#include "support/temp_dir.hpp"

namespace hermes::testing {

// `path`'s contents, or "<missing>" when it cannot be read.
inline std::string file_text(const std::string& path) {
  auto text = internal::read_whole_file(path);
  return text.ok() ? *text : "<missing>";
}

// True when `text` (a string, or a JSON string) contains `part`.
inline bool has_text(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Writes `text` to `path`, creating its directories.
inline void put_file(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

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
