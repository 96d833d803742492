// The options document: the table's description, a document applied and read back,
// and how a bad document is refused (naming the option, changing nothing).
#include "hermes/agent_options_json.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "hermes/agent.hpp"
#include "hermes/builtin_tools.hpp"

using namespace hermes;

namespace {

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string fixture_text() {
  return file_text(std::string(HERMES_FIXTURES_DIR) + "/options/every_option.json");
}

// The names of a document's leaves, dotted ("compression.enabled"); an option whose value
// is an object (a schema) is a leaf.
void leaf_names(const Json& object, const std::string& prefix, std::set<std::string>& out) {
  for (const auto& item : object.items()) {
    const std::string name = prefix.empty() ? item.key() : prefix + "." + item.key();
    if (item.value().is_object() && name != "output.schema") {
      leaf_names(item.value(), name, out);
    } else {
      out.insert(name);
    }
  }
}

// The document's text without the whitespace outside strings: what dump() writes for a
// document whose keys are sorted.
std::string compact(const std::string& text) {
  std::string out;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
      out += c;
    } else if (c != ' ' && c != '\n' && c != '\t' && c != '\r') {
      out += c;
    }
  }
  return out;
}

std::string applied_error(const std::string& document) {
  AgentOptions options;
  return apply_agent_options(Json::parse(document), options).message();
}

}  // namespace

TEST_CASE("the description lists every option of the fixture document, each described") {
  const Json description = describe_agent_options();
  std::set<std::string> described;
  for (const Json& option : description) {
    CHECK(option.contains("default"));
    CHECK_FALSE(option.value("doc", "").empty());
    CHECK_FALSE(option.value("type", "").empty());
    CHECK(described.insert(option.value("name", "")).second);  // No name twice.
  }
  std::set<std::string> in_fixture;
  leaf_names(Json::parse(fixture_text()), "", in_fixture);
  // A new option in the table must join the fixture, which every binding's test applies.
  CHECK(described == in_fixture);
  CHECK(described.size() >= 55);
}

TEST_CASE("docs/options.md lists every option with its default") {
  const std::string doc = file_text(std::string(HERMES_FIXTURES_DIR) + "/../../docs/options.md");
  REQUIRE_FALSE(doc.empty());
  for (const Json& option : describe_agent_options()) {
    const std::string row = "| `" + option["name"].get<std::string>() + "` | " +
                            option["type"].get<std::string>() + " | `" + option["default"].dump() +
                            "` |";
    CHECK_MESSAGE(doc.find(row) != std::string::npos, row);
  }
}

TEST_CASE("the defaults described are a default AgentOptions'") {
  const Json document = agent_options_to_json(AgentOptions{});
  for (const Json& option : describe_agent_options()) {
    const std::string name = option["name"];
    std::string pointer = "/" + name;
    for (char& c : pointer) c = c == '.' ? '/' : c;
    CHECK_MESSAGE(document.at(Json::json_pointer(pointer)) == option["default"], name);
  }
  CHECK(document["compression"]["threshold_percent"] == 0.5);
  CHECK(document["provider"]["timeouts"]["connect"] == 10);
  CHECK(document["request"]["max_tokens"].is_null());
  CHECK(document["tool_use"]["approvals"]["mode"] == "manual");
}

TEST_CASE("every option of the fixture is applied and reads back as it was written") {
  const std::string text = fixture_text();
  AgentOptions options;
  REQUIRE(apply_agent_options(Json::parse(text), options).ok());
  CHECK(agent_options_to_json(options).dump() == compact(text));
  // The values reached the fields themselves.
  CHECK(options.provider.model == "fixture-model");
  CHECK(options.compression.threshold_percent == 0.75);
  CHECK(options.provider.timeouts.idle == std::chrono::milliseconds(30'500));
  CHECK(options.tool_use.approvals.mode == ApprovalMode::kAllowlist);
  REQUIRE(options.failover.fallback_providers.size() == 1);
  CHECK(options.failover.fallback_providers[0].api_mode == "anthropic_messages");
  CHECK(options.memory_limits.user_chars == 2000);
  CHECK(options.tool_use.enforcement == true);
  CHECK(options.platform_hint == "Plain text only.");
}

TEST_CASE("a document sets only what it names; null clears an optional") {
  AgentOptions options;
  options.provider.model = "kept";
  options.request.max_tokens = 100;
  REQUIRE(
      apply_agent_options(
          Json::parse(R"({"compression": {"protect_last_n": 4}, "request": {"max_tokens": null}})"),
          options)
          .ok());
  CHECK(options.provider.model == "kept");
  CHECK(options.compression.protect_last_n == 4);
  CHECK(options.compression.enabled);
  CHECK_FALSE(options.request.max_tokens.has_value());
}

TEST_CASE("a bad document names the option and changes nothing") {
  AgentOptions options;
  options.provider.model = "before";
  const Status s = apply_agent_options(
      Json::parse(
          R"({"provider": {"model": "after"}, "compression": {"threshhold_percent": 0.7}})"),
      options);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK(s.message().find("compression.threshhold_percent: unknown option") == 0);
  CHECK(options.provider.model == "before");  // The good key before the bad one was not kept.

  CHECK(applied_error(R"({"modle": "x"})").find("modle: unknown option") == 0);
  CHECK(applied_error(R"({"max_iterations": "12"})") ==
        "max_iterations: expected an integer, got string");
  CHECK(applied_error(R"({"max_iterations": 1.5})") ==
        "max_iterations: expected an integer, got number");
  CHECK(applied_error(R"({"max_iterations": 0})") == "max_iterations: must be at least 1");
  CHECK(applied_error(R"({"max_iterations": 99999999999})") == "max_iterations: out of range");
  CHECK(applied_error(R"({"memory_limits": {"user_chars": -5}})") ==
        "memory_limits.user_chars: out of range");
  CHECK(applied_error(R"({"compression": {"threshold_percent": 0}})") ==
        "compression.threshold_percent: must be more than 0");
  CHECK(applied_error(R"({"compression": {"threshold_percent": 1.5}})") ==
        "compression.threshold_percent: must be at most 1");
  CHECK(applied_error(R"({"compression": true})") ==
        "compression: expected an object, got boolean");
  CHECK(applied_error(R"({"request": {"stream": 1}})") ==
        "request.stream: expected true or false, got number");
  CHECK(applied_error(R"({"provider": {"timeouts": {"idle": -1}}})") ==
        "provider.timeouts.idle: must be between 0 and a year of seconds");
  CHECK(applied_error(R"({"tool_use": {"enabled_toolsets": "file"}})") ==
        "tool_use.enabled_toolsets: expected a list of strings, got string");
  CHECK(applied_error(R"({"tool_use": {"approvals": {"mode": "yolo"}}})")
            .find("tool_use.approvals.mode: expected one of manual") == 0);
  CHECK(applied_error(R"({"failover": {"fallback_providers": [{"provider": "openai"}]}})") ==
        "failover.fallback_providers: every entry needs a model");
  CHECK(applied_error(R"({"failover": {"fallback_providers": [{"model": "m", "key": "k"}]}})")
            .find("unknown key 'key'") != std::string::npos);
  CHECK(applied_error(R"([1, 2])") == "options: expected a JSON object, got array");
}

TEST_CASE("Agent::create checks each option against the same bounds") {
  AgentOptions options;
  options.provider.model = "m";
  options.persistence.enabled = false;
  options.compression.threshold_percent = 0;
  auto agent = Agent::create(options);
  REQUIRE_FALSE(agent.ok());
  CHECK(agent.status().message() == "compression.threshold_percent: must be more than 0");

  options.compression.threshold_percent = 0.5;
  options.delegation.max_concurrent_children = 0;
  agent = Agent::create(options);
  REQUIRE_FALSE(agent.ok());
  CHECK(agent.status().message() == "delegation.max_concurrent_children: must be at least 1");
}

TEST_CASE("without a session store, session_id names the new session") {
  AgentOptions options;
  options.provider.model = "m";
  options.persistence.enabled = false;
  options.persistence.session_id = "20260101_000000_abcdef";
  auto agent = Agent::create(options);
  REQUIRE(agent.ok());
  CHECK((*agent)->session_id() == "20260101_000000_abcdef");
  CHECK((*agent)->history().empty());
}

TEST_CASE("memory and skills settings come from the caller's registry, never given twice") {
  auto registry = std::make_shared<ToolRegistry>();
  BuiltinToolOptions builtins;
  builtins.toolsets = {"memory", "skills"};
  builtins.memory.memory_chars = 5000;
  builtins.skills.template_vars = false;
  REQUIRE(register_builtin_tools(*registry, builtins).ok());
  CHECK(builtin_memory_limits(*registry)->memory_chars == 5000);

  AgentOptions options;
  options.provider.model = "m";
  options.persistence.enabled = false;
  options.tools = registry;
  auto agent = Agent::create(options);
  REQUIRE(agent.ok());
  CHECK((*agent)->options().memory_limits.memory_chars == 5000);
  CHECK_FALSE((*agent)->options().skills.template_vars);

  options.memory_limits.memory_chars = 5000;  // Saying the same again is harmless.
  CHECK(Agent::create(options).ok());
  options.memory_limits.memory_chars = 3000;
  auto refused = Agent::create(options);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().message().find("memory_limits: differ") == 0);

  // A registry without the built-ins leaves the options as they are.
  auto plain = std::make_shared<ToolRegistry>();
  CHECK_FALSE(builtin_memory_limits(*plain).has_value());
  options.tools = plain;
  agent = Agent::create(options);
  REQUIRE(agent.ok());
  CHECK((*agent)->options().memory_limits.memory_chars == 3000);
}
