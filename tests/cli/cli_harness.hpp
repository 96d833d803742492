// What the tests of the command-line programs share: a mock model server, a hermes home
// in a temporary directory, and an environment that points the programs at both.
#pragma once

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "common/json_text.hpp"
#include "support/mock_server.hpp"
#include "support/temp_dir.hpp"

namespace hermes::testing {

inline std::string read_text(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
}

// An OTLP collector on loopback: accepts every POST and records it.
struct OtlpCollector {
  OtlpCollector() {
    MockResponse accepted;
    accepted.body = "{}";
    server.set_default(accepted);
  }
  // The service.name and the span names of every /v1/traces request received.
  std::pair<std::string, std::multiset<std::string>> spans() const {
    std::string service;
    std::multiset<std::string> names;
    for (const RecordedRequest& request : server.requests()) {
      if (request.path != "/v1/traces") continue;
      const Json body = request.json();  // Kept: the loops refer into it.
      for (const Json& resource : body.at("resourceSpans")) {
        for (const Json& a : resource.at("resource").at("attributes")) {
          if (a.at("key") == "service.name") service = a.at("value").value("stringValue", "");
        }
        for (const Json& scope : resource.at("scopeSpans")) {
          for (const Json& span : scope.at("spans"))
            names.insert(span.at("name").get<std::string>());
        }
      }
    }
    return {service, names};
  }
  MockServer server;
};

inline std::string cli_fixture(const std::string& name) {
  return std::string(HERMES_FIXTURES_DIR) + "/cli/" + name;
}

class CliHarness {
 public:
  // Queues the responses of a fixture script (a JSON list of mock response specs).
  void script(const std::string& fixture) {
    std::optional<Json> specs = internal::parse_json(read_text(cli_fixture(fixture)));
    if (!specs) throw std::runtime_error("bad fixture " + fixture);
    for (const Json& spec : *specs) enqueue(spec);
  }
  void enqueue(const Json& spec) {
    Result<MockResponse> response = mock_response_from_json(spec);
    if (!response.ok()) throw std::runtime_error(response.status().message());
    server.enqueue(std::move(response).value());
  }

  std::map<std::string, std::string> env() const {
    return {{"HOME", home.path()},
            {"HERMES_HOME", home.path()},
            {"OPENAI_BASE_URL", server.base_url()},
            {"OPENAI_API_KEY", "sk-test-key"},
            {"HERMES_MODEL", "test-model"},
            {"HERMES_LOG_LEVEL", "error"},
            {"TZ", "UTC"},
            {"TERM", "xterm"}};
  }

  MockServer server;
  TempDir home;
};

}  // namespace hermes::testing
