// MCP servers over HTTP for the tests: a child process listening on a loopback port,
// stopped when the object goes away.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "mcp/child_process.hpp"
#include "mcp_test_support.hpp"

namespace hermes::testing {

class HttpServerProcess {
 public:
  // tests/fixtures/mcp/fake_http_server.py with `flags`; it prints its port first.
  static std::unique_ptr<HttpServerProcess> fake(std::vector<std::string> flags = {}) {
    return fixture("fake_http_server.py", std::move(flags));
  }

  // tests/fixtures/mcp/<script> with `flags`; it prints its port first.
  static std::unique_ptr<HttpServerProcess> fixture(const std::string& script,
                                                    std::vector<std::string> flags = {}) {
    auto server = std::make_unique<HttpServerProcess>();
    std::vector<std::string> args{std::string(HERMES_FIXTURES_DIR) + "/mcp/" + script};
    args.insert(args.end(), flags.begin(), flags.end());
    REQUIRE(server->process_.spawn({HERMES_TEST_PYTHON, args, {}, "", {}}).ok());
    server->port_ = std::stoi(server->read_line());
    server->drain();
    return server;
  }

  // server-everything in Streamable HTTP mode, or nullptr (with a message) when node or
  // the package is missing.
  static std::unique_ptr<HttpServerProcess> everything() {
    const std::string script = reference_server("server-everything");
    if (script.empty()) return nullptr;
    auto server = std::make_unique<HttpServerProcess>();
    server->port_ = free_port();
    REQUIRE(server->process_
                .spawn({"node",
                        {script, "streamableHttp"},
                        {{"PORT", std::to_string(server->port_)}},
                        "",
                        {}})
                .ok());
    server->drain();
    REQUIRE(eventually([&] { return server->accepts_connections(); }));
    return server;
  }

  ~HttpServerProcess() {
    // Nothing here is worth a graceful shutdown, and server-everything spends two seconds
    // closing its HTTP server after SIGTERM.
    process_.stop(std::chrono::milliseconds(100));
    if (out_.joinable()) out_.join();
    if (err_.joinable()) err_.join();
  }

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/mcp"; }

  McpServerConfig config(const std::string& name) const {
    McpServerConfig c;
    c.name = name;
    c.url = url();
    c.restart_backoff = std::chrono::milliseconds(20);
    c.max_restart_backoff = std::chrono::milliseconds(200);
    c.connect_timeout = std::chrono::seconds(30);
    c.call_timeout = std::chrono::seconds(30);
    c.request_timeout = std::chrono::seconds(30);
    return c;
  }

 private:
  static int free_port() {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    ::close(fd);
    return ntohs(addr.sin_port);
  }

  bool accepts_connections() const {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port_));
    const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    ::close(fd);
    return ok;
  }

  std::string read_line() {
    std::string line;
    char c = 0;
    while (::read(process_.stdout_fd(), &c, 1) == 1 && c != '\n') line.push_back(c);
    REQUIRE_FALSE(line.empty());
    return line;
  }

  // The server's output is not looked at, but a full pipe would stall it.
  void drain() {
    auto sink = [](int fd) {
      char buffer[4096];
      while (::read(fd, buffer, sizeof buffer) > 0) {
      }
    };
    out_ = std::thread(sink, process_.stdout_fd());
    err_ = std::thread(sink, process_.stderr_fd());
  }

  internal::ChildProcess process_;
  int port_ = 0;
  std::thread out_;
  std::thread err_;
};

}  // namespace hermes::testing
