// The mock server as provider tests see it over a real socket: scripted answers, the
// recorded requests, keep-alive, and every fault it can inject.
#include "support/mock_server.hpp"

#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "support/loopback_client.hpp"
#include "support/mock_responses.hpp"

using hermes::Json;
using hermes::testing::HttpReply;
using hermes::testing::LoopbackClient;
using hermes::testing::MockResponse;
using hermes::testing::MockServer;
using hermes::testing::RecordedRequest;
namespace chat = hermes::testing::chat;
using namespace std::chrono_literals;

namespace {

constexpr const char* kCompletions = "/v1/chat/completions";

MockResponse chunks_response(std::vector<std::string> chunks) {
  MockResponse response;
  response.chunks = std::move(chunks);
  return response;
}

MockResponse body_response(std::string body) {
  MockResponse response;
  response.body = std::move(body);
  return response;
}

// Waits for a condition another thread makes true; gives up (and fails) after a minute,
// which only a broken server reaches.
template <typename Condition>
bool eventually(Condition condition) {
  for (int i = 0; i < 60000 && !condition(); ++i) std::this_thread::sleep_for(1ms);
  return condition();
}

}  // namespace

TEST_CASE("a scripted text answer is served as a JSON body with Content-Length") {
  MockServer server;
  server.enqueue(chat::text("Hello there", false));
  LoopbackClient client(server.port());
  HttpReply reply = client.request("POST", kCompletions, R"({"model":"m"})");
  CHECK(reply.status == 200);
  CHECK(reply.complete);
  CHECK_FALSE(reply.chunked);
  CHECK(reply.header("content-type") == "application/json");
  CHECK(reply.header("content-length") == std::to_string(reply.body.size()));
  Json body = Json::parse(reply.body);
  CHECK(body["choices"][0]["message"]["content"] == "Hello there");
  CHECK(server.pending() == 0);
}

TEST_CASE("a streamed answer arrives as one HTTP chunk per SSE event") {
  MockServer server;
  MockResponse stream = chat::tool_calls({{"call_1", "get_weather", R"({"city":"Paris"})"}}, true);
  server.enqueue(stream);
  LoopbackClient client(server.port());
  HttpReply reply = client.request("POST", kCompletions, R"({"stream":true})");
  CHECK(reply.status == 200);
  CHECK(reply.chunked);
  CHECK(reply.complete);
  CHECK(reply.header("content-type") == "text/event-stream");
  CHECK(reply.chunks == stream.chunks);
}

TEST_CASE("one connection serves several requests in turn") {
  MockServer server;
  server.enqueue({chat::text("one", false), chat::text("two", true), chat::text("three", false)});
  LoopbackClient client(server.port());
  HttpReply first = client.request("POST", kCompletions, "{}");
  HttpReply second = client.request("POST", kCompletions, "{}");
  HttpReply third = client.request("POST", kCompletions, "{}");
  for (const HttpReply* reply : {&first, &second, &third}) {
    CHECK(reply->status == 200);
    CHECK(reply->complete);
    CHECK(reply->header("connection") == "keep-alive");
  }
  CHECK(Json::parse(first.body)["choices"][0]["message"]["content"] == "one");
  CHECK(second.body.find(R"("content":"two")") != std::string::npos);
  CHECK(Json::parse(third.body)["choices"][0]["message"]["content"] == "three");
  CHECK(server.request_count() == 3);
}

TEST_CASE("requests are recorded with method, path, headers and body") {
  MockServer server;
  std::vector<int> observed;
  server.on_request([&](const RecordedRequest&, int status) { observed.push_back(status); });
  server.set_default(chat::text("ok", false));
  LoopbackClient client(server.port());
  client.request("POST", "/v1/chat/completions?trace=1", R"({"model":"gpt","stream":false})",
                 {{"Authorization", "Bearer sk-test"}, {"X-Custom", "a"}, {"X-Custom", "b"}});
  client.request("GET", "/v1/files");
  client.request("GET", "/_mock/pending");  // Control requests are not recorded.

  std::vector<RecordedRequest> requests = server.requests();
  REQUIRE(requests.size() == 2);
  CHECK(requests[0].method == "POST");
  CHECK(requests[0].path == "/v1/chat/completions?trace=1");
  CHECK(requests[0].headers.at("authorization") == "Bearer sk-test");
  CHECK(requests[0].header("AUTHORIZATION") == "Bearer sk-test");
  CHECK(requests[0].header("x-custom") == "a, b");
  CHECK(requests[0].header("x-absent").empty());
  CHECK(requests[0].body == R"({"model":"gpt","stream":false})");
  CHECK(requests[0].json()["model"] == "gpt");
  CHECK(requests[1].method == "GET");
  CHECK(requests[1].body.empty());
  CHECK(requests[1].json().is_null());
  CHECK(server.request_count() == 2);
  CHECK(observed == std::vector<int>{200, 200});
}

TEST_CASE("a chunked request body is decoded before it is recorded") {
  MockServer server;
  server.enqueue(chat::text("ok", false));
  LoopbackClient client(server.port());
  client.send_raw(
      "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
      "7;ext=1\r\n{\"a\": 1\r\n1\r\n}\r\n0\r\nTrailer: t\r\n\r\n");
  HttpReply reply = client.read_reply();
  CHECK(reply.status == 200);
  REQUIRE(server.request_count() == 1);
  CHECK(server.requests()[0].body == R"({"a": 1})");
}

TEST_CASE("a client that expects 100-continue gets it before it sends the body") {
  MockServer server;
  server.enqueue(chat::text("ok", false));
  LoopbackClient client(server.port());
  const std::string body = R"({"big":"body"})";
  client.send_raw(
      "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n"
      "Content-Length: " +
      std::to_string(body.size()) + "\r\n\r\n");
  REQUIRE(client.readable(30s));  // Only the interim answer can arrive before the body.
  client.send_raw(body);
  HttpReply reply = client.read_reply();
  CHECK(reply.interim_statuses == std::vector<int>{100});
  CHECK(reply.status == 200);
  CHECK(server.requests().at(0).body == body);
}

TEST_CASE("an error status is sent with its Retry-After header and body") {
  MockServer server;
  server.enqueue(
      chat::error(429, "Rate limit reached", "rate_limit_exceeded", {{"Retry-After", "2"}}));
  server.enqueue(chat::text("after the wait", false));
  LoopbackClient client(server.port());
  HttpReply reply = client.request("POST", kCompletions, "{}");
  CHECK(reply.status == 429);
  CHECK(reply.header("retry-after") == "2");
  CHECK(Json::parse(reply.body)["error"]["code"] == "rate_limit_exceeded");
  // An error answer does not cost the connection.
  CHECK(client.request("POST", kCompletions, "{}").status == 200);
}

TEST_CASE("a stream dropped after N chunks leaves the client a truncated chunked body") {
  MockServer server;
  MockResponse stream = chat::text("one two three four", true);
  stream.drop_after_chunks = 2;
  server.enqueue(stream);
  server.enqueue(chat::text("next", false));
  {
    LoopbackClient client(server.port());
    HttpReply reply = client.request("POST", kCompletions, "{}");
    CHECK(reply.status == 200);
    CHECK(reply.chunked);
    CHECK_FALSE(reply.complete);
    CHECK(reply.chunks ==
          std::vector<std::string>(stream.chunks.begin(), stream.chunks.begin() + 2));
    CHECK(client.request("POST", kCompletions, "{}").status == 0);  // The connection is gone.
  }
  LoopbackClient again(server.port());
  CHECK(again.request("POST", kCompletions, "{}").status == 200);
}

TEST_CASE("a stream dropped after all its chunks still lacks the terminating chunk") {
  MockServer server;
  MockResponse stream = chunks_response({"data: a\n\n", "data: b\n\n"});
  stream.drop_after_chunks = 5;
  server.enqueue(stream);
  LoopbackClient client(server.port());
  HttpReply reply = client.request("GET", "/stream");
  CHECK(reply.chunks == stream.chunks);
  CHECK_FALSE(reply.complete);
}

TEST_CASE("a plain body dropped after zero chunks sends only the headers") {
  MockServer server;
  MockResponse response = body_response(R"({"partial":true})");
  response.drop_after_chunks = 0;
  server.enqueue(response);
  LoopbackClient client(server.port());
  HttpReply reply = client.request("POST", kCompletions, "{}");
  CHECK(reply.status == 200);
  CHECK(reply.header("content-length") == std::to_string(response.body.size()));
  CHECK(reply.body.empty());
  CHECK_FALSE(reply.complete);
}

TEST_CASE("a connection closed before headers gets no answer, but the request is recorded") {
  MockServer server;
  MockResponse silent;
  silent.close_before_headers = true;
  server.enqueue(silent);
  server.enqueue(chat::text("answered", false));
  {
    LoopbackClient client(server.port());
    HttpReply reply = client.request("POST", kCompletions, R"({"n":1})");
    CHECK(reply.status == 0);
    CHECK(reply.headers.empty());
  }
  CHECK(server.requests().at(0).body == R"({"n":1})");
  LoopbackClient again(server.port());
  CHECK(again.request("POST", kCompletions, "{}").status == 200);
}

TEST_CASE("a connection reset before headers is seen by the client as a reset") {
  MockServer server;
  MockResponse reset;
  reset.close_before_headers = true;
  reset.reset_connection = true;
  server.enqueue(reset);
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(server.port()));
  REQUIRE(connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  const std::string request =
      "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}";
  REQUIRE(send(fd, request.data(), request.size(), MSG_NOSIGNAL) ==
          static_cast<ssize_t>(request.size()));
  char byte;
  const ssize_t got = recv(fd, &byte, 1, 0);
  const int error = errno;
  close(fd);
  CHECK(got == -1);
  CHECK(error == ECONNRESET);
  CHECK(server.request_count() == 1);
}

TEST_CASE("a stall after N chunks holds back the rest of the stream") {
  auto server = std::make_unique<MockServer>();
  MockResponse stream = chat::text("one two three", true);
  stream.stall_after_chunks = 1;
  stream.stall = 30s;  // Ended by the server's shutdown below, never waited out.
  server->enqueue(stream);
  LoopbackClient client(server->port());
  REQUIRE(client.send_request("POST", kCompletions, "{}"));
  REQUIRE(client.readable(30s));
  server.reset();  // The stalled connection closes without the rest.
  HttpReply reply = client.read_reply();
  CHECK(reply.status == 200);
  CHECK_FALSE(reply.complete);
  CHECK(reply.chunks == std::vector<std::string>{stream.chunks.front()});
}

TEST_CASE("a slow first byte holds back its answer while other connections are served") {
  MockServer server;
  MockResponse slow = chat::text("slow", false);
  slow.first_byte_delay = 2500ms;  // Far longer than the fast exchange takes.
  slow.path_prefix = "/slow";
  server.enqueue(slow);
  server.enqueue(chat::text("fast", false));

  LoopbackClient slow_client(server.port());
  REQUIRE(slow_client.send_request("POST", "/slow", "{}"));
  REQUIRE(eventually([&] { return server.request_count() == 1; }));
  LoopbackClient fast_client(server.port());
  HttpReply fast = fast_client.request("POST", kCompletions, "{}");
  CHECK(Json::parse(fast.body)["choices"][0]["message"]["content"] == "fast");
  CHECK_FALSE(slow_client.readable());  // Its first byte is still being held.
  HttpReply slow_reply = slow_client.read_reply();
  CHECK(slow_reply.status == 200);
  CHECK(Json::parse(slow_reply.body)["choices"][0]["message"]["content"] == "slow");
}

TEST_CASE("a pause between chunks does not change what arrives") {
  MockServer server;
  MockResponse stream = chat::text("a b c", true);
  stream.chunk_delay = 2ms;
  server.enqueue(stream);
  LoopbackClient client(server.port());
  HttpReply reply = client.request("POST", kCompletions, "{}");
  CHECK(reply.complete);
  CHECK(reply.chunks == stream.chunks);
}

TEST_CASE("a response with a path prefix answers only the paths it names") {
  MockServer server;
  MockResponse models = body_response(R"({"data":[]})");
  models.path_prefix = "/v1/models";
  server.enqueue(models);
  server.enqueue(chat::text("chat", false));
  LoopbackClient client(server.port());
  HttpReply chat_reply = client.request("POST", kCompletions, "{}");
  CHECK(Json::parse(chat_reply.body)["choices"][0]["message"]["content"] == "chat");
  CHECK(server.pending() == 1);  // The models answer waits for its path.
  CHECK(client.request("POST", kCompletions, "{}").status == 500);
  CHECK(server.pending() == 1);
  CHECK(client.request("GET", "/v1/models/gpt-x").body == R"({"data":[]})");
  CHECK(server.pending() == 0);
}

TEST_CASE("an unscripted request gets 500 naming the cause, or the default response") {
  MockServer server;
  LoopbackClient client(server.port());
  HttpReply reply = client.request("POST", kCompletions, "{}");
  CHECK(reply.status == 500);
  CHECK(Json::parse(reply.body)["error"]["message"] == "mock server: no scripted response left");

  server.set_default(chat::text("default", false));
  server.enqueue(chat::text("queued", false));
  CHECK(client.request("POST", kCompletions, "{}").body.find("queued") != std::string::npos);
  CHECK(client.request("POST", kCompletions, "{}").body.find("default") != std::string::npos);
  CHECK(client.request("POST", kCompletions, "{}").body.find("default") != std::string::npos);
  server.set_default(std::nullopt);
  CHECK(client.request("POST", kCompletions, "{}").status == 500);
}

TEST_CASE("a looping server serves its script again from the start") {
  MockServer server;
  server.set_looping(true);
  server.enqueue({body_response("A"), body_response("B")});
  LoopbackClient client(server.port());
  std::string seen;
  for (int i = 0; i < 5; ++i) seen += client.request("GET", "/").body;
  CHECK(seen == "ABABA");
  CHECK(server.pending() == 2);
}

TEST_CASE("each conversation key walks the conversation script on its own") {
  MockServer server;
  server.set_conversation_script({body_response("1"), body_response("2"), body_response("3")});
  server.enqueue(body_response("queued"));
  LoopbackClient client(server.port());
  std::string seen;
  // Two conversations interleaved, as concurrent agents reach the server.
  for (const char* key : {"a", "a", "b", "a", "b", "a"}) {
    seen += client.request("POST", std::string("/c/") + key + "/v1/chat/completions").body;
  }
  CHECK(seen == "121321");
  CHECK(client.request("POST", kCompletions).body == "queued");
  CHECK(client.request("GET", "/c/a/v1/models").status == 404);
  server.reset();
  CHECK(client.request("POST", "/c/a/v1/chat/completions").body == "1");
}

TEST_CASE("without recording requests are counted but not kept") {
  MockServer server;
  server.set_recording(false);
  server.set_default(body_response("x"));
  LoopbackClient client(server.port());
  client.request("POST", kCompletions, "{}");
  client.request("POST", kCompletions, "{}");
  CHECK(server.request_count() == 2);
  CHECK(server.requests().empty());
}

TEST_CASE("reset drops queued responses and recorded requests") {
  MockServer server;
  server.enqueue({body_response("A"), body_response("B")});
  LoopbackClient client(server.port());
  client.request("GET", "/");
  server.reset();
  CHECK(server.pending() == 0);
  CHECK(server.request_count() == 0);
  CHECK(server.requests().empty());
  CHECK(client.request("GET", "/").status == 500);
}

TEST_CASE("a scripted Connection: close ends the connection after the answer") {
  MockServer server;
  MockResponse closing = body_response("bye");
  closing.headers = {{"Connection", "close"}};
  server.enqueue(closing);
  LoopbackClient client(server.port());
  HttpReply reply = client.request("GET", "/");
  CHECK(reply.body == "bye");
  CHECK(reply.header("connection") == "close");
  CHECK(client.request("GET", "/").status == 0);
}

TEST_CASE("a malformed request gets 400 and a closed connection") {
  MockServer server;
  server.enqueue(body_response("never served"));
  LoopbackClient client(server.port());
  client.send_raw("this is not HTTP\r\n\r\n");
  HttpReply reply = client.read_reply();
  CHECK(reply.status == 400);
  CHECK(server.request_count() == 0);
  CHECK(server.pending() == 1);
}

TEST_CASE("the control API scripts and inspects an in-process server") {
  MockServer server;
  LoopbackClient client(server.port());
  HttpReply queued = client.request("POST", "/_mock/enqueue",
                                    R"([{"chat_text": "via control"}, {"body": "second"}])");
  CHECK(queued.status == 200);
  CHECK(Json::parse(queued.body)["pending"] == 2);
  CHECK(client.request("POST", kCompletions, R"({"q":1})").body.find("via control") !=
        std::string::npos);
  Json requests = Json::parse(client.request("GET", "/_mock/requests").body);
  REQUIRE(requests.size() == 1);
  CHECK(requests[0]["method"] == "POST");
  CHECK(requests[0]["path"] == kCompletions);
  CHECK(requests[0]["body"] == R"({"q":1})");
  CHECK(requests[0]["headers"]["host"] == "127.0.0.1");
  CHECK(Json::parse(client.request("GET", "/_mock/pending").body)["pending"] == 1);

  HttpReply bad = client.request("POST", "/_mock/enqueue", R"([{"body": "ok"}, {"bogus": 1}])");
  CHECK(bad.status == 400);
  CHECK(Json::parse(bad.body)["error"]["message"].get<std::string>().find("\"bogus\"") !=
        std::string::npos);
  CHECK(server.pending() == 1);  // A rejected batch queues nothing.

  CHECK(client.request("POST", "/_mock/default", R"({"body": "fallback"})").status == 200);
  CHECK(client.request("POST", "/_mock/reset").status == 200);
  CHECK(server.pending() == 0);
  CHECK(client.request("GET", "/anything").body == "fallback");
  // An in-process server is stopped by its owner, not by a request.
  CHECK(client.request("POST", "/_mock/shutdown").status == 404);
  CHECK(client.request("GET", "/_mock/nothing-here").status == 404);
}

TEST_CASE("destroying the server interrupts a delayed answer and joins its threads") {
  auto server = std::make_unique<MockServer>();
  MockResponse never = body_response("too late");
  never.first_byte_delay = std::chrono::hours(1);
  server->enqueue(never);
  LoopbackClient client(server->port());
  LoopbackClient idle(server->port());  // A keep-alive connection waiting for a request.
  REQUIRE(client.send_request("GET", "/"));
  REQUIRE(eventually([&] { return server->request_count() == 1; }));
  server.reset();
  CHECK(client.read_reply().status == 0);
  CHECK(idle.read_reply().status == 0);
}

TEST_CASE("many clients at once are all answered") {
  MockServer server;
  server.set_default(chat::text("hello to everyone", true));
  std::vector<std::thread> threads;
  std::vector<int> complete(8, 0);
  for (std::size_t t = 0; t < complete.size(); ++t) {
    threads.emplace_back([&, t] {
      LoopbackClient client(server.port());
      for (int i = 0; i < 10; ++i)
        complete[t] += client.request("POST", kCompletions, "{}").complete;
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(complete == std::vector<int>(8, 10));
  CHECK(server.request_count() == 80);
}

TEST_CASE("a metadata probe nothing was scripted for gets 404 and leaves the model answers queued") {
  MockServer server;
  server.enqueue(chat::text("answer", false));
  LoopbackClient client(server.port());
  CHECK(client.request("GET", "/v1/models?limit=1000").status == 404);
  CHECK(client.request("GET", "/props").status == 404);
  CHECK(client.request("POST", "/api/show", R"({"model":"m"})").status == 404);
  CHECK(server.pending() == 1);
  CHECK(server.requests().empty());
  HttpReply reply = client.request("POST", kCompletions, "{}");
  CHECK(Json::parse(reply.body)["choices"][0]["message"]["content"] == "answer");
}
