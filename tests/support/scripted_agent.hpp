// What the loop's unit tests build an agent from: a scripted provider, a tool registry of
// the test's own and a scratch home. Tests queue the provider's answers, register tools,
// and take options() to change what they are about.
#pragma once

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hermes/agent.hpp"
#include "support/scripted_provider.hpp"
#include "support/temp_dir.hpp"

namespace hermes::testing {

struct ScriptedAgentFixture {
  std::shared_ptr<ScriptedProvider> provider = std::make_shared<ScriptedProvider>();
  std::shared_ptr<ToolRegistry> tools = std::make_shared<ToolRegistry>();
  TempDir home;

  // An unpersisted agent on the scripted provider and the registry, with no background
  // review (it would spend scripted answers).
  AgentOptions options() const {
    AgentOptions o;
    o.provider.model = "scripted-model";
    o.provider.instance = provider;
    o.tools = tools;
    o.home = home.path();
    o.persistence.enabled = false;
    o.review.enabled = false;
    return o;
  }

  std::unique_ptr<Agent> agent(const AgentOptions& o) const {
    auto created = Agent::create(o);
    REQUIRE_MESSAGE(created.ok(), created.status().to_string());
    return std::move(*created);
  }
  std::unique_ptr<Agent> agent() const { return agent(options()); }

  // Registers a tool taking an object; `spec` gives whatever else the test needs
  // (parallel_safe, call_timeout, interactive, parameters).
  void add_tool(const std::string& name, ToolHandler handler, ToolSpec spec = {}) {
    spec.name = name;
    if (spec.description.empty()) spec.description = "test tool " + name;
    if (spec.parameters.is_null()) spec.parameters = Json{{"type", "object"}};
    spec.handler = std::move(handler);
    REQUIRE(tools->register_tool(std::move(spec)).ok());
  }
};

// The tool results of a transcript, in order.
inline std::vector<const Message*> tool_messages(const std::vector<Message>& messages) {
  std::vector<const Message*> out;
  for (const Message& m : messages) {
    if (m.role == Role::kTool) out.push_back(&m);
  }
  return out;
}

}  // namespace hermes::testing
