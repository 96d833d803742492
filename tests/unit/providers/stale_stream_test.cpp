// The stale-stream watchdog: a stream that keeps its socket busy with keep-alives but
// delivers no real event is given up, while a slow stream that makes progress is not.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "hermes/provider.hpp"
#include "unit/providers/loopback_socket_server.hpp"

using namespace std::chrono_literals;
using hermes::Message;
using hermes::testing::LoopbackConnection;
using hermes::testing::LoopbackSocketServer;

namespace {

const char* const kStaleStreamHead =
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";

std::string stream_chunk(const std::string& bytes) {
  char size[16];
  std::snprintf(size, sizeof size, "%zx\r\n", bytes.size());
  return size + bytes + "\r\n";
}

std::string chat_delta(const std::string& text) {
  return "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":"
         "[{\"index\":0,\"delta\":{\"content\":\"" + text + "\"},\"finish_reason\":null}]}\n\n";
}

std::string chat_finish() {
  return "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":"
         "[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
}

std::shared_ptr<hermes::Provider> stale_provider_for(const LoopbackSocketServer& server,
                                                     std::string_view api_mode = {}) {
  hermes::ProviderConfig config;
  config.provider = "custom";
  config.api_mode = std::string(api_mode);
  config.base_url = server.url("/v1/");
  config.api_key = "sk-test";
  config.model = "m";
  config.timeouts.first_byte = 10s;
  config.timeouts.idle = 10s;
  config.timeouts.stale_stream = 300ms;
  auto provider = hermes::make_provider(config);
  REQUIRE(provider.ok());
  return *provider;
}

hermes::ProviderRequest request() {
  hermes::ProviderRequest r;
  r.model = "m";
  r.messages = {Message::user("hello")};
  r.stream = true;
  r.max_tokens = 64;
  return r;
}

// Sends `beat` every 50 ms for about two seconds, or until the client hangs up.
void beat_for_a_while(LoopbackConnection& c, const std::string& beat) {
  for (int i = 0; i < 40; ++i) {
    std::this_thread::sleep_for(50ms);
    if (!c.send(stream_chunk(beat))) return;
  }
}

}  // namespace

TEST_CASE("a stream that sends only keep-alive comments after its first event goes stale") {
  LoopbackSocketServer server([](LoopbackConnection& c) {
    if (!c.read_request()) return;
    c.send(std::string(kStaleStreamHead) + stream_chunk(chat_delta("Bon")));
    beat_for_a_while(c, ": keep-alive\n\n");
  });
  const auto started = std::chrono::steady_clock::now();
  auto response = stale_provider_for(server)->complete(request(), hermes::CallContext());
  REQUIRE_FALSE(response.ok());
  const hermes::ApiError* error = response.status().api_error();
  REQUIRE(error != nullptr);
  CHECK(error->transport == hermes::TransportFailure::kTimeout);
  CHECK(error->message.find("only keep-alives") != std::string::npos);
  // Given up well before the keep-alives stop on their own.
  CHECK(std::chrono::steady_clock::now() - started < 1900ms);
}

TEST_CASE("Anthropic pings are not progress either") {
  LoopbackSocketServer server([](LoopbackConnection& c) {
    if (!c.read_request()) return;
    c.send(std::string(kStaleStreamHead) +
           stream_chunk(
               "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m1\","
               "\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[],"
               "\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}\n\n"));
    beat_for_a_while(c, "event: ping\ndata: {\"type\": \"ping\"}\n\n");
  });
  auto response = stale_provider_for(server, hermes::kApiModeAnthropic)
                      ->complete(request(), hermes::CallContext());
  REQUIRE_FALSE(response.ok());
  CHECK(response.status().api_error()->message.find("only keep-alives") != std::string::npos);
}

TEST_CASE("a slow stream whose events keep coming is never cut off") {
  LoopbackSocketServer server([](LoopbackConnection& c) {
    if (!c.read_request()) return;
    c.send(kStaleStreamHead);
    for (int i = 0; i < 6; ++i) {
      std::this_thread::sleep_for(150ms);
      c.send(stream_chunk(": keep-alive\n\n"));
      c.send(stream_chunk(chat_delta("x")));
    }
    c.send(stream_chunk(chat_finish()) + "0\r\n\r\n");
  });
  auto response = stale_provider_for(server)->complete(request(), hermes::CallContext());
  REQUIRE(response.ok());
  CHECK(response->message.content == "xxxxxx");
}
