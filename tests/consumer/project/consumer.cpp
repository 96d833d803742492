// A C++17 program on hermes's C++ API: the public headers compile as C++17, the library
// links and runs, and bad options come back as a Status naming the field.
#include <cstdio>
#include <cstring>
#include <hermes/hermes.hpp>
#include <memory>
#include <string>

namespace {

int failures = 0;

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "consumer_cxx: FAILED: %s\n", what);
    ++failures;
  }
}

}  // namespace

int main() {
  check(std::strcmp(hermes::version(), HERMES_VERSION_STRING) == 0,
        "the library is the version of the headers");

  auto tools = std::make_shared<hermes::ToolRegistry>();
  hermes::ToolSpec echo;
  echo.name = "echo";
  echo.description = "Returns its arguments.";
  echo.parameters = hermes::Json::parse(R"({"type":"object","properties":{}})");
  echo.handler = [](const hermes::Json& arguments,
                    hermes::ToolContext&) -> hermes::Result<std::string> {
    return arguments.dump();
  };
  check(tools->register_tool(echo).ok(), "a tool registers");
  check(tools->names().size() == 1, "the registry lists the tool");

  hermes::AgentOptions options;
  options.persistence.enabled = false;
  options.tools = tools;
  auto agent = hermes::Agent::create(options);
  check(!agent.ok(), "an agent without a model is refused");
  check(agent.status().code() == hermes::StatusCode::kInvalidArgument, "with InvalidArgument");
  check(agent.status().message().find("provider.model") == 0, "naming the model field");

  if (failures == 0) std::puts("consumer_cxx: ok");
  return failures == 0 ? 0 : 1;
}
