// The table of the agent's plain-data options: one entry per option with its name (a
// dotted path into AgentOptions), type, bounds, doc and how to read and write it. The JSON
// options document (hermes/agent_options_json.hpp) and Agent::create's checks read it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/agent.hpp"
#include "hermes/json.hpp"
#include "hermes/status.hpp"

namespace hermes::internal {

struct OptionBounds {
  std::optional<double> minimum;
  bool exclusive_minimum = false;
  std::optional<double> maximum;
};

struct OptionEntry {
  std::string name;  // "compression.threshold_percent"
  std::string type;  // As describe_agent_options() lists them.
  std::string doc;
  OptionBounds bounds;
  std::vector<std::string> values;  // The names an "enum" takes.
  std::function<Json(const AgentOptions&)> get;
  // Checks the value's type and bounds, then sets it; InvalidArgument names the option.
  std::function<Status(const Json&, AgentOptions&)> set;
};

const std::vector<OptionEntry>& option_table();

// The first option of `options` whose value is outside its bounds, as InvalidArgument.
Status check_option_bounds(const AgentOptions& options);

}  // namespace hermes::internal
