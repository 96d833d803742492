// The Chat Completions provider end to end over a loopback socket: request on the wire,
// streamed and buffered answers, HTTP errors and cut streams.
#include <doctest/doctest.h>

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "hermes/provider.hpp"
#include "unit/providers/fixture_files.hpp"
#include "unit/providers/loopback_socket_server.hpp"

using namespace std::chrono_literals;
using hermes::Json;
using hermes::Message;
using hermes::testing::LoopbackConnection;
using hermes::testing::LoopbackSocketServer;

namespace {

// Records what the server received.
struct Received {
  std::mutex mutex;
  std::vector<std::string> heads;
  std::vector<Json> bodies;

  void add(const std::string& head, const std::string& body) {
    std::lock_guard<std::mutex> lock(mutex);
    heads.push_back(head);
    bodies.push_back(Json::parse(body, nullptr, false));
  }
};

std::string sse_response(const std::string& transcript, std::size_t events_to_send = SIZE_MAX) {
  std::string out =
      "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nx-request-id: req_stream\r\n"
      "Transfer-Encoding: chunked\r\n\r\n";
  std::size_t pos = 0, sent = 0;
  while (pos < transcript.size() && sent < events_to_send) {
    std::size_t end = transcript.find("\n\n", pos);
    end = end == std::string::npos ? transcript.size() : end + 2;
    const std::string event = transcript.substr(pos, end - pos);
    char size[16];
    std::snprintf(size, sizeof size, "%zx\r\n", event.size());
    out += size + event + "\r\n";
    pos = end;
    ++sent;
  }
  if (events_to_send == SIZE_MAX) out += "0\r\n\r\n";
  return out;
}

std::string json_response(int status, const std::string& body, const std::string& headers = "") {
  return "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Type: application/json\r\n" +
         headers + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

std::shared_ptr<hermes::Provider> chat_provider_for(const LoopbackSocketServer& server,
                                                    const std::string& name = "custom") {
  hermes::ProviderConfig config;
  config.provider = name;
  config.base_url = server.url("/v1/");
  config.api_key = "sk-configured";
  config.model = "gpt-4.1-mini";
  config.timeouts.first_byte = 20s;
  config.timeouts.idle = 20s;
  auto provider = hermes::make_provider(config);
  REQUIRE(provider.ok());
  return *provider;
}

hermes::ProviderRequest simple_request(bool stream = true) {
  hermes::ProviderRequest request;
  request.model = "gpt-4.1-mini";
  request.messages = {Message::user("Say hello in French, one short sentence.")};
  request.stream = stream;
  return request;
}

}  // namespace

TEST_CASE("a streamed answer arrives with its events, usage and request id") {
  Received received;
  const std::string transcript = hermes::testing::read_fixture("streams/a1_text.sse");
  LoopbackSocketServer server([&](LoopbackConnection& c) {
    std::string head, body;
    if (!c.read_request(&head, &body)) return;
    received.add(head, body);
    c.send(sse_response(transcript));
  });
  auto provider = chat_provider_for(server);
  hermes::CallContext context;
  std::string streamed_text;
  context.on_event = [&](const hermes::StreamEvent& e) {
    if (e.kind == hermes::StreamEvent::Kind::kTextDelta) streamed_text += e.text;
  };
  context.api_key = "sk-rotated";
  auto response = provider->complete(simple_request(), context);
  REQUIRE_MESSAGE(response.ok(), response.status().to_string());
  CHECK(response->message.content == "Bonjour, comment ça va ?");
  CHECK(streamed_text == response->message.content);
  CHECK(response->message.finish_reason == "stop");
  CHECK(response->usage.input_tokens == 19);
  CHECK(response->request_id == "req_stream");

  REQUIRE(received.heads.size() == 1);
  const std::string& head = received.heads[0];
  CHECK(head.rfind("POST /v1/chat/completions HTTP/1.1", 0) == 0);
  CHECK(head.find("Authorization: Bearer sk-rotated\r\n") != std::string::npos);
  CHECK(head.find("Accept: text/event-stream\r\n") != std::string::npos);
  CHECK(received.bodies[0] == Json::parse(R"({"model":"gpt-4.1-mini","stream":true,
      "stream_options":{"include_usage":true},
      "messages":[{"role":"user","content":"Say hello in French, one short sentence."}]})"));
}

TEST_CASE("an HTTP error becomes an unclassified ApiError with its facts") {
  LoopbackSocketServer server([](LoopbackConnection& c) {
    if (!c.read_request()) return;
    c.send(json_response(
        429,
        R"({"error":{"message":"Rate limit reached. Please try again in 2s.","type":"tokens","code":"rate_limit_exceeded"}})",
        "x-request-id: req_429\r\nretry-after: 2\r\n"));
  });
  auto provider = chat_provider_for(server, "openai");
  auto response = provider->complete(simple_request(), hermes::CallContext());
  REQUIRE_FALSE(response.ok());
  REQUIRE(response.status().code() == hermes::StatusCode::kApiError);
  const hermes::ApiError& error = *response.status().api_error();
  CHECK(error.http_status == 429);
  CHECK(error.message == "Rate limit reached. Please try again in 2s.");
  CHECK(error.error_code == "rate_limit_exceeded");
  CHECK(error.request_id == "req_429");
  CHECK(error.retry_after_seconds == 2.0);
  CHECK(error.provider == "openai");
  CHECK(error.model == "gpt-4.1-mini");
  CHECK(error.reason == hermes::FailoverReason::kUnknown);  // Classified later, by the agent.
}

TEST_CASE("a stream dropped before its end is a disconnect, never an answer") {
  const std::string transcript =
      hermes::testing::read_fixture("streams/a2_parallel_tool_calls.sse");
  LoopbackSocketServer server([&](LoopbackConnection& c) {
    if (c.read_request()) c.send(sse_response(transcript, 6));  // Then hang up.
  });
  auto provider = chat_provider_for(server);
  auto response = provider->complete(simple_request(), hermes::CallContext());
  REQUIRE_FALSE(response.ok());
  const hermes::ApiError& error = *response.status().api_error();
  CHECK(error.transport == hermes::TransportFailure::kDisconnect);
  CHECK(error.http_status == 0);
}

TEST_CASE("a server that rejects stream_options is asked again without it, once for all") {
  Received received;
  const std::string transcript = hermes::testing::read_fixture("streams/a1_text.sse");
  LoopbackSocketServer server([&](LoopbackConnection& c) {
    std::string head, body;
    while (c.read_request(&head, &body)) {
      received.add(head, body);
      const bool has_options = Json::parse(body).contains("stream_options");
      c.send(
          has_options
              ? json_response(
                    422,
                    R"({"detail":[{"type":"extra_forbidden","loc":["body","stream_options"],"msg":"Extra inputs are not permitted"}]})")
              : sse_response(transcript));
    }
  });
  auto provider = chat_provider_for(server);
  for (int call = 0; call < 2; ++call) {
    auto response = provider->complete(simple_request(), hermes::CallContext());
    REQUIRE_MESSAGE(response.ok(), response.status().to_string());
    CHECK(response->message.content == "Bonjour, comment ça va ?");
  }
  REQUIRE(received.bodies.size() == 3);
  CHECK(received.bodies[0].contains("stream_options"));
  CHECK_FALSE(received.bodies[1].contains("stream_options"));
  CHECK_FALSE(received.bodies[2].contains("stream_options"));
}

TEST_CASE("a buffered answer tolerates DeepSeek's leading blank lines") {
  Received received;
  LoopbackSocketServer server([&](LoopbackConnection& c) {
    std::string head, body;
    if (!c.read_request(&head, &body)) return;
    received.add(head, body);
    c.send(json_response(200,
                         "\n\n\n"
                         R"({"id":"cmpl-1","model":"deepseek-chat","choices":[{"index":0,
        "message":{"role":"assistant","content":"Bonjour !"},"finish_reason":"stop"}],
        "usage":{"prompt_tokens":9,"completion_tokens":3,"total_tokens":12}})"));
  });
  auto provider = chat_provider_for(server, "deepseek");
  auto response = provider->complete(simple_request(/*stream=*/false), hermes::CallContext());
  REQUIRE_MESSAGE(response.ok(), response.status().to_string());
  CHECK(response->message.content == "Bonjour !");
  CHECK(response->usage.output_tokens == 3);
  CHECK(received.heads[0].find("Accept: application/json\r\n") != std::string::npos);
  CHECK(received.heads[0].find("Authorization: Bearer sk-configured\r\n") != std::string::npos);
  CHECK_FALSE(received.bodies[0].contains("stream_options"));
}

TEST_CASE("a JSON answer to a stream request is read as a whole response") {
  LoopbackSocketServer server([](LoopbackConnection& c) {
    if (!c.read_request()) return;
    c.send(json_response(
        200,
        R"({"choices":[{"message":{"content":"ignored stream=true"},"finish_reason":"stop"}]})"));
  });
  auto provider = chat_provider_for(server);
  auto response = provider->complete(simple_request(), hermes::CallContext());
  REQUIRE(response.ok());
  CHECK(response->message.content == "ignored stream=true");
}

TEST_CASE("cancelling during a stream ends the call as cancelled") {
  const std::string transcript = hermes::testing::read_fixture("streams/a1_text.sse");
  LoopbackSocketServer server([&](LoopbackConnection& c) {
    if (!c.read_request()) return;
    c.send(sse_response(transcript, 2));
    c.wait_for_hangup();
  });
  auto provider = chat_provider_for(server);
  hermes::CallContext context;
  context.on_event = [&context](const hermes::StreamEvent& e) {
    if (e.kind == hermes::StreamEvent::Kind::kTextDelta) context.cancel.cancel();
  };
  auto response = provider->complete(simple_request(), context);
  REQUIRE_FALSE(response.ok());
  CHECK(response.status().code() == hermes::StatusCode::kCancelled);
}

TEST_CASE("a refused connection is a transport ApiError naming the provider") {
  std::string base;
  {
    LoopbackSocketServer closed([](LoopbackConnection&) {});
    base = closed.url("/v1");
  }
  hermes::ProviderConfig config;
  config.provider = "local";
  config.base_url = base;
  auto provider = hermes::make_provider(config);
  REQUIRE(provider.ok());
  auto response = (*provider)->complete(simple_request(), hermes::CallContext());
  REQUIRE_FALSE(response.ok());
  const hermes::ApiError& error = *response.status().api_error();
  CHECK(error.transport == hermes::TransportFailure::kConnect);
  CHECK(error.provider == "local");
  hermes::ApiError classified = error;
  hermes::classify_in_place(classified, 100, 200000, 2);
  CHECK(classified.reason == hermes::FailoverReason::kTimeout);
  CHECK(classified.retryable);
}
