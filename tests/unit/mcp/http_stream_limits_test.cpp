// What an MCP server over Streamable HTTP cannot do to the client: send an event that
// never ends, send JSON nested without end, or hold the stream of its own messages open
// without a word. Staged byte by byte on a raw loopback socket.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "mcp/http_transport.hpp"
#include "unit/mcp/mcp_test_support.hpp"
#include "unit/providers/loopback_socket_server.hpp"

using namespace std::chrono_literals;
using hermes::Json;
using hermes::Status;
using hermes::StatusCode;
using hermes::internal::HttpTransport;
using hermes::internal::HttpTransportOptions;
using hermes::testing::LoopbackConnection;
using hermes::testing::LoopbackSocketServer;

namespace {

const std::string kSseHead =
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
const std::string kAccepted = "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n";

std::string sse_chunk(const std::string& bytes) {
  char size[16];
  std::snprintf(size, sizeof size, "%zx\r\n", bytes.size());
  return size + bytes + "\r\n";
}

std::string json_response(const std::string& body) {
  return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n\r\n" + body;
}

std::string deep_array() {
  return std::string(100000, '[') + std::string(100000, ']');
}

// A transport to `server` that records the failures of its requests.
struct TransportUnderTest {
  std::unique_ptr<HttpTransport> transport;
  std::mutex mu;
  std::vector<Status> failures;

  explicit TransportUnderTest(const LoopbackSocketServer& server,
                              std::chrono::milliseconds listen_idle = 300'000ms) {
    HttpTransportOptions options;
    options.label = "MCP server 't'";
    options.url = server.url("/mcp");
    options.connect_timeout = 5s;
    options.response_timeout = 30s;
    options.listen_idle_timeout = listen_idle;
    options.max_message_bytes = 64u << 10;
    transport = std::make_unique<HttpTransport>(options);
    HttpTransport::Handlers handlers;
    handlers.on_message = [](const Json&) {};
    handlers.on_request_failed = [this](const Json&, Status reason) {
      std::lock_guard lock(mu);
      failures.push_back(std::move(reason));
    };
    REQUIRE(transport->start(std::move(handlers)).ok());
  }
  ~TransportUnderTest() { transport->close(); }

  // Sends a request and waits for its failure.
  Status failure_of_request() {
    REQUIRE(transport->send({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/list"}}).ok());
    REQUIRE(hermes::testing::eventually([&] {
      std::lock_guard lock(mu);
      return !failures.empty();
    }));
    std::lock_guard lock(mu);
    return failures.front();
  }
};

}  // namespace

TEST_CASE("an MCP event that never ends fails its request at the message size limit") {
  std::atomic<bool> client_hung_up{false};
  LoopbackSocketServer server([&](LoopbackConnection& c) {
    if (!c.read_request()) return;
    c.send(kSseHead + sse_chunk("data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\""));
    const std::string more = sse_chunk(std::string(4096, 'x'));
    while (c.send(more)) {
    }
    client_hung_up = true;
  });
  TransportUnderTest t(server);
  const Status failure = t.failure_of_request();
  CHECK(failure.code() == StatusCode::kResourceExhausted);
  CHECK(failure.message() ==
        "MCP server 't': the event stream sent a line longer than 65536 bytes");
  CHECK(hermes::testing::eventually([&] { return client_hung_up.load(); }));
}

TEST_CASE("an MCP event holding JSON nested without end fails its request, naming the nesting") {
  LoopbackSocketServer server([](LoopbackConnection& c) {
    if (!c.read_request()) return;
    c.send(kSseHead + sse_chunk("data: " + deep_array().substr(0, 60000) + "\n\n"));
    c.wait_for_hangup();
  });
  TransportUnderTest t(server);
  const Status failure = t.failure_of_request();
  CHECK(failure.code() == StatusCode::kResourceExhausted);
  CHECK(failure.message() == "MCP server 't' sent JSON nested deeper than 256 levels");
}

TEST_CASE("an MCP answer body nested without end fails its request, naming the nesting") {
  LoopbackSocketServer server([](LoopbackConnection& c) {
    if (c.read_request()) c.send(json_response(deep_array().substr(0, 30000) + "]"));
  });
  TransportUnderTest t(server);
  const Status failure = t.failure_of_request();
  CHECK(failure.code() == StatusCode::kResourceExhausted);
  CHECK(failure.message() == "MCP server 't' sent JSON nested deeper than 256 levels");
}

TEST_CASE("a silent stream of the server's own messages is closed and opened again") {
  CHECK(HttpTransportOptions().listen_idle_timeout == 300'000ms);
  std::atomic<int> gets{0};
  std::atomic<int> gets_closed_by_client{0};
  LoopbackSocketServer server([&](LoopbackConnection& c) {
    std::string head;
    while (c.read_request(&head)) {
      if (head.rfind("GET", 0) != 0) {
        c.send(kAccepted);
        continue;
      }
      ++gets;
      c.send(kSseHead);  // And then not a byte more.
      if (c.wait_for_hangup()) ++gets_closed_by_client;
      return;
    }
  });
  TransportUnderTest t(server, 300ms);
  REQUIRE(t.transport->send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}).ok());
  CHECK(hermes::testing::eventually([&] { return gets_closed_by_client >= 2; }));
  CHECK(gets >= 2);
}

TEST_CASE("an endless event on the stream of the server's own messages closes that stream") {
  std::atomic<bool> get_closed_by_client{false};
  LoopbackSocketServer server([&](LoopbackConnection& c) {
    std::string head;
    while (c.read_request(&head)) {
      if (head.rfind("GET", 0) != 0) {
        c.send(kAccepted);
        continue;
      }
      c.send(kSseHead + sse_chunk("data: "));
      const std::string more = sse_chunk(std::string(4096, 'y'));
      while (c.send(more)) {
      }
      get_closed_by_client = true;
      return;
    }
  });
  TransportUnderTest t(server);
  REQUIRE(t.transport->send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}).ok());
  CHECK(hermes::testing::eventually([&] { return get_closed_by_client.load(); }));
}
