// A provider that never ends an event, or never ends its stream, fails the call with an
// error naming the limit it ran into, instead of making the client buffer without end.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "hermes/api_error.hpp"
#include "hermes/provider.hpp"
#include "unit/providers/loopback_socket_server.hpp"

using namespace std::chrono_literals;
using hermes::Message;
using hermes::testing::LoopbackConnection;
using hermes::testing::LoopbackSocketServer;

namespace {

const char* const kEndlessStreamHead =
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";

std::string endless_chunk(const std::string& bytes) {
  char size[16];
  std::snprintf(size, sizeof size, "%zx\r\n", bytes.size());
  return size + bytes + "\r\n";
}

std::shared_ptr<hermes::Provider> provider_for(const LoopbackSocketServer& server) {
  hermes::ProviderConfig config;
  config.provider = "custom";
  config.base_url = server.url("/v1/");
  config.api_key = "sk-test";
  config.model = "m";
  config.timeouts.first_byte = 30s;
  config.timeouts.idle = 30s;
  auto provider = hermes::make_provider(config);
  REQUIRE(provider.ok());
  return *provider;
}

hermes::ProviderRequest streamed_request() {
  hermes::ProviderRequest r;
  r.model = "m";
  r.messages = {Message::user("hello")};
  r.stream = true;
  return r;
}

}  // namespace

TEST_CASE("a provider event that never ends fails the call at 16 MiB as an invalid response") {
  LoopbackSocketServer server([](LoopbackConnection& c) {
    if (!c.read_request()) return;
    c.send(std::string(kEndlessStreamHead) +
           endless_chunk("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n"
                         "data: {\"choices\":[{\"delta\":{\"content\":\""));
    const std::string more = endless_chunk(std::string(64 << 10, 'x'));
    while (c.send(more)) {
    }
  });
  auto result = provider_for(server)->complete(streamed_request(), hermes::CallContext());
  REQUIRE_FALSE(result.ok());
  REQUIRE(result.status().code() == hermes::StatusCode::kApiError);
  hermes::ApiError error = *result.status().api_error();
  CHECK(error.error_code == "invalid_response");
  CHECK(error.message == "the event stream sent a line longer than 16 MiB");
  CHECK(error.http_status == 200);
  // Not mistaken for a context overflow, which would compress the conversation.
  hermes::classify_in_place(error, 1000, 200000, 2);
  CHECK_FALSE(error.should_compress);
}
