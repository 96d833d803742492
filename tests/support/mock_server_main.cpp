// hermes-mock-server: the loopback mock model server as a process, for the tests of the
// Python, C, Rust and Go bindings, and for benchmarks and demos.
//
//   hermes-mock-server [--port N] [--script FILE] [--loop] [--quiet] [--no-record]
//                      [--conversation-script FILE]
//
// Prints exactly one line, "PORT=<n>", to stdout once it listens, then serves until
// SIGTERM, SIGINT or POST /_mock/shutdown. A script is a JSON list of response specs
// (see mock_response_json.cpp), or {"responses": [...], "default": {...}}; with --loop
// the list repeats forever. A conversation script (a JSON list of response specs) serves
// paths /c/<key>/..., each key walking it on its own (MockServer::set_conversation_script):
// that is how benchmarks run many scripted conversations at once. Tests script the server
// through the control API (mock_control_api.hpp). Each request is logged to stderr unless
// --quiet.
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "common/json_text.hpp"
#include "support/mock_server.hpp"

namespace {

using hermes::Json;
using hermes::Result;
using hermes::Status;
using hermes::testing::MockResponse;
using hermes::testing::MockServer;
using hermes::testing::RecordedRequest;

struct Options {
  int port = 0;
  std::string script;
  std::string conversation_script;
  bool loop = false;
  bool quiet = false;
  bool record = true;
};

constexpr const char* kUsage =
    "usage: hermes-mock-server [--port N] [--script FILE] [--loop] [--quiet] [--no-record]\n"
    "                          [--conversation-script FILE]\n";

std::optional<Options> parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    bool has_value = i + 1 < argc;
    if (arg == "--port" && has_value) {
      char* end = nullptr;
      long port = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || port < 0 || port > 65535) return std::nullopt;
      options.port = static_cast<int>(port);
    } else if (arg == "--script" && has_value) {
      options.script = argv[++i];
    } else if (arg == "--conversation-script" && has_value) {
      options.conversation_script = argv[++i];
    } else if (arg == "--loop") {
      options.loop = true;
    } else if (arg == "--quiet") {
      options.quiet = true;
    } else if (arg == "--no-record") {
      options.record = false;
    } else {
      return std::nullopt;
    }
  }
  return options;
}

Result<MockResponse> read_spec(const Json& spec, const std::string& where) {
  Result<MockResponse> response = hermes::testing::mock_response_from_json(spec);
  if (!response.ok()) return Status::invalid_argument(where + ": " + response.status().message());
  return response;
}

Result<Json> read_json_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Status::not_found("cannot read script " + path);
  std::ostringstream text;
  text << file.rdbuf();
  std::optional<Json> json = hermes::internal::parse_json(text.str());
  if (!json) return Status::invalid_argument(path + " is not JSON");
  return std::move(*json);
}

Status load_conversation_script(const std::string& path, MockServer& server) {
  Result<Json> script = read_json_file(path);
  if (!script.ok()) return script.status();
  if (!script->is_array() || script->empty()) {
    return Status::invalid_argument(path + ": a conversation script is a non-empty list");
  }
  std::vector<MockResponse> responses;
  for (std::size_t i = 0; i < script->size(); ++i) {
    Result<MockResponse> response =
        read_spec((*script)[i], path + ": response " + std::to_string(i));
    if (!response.ok()) return response.status();
    responses.push_back(std::move(response).value());
  }
  server.set_conversation_script(std::move(responses));
  return Status();
}

Status load_script(const std::string& path, MockServer& server) {
  Result<Json> script = read_json_file(path);
  if (!script.ok()) return script.status();
  Json responses = *script;
  if (script->is_object()) {
    for (const auto& item : script->items()) {
      if (item.key() != "responses" && item.key() != "default") {
        return Status::invalid_argument(path + ": unknown key \"" + item.key() + "\"");
      }
    }
    responses = script->value("responses", Json::array());
    if (script->contains("default")) {
      Result<MockResponse> fallback = read_spec((*script)["default"], path + ": default");
      if (!fallback.ok()) return fallback.status();
      server.set_default(std::move(fallback).value());
    }
  }
  if (!responses.is_array()) return Status::invalid_argument(path + ": responses must be a list");
  for (std::size_t i = 0; i < responses.size(); ++i) {
    Result<MockResponse> response =
        read_spec(responses[i], path + ": response " + std::to_string(i));
    if (!response.ok()) return response.status();
    server.enqueue(std::move(response).value());
  }
  return Status();
}

void log_request(const RecordedRequest& request, int status) {
  std::fprintf(stderr, "hermes-mock-server: %s %s -> %d\n", request.method.c_str(),
               request.path.c_str(), status);
}

int serve(const Options& options, const sigset_t& stop_signals) {
  MockServer server(options.port);
  if (!options.script.empty()) {
    if (Status loaded = load_script(options.script, server); !loaded.ok()) {
      std::fprintf(stderr, "hermes-mock-server: %s\n", loaded.message().c_str());
      return 2;
    }
  }
  if (!options.conversation_script.empty()) {
    Status loaded = load_conversation_script(options.conversation_script, server);
    if (!loaded.ok()) {
      std::fprintf(stderr, "hermes-mock-server: %s\n", loaded.message().c_str());
      return 2;
    }
  }
  server.set_looping(options.loop);
  server.set_recording(options.record);
  if (!options.quiet) server.on_request(log_request);
  // The signal waits in the main thread's sigwait() below, like SIGTERM from outside.
  server.on_shutdown_request([] { kill(getpid(), SIGTERM); });

  std::printf("PORT=%d\n", server.port());
  std::fflush(stdout);
  int received = 0;
  sigwait(&stop_signals, &received);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::optional<Options> options = parse_options(argc, argv);
  if (!options) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  // Blocked before any thread starts, so every thread inherits the mask and the signals
  // reach only sigwait().
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  try {
    return serve(*options, stop_signals);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hermes-mock-server: %s\n", e.what());
    return 1;
  }
}
