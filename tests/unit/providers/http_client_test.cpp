// The HTTP client against a real loopback socket. Timings are generous bounds that tell
// a cancellation or a timeout apart from a hang; the latency itself is a benchmark's job.
#include "providers/http_client.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "unit/providers/loopback_socket_server.hpp"

using namespace std::chrono_literals;
using hermes::CancelToken;
using hermes::TransportFailure;
using hermes::internal::HttpBodySink;
using hermes::internal::HttpClient;
using hermes::internal::HttpMethod;
using hermes::internal::HttpRequest;
using hermes::internal::HttpResponseHead;
using hermes::internal::HttpResult;
using hermes::testing::LoopbackConnection;
using hermes::testing::LoopbackSocketServer;

namespace {

HttpRequest request_to(const LoopbackSocketServer& server, std::string body = "{}") {
  HttpRequest request;
  request.url = server.url("/v1/chat/completions");
  request.body = std::move(body);
  request.timeouts.connect = 5s;
  request.timeouts.first_byte = 30s;
  request.timeouts.idle = 30s;
  request.timeouts.total = 60s;
  return request;
}

std::string http_json_response(int status, const std::string& body,
                               const std::string& headers = "") {
  return "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Type: application/json\r\n" +
         headers + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

std::string chunk(const std::string& data) {
  char size[16];
  std::snprintf(size, sizeof size, "%zx", data.size());
  return std::string(size) + "\r\n" + data + "\r\n";
}

const std::string kStreamHead =
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";

// Waits (boundedly) for a flag another thread sets.
bool eventually(const std::atomic<bool>& flag) {
  for (int i = 0; i < 250 && !flag; ++i) std::this_thread::sleep_for(20ms);
  return flag;
}

// Collects streamed bytes.
struct Collector {
  std::string bytes;
  HttpBodySink sink;
  Collector() {
    sink.wants_stream = [](const HttpResponseHead& head) { return head.status == 200; };
    sink.on_data = [this](std::string_view data) {
      bytes.append(data);
      return true;
    };
  }
};

}  // namespace

TEST_CASE("a cancelled transfer stops long before any timeout") {
  std::atomic<bool> client_hung_up{false};
  LoopbackSocketServer server([&](LoopbackConnection& c) {
    if (!c.read_request()) return;
    client_hung_up = c.wait_for_hangup();  // Never answers.
  });
  CancelToken cancel;
  std::chrono::steady_clock::time_point cancelled_at;
  std::thread canceller([&] {
    std::this_thread::sleep_for(200ms);
    cancelled_at = std::chrono::steady_clock::now();
    cancel.cancel();
  });
  const HttpResult result = HttpClient::shared().post(request_to(server), cancel);
  const auto latency = std::chrono::steady_clock::now() - cancelled_at;
  canceller.join();
  CHECK(result.cancelled);
  CHECK(result.failure == TransportFailure::kNone);
  CHECK(latency < 10s);               // Far below the 30 s first-byte timeout: the token ended it.
  CHECK(eventually(client_hung_up));  // The transfer was aborted, not merely abandoned.
  MESSAGE("cancellation latency: ",
          std::chrono::duration_cast<std::chrono::milliseconds>(latency).count(), " ms");
}

TEST_CASE("a stream cancelled between chunks stops and drops the connection") {
  std::atomic<bool> client_hung_up{false};
  LoopbackSocketServer server([&](LoopbackConnection& c) {
    if (!c.read_request()) return;
    c.send(kStreamHead + chunk("data: {\"n\":1}\n\n"));
    client_hung_up = c.wait_for_hangup();
  });
  CancelToken cancel;
  Collector collector;
  collector.sink.on_data = [&](std::string_view data) {
    collector.bytes.append(data);
    cancel.cancel();  // Cancelled from inside the stream callback.
    return true;
  };
  const HttpResult result = HttpClient::shared().post(request_to(server), cancel, &collector.sink);
  CHECK(result.cancelled);
  CHECK(collector.bytes == "data: {\"n\":1}\n\n");
  CHECK(eventually(client_hung_up));
}

TEST_CASE("no first byte within the first-byte timeout is a timeout") {
  LoopbackSocketServer server([](LoopbackConnection& c) {
    if (c.read_request()) c.wait_for_hangup();
  });
  HttpRequest request = request_to(server);
  request.timeouts.first_byte = 300ms;
  const HttpResult result = HttpClient::shared().post(request, CancelToken());
  CHECK(result.failure == TransportFailure::kTimeout);
  CHECK(result.error.find("first response byte") != std::string::npos);
  CHECK_FALSE(result.cancelled);
}

TEST_CASE("silence between chunks beyond the idle timeout is a timeout") {
  LoopbackSocketServer server([](LoopbackConnection& c) {
    if (!c.read_request()) return;
    c.send(kStreamHead + chunk(": keep-alive\n\n"));
    std::this_thread::sleep_for(100ms);
    c.send(chunk("data: {\"n\":1}\n\n"));  // Within the idle limit: keeps the stream alive.
    c.wait_for_hangup();
  });
  HttpRequest request = request_to(server);
  request.timeouts.idle = 400ms;
  Collector collector;
  const HttpResult result = HttpClient::shared().post(request, CancelToken(), &collector.sink);
  CHECK(result.failure == TransportFailure::kTimeout);
  CHECK(result.error.find("idle") != std::string::npos);
  CHECK(result.streamed);
  CHECK(collector.bytes == ": keep-alive\n\ndata: {\"n\":1}\n\n");
}

TEST_CASE("the total timeout bounds a stream that never goes quiet") {
  LoopbackSocketServer server([](LoopbackConnection& c) {
    if (!c.read_request()) return;
    c.send(kStreamHead);
    for (int i = 0; i < 200 && c.send(chunk(": ping\n\n")); ++i) std::this_thread::sleep_for(20ms);
  });
  HttpRequest request = request_to(server);
  request.timeouts.total = 500ms;
  Collector collector;
  const HttpResult result = HttpClient::shared().post(request, CancelToken(), &collector.sink);
  CHECK(result.failure == TransportFailure::kTimeout);
  CHECK(result.error.find("the request timed out") != std::string::npos);
}

TEST_CASE("connections are kept alive and reused across calls") {
  LoopbackSocketServer server([](LoopbackConnection& c) {
    std::string body;
    while (c.read_request(nullptr, &body))
      c.send(http_json_response(200, "{\"echo\":" + body + "}"));
  });
  for (int i = 0; i < 3; ++i) {
    const HttpResult result =
        HttpClient::shared().post(request_to(server, "[" + std::to_string(i) + "]"), CancelToken());
    CHECK(result.head.status == 200);
    CHECK(result.body == "{\"echo\":[" + std::to_string(i) + "]}");
  }
  CHECK(server.connections_accepted() == 1);
}

TEST_CASE("concurrent calls share the client and its connections safely") {
  LoopbackSocketServer server([](LoopbackConnection& c) {
    std::string body;
    while (c.read_request(nullptr, &body)) c.send(http_json_response(200, body));
  });
  constexpr int kThreads = 6;
  constexpr int kCallsPerThread = 10;
  std::atomic<int> answered{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kCallsPerThread; ++i) {
        const std::string body = "[" + std::to_string(t * 100 + i) + "]";
        const HttpResult result =
            HttpClient::shared().post(request_to(server, body), CancelToken());
        if (result.head.status == 200 && result.body == body) ++answered;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  CHECK(answered == kThreads * kCallsPerThread);
  // At most one connection per transfer in flight at once; the rest were reused.
  CHECK(server.connections_accepted() <= kThreads);
}

TEST_CASE("the request is a JSON POST without Expect: 100-continue") {
  std::string head;
  std::string body;
  LoopbackSocketServer server([&](LoopbackConnection& c) {
    if (c.read_request(&head, &body)) c.send(http_json_response(200, "{}"));
  });
  HttpRequest request = request_to(server, "{\"pad\":\"" + std::string(2 << 20, 'x') + "\"}");
  request.headers = {"Authorization: Bearer sk-test", "X-Title: hermes"};
  const HttpResult result = HttpClient::shared().post(request, CancelToken());
  REQUIRE(result.head.status == 200);
  CHECK(head.rfind("POST /v1/chat/completions HTTP/1.1\r\n", 0) == 0);
  CHECK(head.find("\r\nContent-Type: application/json\r\n") != std::string::npos);
  CHECK(head.find("\r\nAuthorization: Bearer sk-test\r\n") != std::string::npos);
  CHECK(head.find("\r\nX-Title: hermes\r\n") != std::string::npos);
  CHECK(head.find("Expect:") == std::string::npos);
  CHECK(body.size() == request.body.size());
}

TEST_CASE("a GET and a DELETE carry no body and no JSON content type") {
  std::vector<std::string> heads;
  std::mutex mutex;
  LoopbackSocketServer server([&](LoopbackConnection& c) {
    std::string head;
    while (c.read_request(&head)) {
      {
        std::lock_guard<std::mutex> lock(mutex);
        heads.push_back(head);
      }
      c.send(http_json_response(200, R"({"ok":true})"));
    }
  });
  HttpRequest request = request_to(server, "");
  request.url = server.url("/mcp");
  request.headers = {"Mcp-Session-Id: s-1"};
  const HttpResult got = HttpClient::shared().get(request, CancelToken());
  const HttpResult deleted = HttpClient::shared().send(HttpMethod::kDelete, request, CancelToken());
  CHECK(got.body == R"({"ok":true})");
  CHECK(deleted.body == R"({"ok":true})");
  CHECK(deleted.head.status == 200);
  std::lock_guard<std::mutex> lock(mutex);
  REQUIRE(heads.size() == 2);
  CHECK(heads[0].rfind("GET /mcp HTTP/1.1\r\n", 0) == 0);
  CHECK(heads[1].rfind("DELETE /mcp HTTP/1.1\r\n", 0) == 0);
  for (const std::string& head : heads) {
    CHECK(head.find("\r\nMcp-Session-Id: s-1\r\n") != std::string::npos);
    CHECK(head.find("Content-Type") == std::string::npos);
    CHECK(head.find("Content-Length: ") == std::string::npos);
  }
}

TEST_CASE("a POST keeps a content type the caller chose") {
  std::string head;
  LoopbackSocketServer server([&](LoopbackConnection& c) {
    if (c.read_request(&head)) c.send(http_json_response(200, "{}"));
  });
  HttpRequest request = request_to(server, "a=1");
  request.headers = {"content-type: application/x-www-form-urlencoded"};
  REQUIRE(HttpClient::shared().post(request, CancelToken()).head.status == 200);
  CHECK(head.find("application/json") == std::string::npos);
  CHECK(head.find("\r\ncontent-type: application/x-www-form-urlencoded\r\n") != std::string::npos);
}

TEST_CASE("every response header can be looked up ignoring case") {
  LoopbackSocketServer server([](LoopbackConnection& c) {
    if (!c.read_request()) return;
    c.send(
        "HTTP/1.1 100 Continue\r\nX-Interim: yes\r\n\r\n"
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nMcp-Session-Id:  abc-123 \r\n"
        "X-Twice: first\r\nX-Twice: second\r\nContent-Length: 0\r\n\r\n");
  });
  const HttpResult result = HttpClient::shared().post(request_to(server), CancelToken());
  REQUIRE(result.head.status == 200);
  CHECK(result.head.header("mcp-session-id") == "abc-123");
  CHECK(result.head.header("MCP-SESSION-ID") == "abc-123");
  CHECK(result.head.header("x-twice") == "first");
  CHECK(result.head.header("content-type") == "text/event-stream");
  CHECK_FALSE(result.head.find_header("x-interim").has_value());  // The 1xx head is gone.
  CHECK_FALSE(result.head.find_header("x-absent").has_value());
  CHECK(result.head.header("x-absent").empty());
}

TEST_CASE("status, content type, request id and Retry-After are reported") {
  LoopbackSocketServer server([](LoopbackConnection& c) {
    if (!c.read_request()) return;
    c.send(http_json_response(429, R"({"error":{"message":"slow down"}})",
                              "x-request-id: req_abc123\r\nRetry-After: 7\r\n"));
  });
  const HttpResult result = HttpClient::shared().post(request_to(server), CancelToken());
  CHECK(result.head.status == 429);
  CHECK(result.head.content_type == "application/json");
  CHECK(result.head.request_id == "req_abc123");
  REQUIRE(result.head.retry_after_seconds.has_value());
  CHECK(*result.head.retry_after_seconds == doctest::Approx(7));
  CHECK(result.body == R"({"error":{"message":"slow down"}})");
  CHECK(result.failure == TransportFailure::kNone);
}

TEST_CASE("retry-after-ms wins over retry-after, and request-id is a fallback id") {
  LoopbackSocketServer server([](LoopbackConnection& c) {
    if (!c.read_request()) return;
    c.send(http_json_response(
        529, "{}", "request-id: req_ant\r\nretry-after: 30\r\nretry-after-ms: 1500\r\n"));
  });
  const HttpResult result = HttpClient::shared().post(request_to(server), CancelToken());
  CHECK(result.head.request_id == "req_ant");
  REQUIRE(result.head.retry_after_seconds.has_value());
  CHECK(*result.head.retry_after_seconds == doctest::Approx(1.5));
}

TEST_CASE("an error answer to a stream request is buffered, not streamed") {
  LoopbackSocketServer server([](LoopbackConnection& c) {
    if (c.read_request()) c.send(http_json_response(401, R"({"error":{"message":"bad key"}})"));
  });
  Collector collector;
  const HttpResult result =
      HttpClient::shared().post(request_to(server), CancelToken(), &collector.sink);
  CHECK(result.head.status == 401);
  CHECK_FALSE(result.streamed);
  CHECK(collector.bytes.empty());
  CHECK(result.body == R"({"error":{"message":"bad key"}})");
}

TEST_CASE("a connection closed in the middle of a chunked body is a disconnect") {
  LoopbackSocketServer server([](LoopbackConnection& c) {
    if (!c.read_request()) return;
    c.send(kStreamHead + chunk("data: {\"n\":1}\n\n") + "40\r\npartial");
  });
  Collector collector;
  const HttpResult result =
      HttpClient::shared().post(request_to(server), CancelToken(), &collector.sink);
  CHECK(result.failure == TransportFailure::kDisconnect);
  CHECK(collector.bytes.rfind("data: {\"n\":1}\n\n", 0) == 0);
}

TEST_CASE("a refused connection is a connect failure") {
  std::string url;
  {
    LoopbackSocketServer closed([](LoopbackConnection&) {});
    url = closed.url("/v1/chat/completions");
  }
  HttpRequest request;
  request.url = url;
  request.body = "{}";
  const HttpResult result = HttpClient::shared().post(request, CancelToken());
  CHECK(result.failure == TransportFailure::kConnect);
  CHECK_FALSE(result.error.empty());
  CHECK(result.head.status == 0);
}

TEST_CASE("a sink that stops the transfer is reported as stopped") {
  LoopbackSocketServer server([](LoopbackConnection& c) {
    if (!c.read_request()) return;
    c.send(kStreamHead + chunk("data: 1\n\n"));
    c.wait_for_hangup();
  });
  HttpBodySink sink;
  sink.wants_stream = [](const HttpResponseHead&) { return true; };
  sink.on_data = [](std::string_view) { return false; };
  const HttpResult result = HttpClient::shared().post(request_to(server), CancelToken(), &sink);
  CHECK(result.stopped);
  CHECK(result.error.empty());
  CHECK(result.failure == TransportFailure::kNone);
}

TEST_CASE("a sink that throws stops the transfer without unwinding through libcurl") {
  LoopbackSocketServer server([](LoopbackConnection& c) {
    if (!c.read_request()) return;
    c.send(kStreamHead + chunk("data: 1\n\n"));
    c.wait_for_hangup();
  });
  HttpBodySink sink;
  sink.wants_stream = [](const HttpResponseHead&) { return true; };
  sink.on_data = [](std::string_view) -> bool { throw std::runtime_error("boom"); };
  const HttpResult result = HttpClient::shared().post(request_to(server), CancelToken(), &sink);
  CHECK(result.stopped);
  CHECK(result.error.find("threw") != std::string::npos);
}

TEST_CASE("Retry-After values parse as seconds or as an HTTP date") {
  using hermes::internal::parse_retry_after;
  CHECK(parse_retry_after("7", 0) == doctest::Approx(7));
  CHECK(parse_retry_after(" 1.5 ", 0) == doctest::Approx(1.5));
  // Sun, 06 Nov 1994 08:49:37 GMT is 784111777 in Unix time.
  CHECK(parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", 784111777 - 42) == doctest::Approx(42));
  CHECK(parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", 784111777 + 42) == doctest::Approx(0));
  CHECK_FALSE(parse_retry_after("-3", 0).has_value());
  CHECK_FALSE(parse_retry_after("soon", 0).has_value());
  CHECK_FALSE(parse_retry_after("", 0).has_value());
}

TEST_CASE("a stream that never ends is cut off at its size limit, which names itself") {
  CHECK(hermes::internal::kMaxStreamedBodyBytes == 256u << 20);
  std::atomic<bool> client_hung_up{false};
  LoopbackSocketServer server([&](LoopbackConnection& c) {
    if (!c.read_request()) return;
    c.send(kStreamHead);
    const std::string event = chunk("data: " + std::string(4090, 'x') + "\n\n");
    while (c.send(event)) {
    }
    client_hung_up = true;
  });
  HttpRequest request = request_to(server);
  request.max_streamed_body_bytes = 1u << 20;
  std::size_t received = 0;
  HttpBodySink sink;
  sink.wants_stream = [](const HttpResponseHead&) { return true; };
  sink.on_data = [&](std::string_view data) {
    received += data.size();
    return true;
  };
  const HttpResult result = HttpClient::shared().post(request, CancelToken(), &sink);
  CHECK(result.too_large);
  CHECK(result.stopped);
  CHECK(result.failure == TransportFailure::kNone);
  CHECK(result.error ==
        "the response stream reached 1 MiB, more than hermes reads of one response");
  CHECK(received <= (1u << 20));
  CHECK(eventually(client_hung_up));
}

TEST_CASE("a buffered body beyond its size limit is cut off as well") {
  CHECK(hermes::internal::kMaxBufferedBodyBytes == 64u << 20);
  LoopbackSocketServer server([](LoopbackConnection& c) {
    if (!c.read_request()) return;
    c.send(http_json_response(200, "[\"" + std::string(3u << 20, 'b') + "\"]"));
  });
  HttpRequest request = request_to(server);
  request.max_buffered_body_bytes = 1u << 20;
  const HttpResult result = HttpClient::shared().post(request, CancelToken());
  CHECK(result.too_large);
  CHECK(result.body.size() <= (1u << 20));
  CHECK(result.error == "the response body reached 1 MiB, more than hermes reads of one response");
}

TEST_CASE("response headers without end are cut off") {
  std::atomic<bool> client_hung_up{false};
  LoopbackSocketServer server([&](LoopbackConnection& c) {
    if (!c.read_request()) return;
    c.send("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n");
    const std::string line = "X-Filler: " + std::string(1000, 'h') + "\r\n";
    while (c.send(line)) {
    }
    client_hung_up = true;
  });
  const HttpResult result = HttpClient::shared().post(request_to(server), CancelToken());
  CHECK(result.too_large);
  CHECK(result.error ==
        "the response headers reached 262144 bytes, more than hermes reads of one response");
  CHECK(eventually(client_hung_up));
}
