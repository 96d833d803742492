// The Anthropic Messages provider end to end against the loopback mock server: the
// endpoint and headers, streamed and whole answers, signed thinking replayed on the next
// turn, HTTP errors, cut streams and cancellation.
#include "providers/anthropic_messages.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <vector>

#include "hermes/provider.hpp"
#include "support/mock_responses.hpp"
#include "support/mock_server.hpp"

using namespace std::chrono_literals;
using hermes::Json;
using hermes::Message;
using hermes::testing::MockResponse;
using hermes::testing::MockServer;
using hermes::testing::MockThinking;
using hermes::testing::MockToolCall;
namespace anthropic = hermes::testing::anthropic;

namespace {

std::shared_ptr<hermes::Provider> anthropic_provider_for(
    const MockServer& server, const std::string& key = "sk-ant-api03-test") {
  hermes::ProviderConfig config;
  config.api_mode = "anthropic_messages";
  config.provider = "anthropic";
  config.base_url = server.base_url();  // Ends in /v1, as users often write it.
  config.api_key = key;
  config.model = "claude-sonnet-4-5";
  config.timeouts.first_byte = 20s;
  config.timeouts.idle = 20s;
  auto provider = hermes::make_provider(config);
  REQUIRE(provider.ok());
  return *provider;
}

hermes::ProviderRequest weather_request(std::vector<Message> messages, bool stream = true) {
  hermes::ProviderRequest request;
  request.messages = std::move(messages);
  request.tools = Json::parse(R"([{"type":"function","function":{"name":"get_weather",
      "description":"Current weather","parameters":{"type":"object",
      "properties":{"city":{"type":"string"}}}}}])");
  request.stream = stream;
  return request;
}

std::vector<MockToolCall> two_city_calls() {
  return {{"toolu_paris", "get_weather", R"({"city":"Paris"})"},
          {"toolu_tokyo", "get_weather", R"({"city":"Tokyo"})"}};
}

}  // namespace

TEST_CASE("the messages endpoint drops a trailing /v1 from the base URL") {
  using hermes::internal::anthropic_messages_url;
  CHECK(anthropic_messages_url("https://api.anthropic.com") ==
        "https://api.anthropic.com/v1/messages");
  CHECK(anthropic_messages_url("https://api.anthropic.com/v1/") ==
        "https://api.anthropic.com/v1/messages");
  CHECK(anthropic_messages_url("https://api.minimax.io/anthropic") ==
        "https://api.minimax.io/anthropic/v1/messages");
}

TEST_CASE("a streamed Anthropic answer arrives with its events, usage and headers") {
  MockServer server;
  server.enqueue(anthropic::text("Bonjour tout le monde", true, {50, 7, 20, 0}));
  auto provider = anthropic_provider_for(server);
  hermes::CallContext context;
  std::string streamed;
  context.on_event = [&](const hermes::StreamEvent& e) {
    if (e.kind == hermes::StreamEvent::Kind::kTextDelta) streamed += e.text;
  };
  auto answer = provider->complete(
      weather_request({Message::system("Be brief."), Message::user("Say hello")}), context);
  REQUIRE_MESSAGE(answer.ok(), answer.status().to_string());
  CHECK(answer->message.content == "Bonjour tout le monde");
  CHECK(streamed == answer->message.content);
  CHECK(answer->message.finish_reason == "stop");
  CHECK(answer->usage.input_tokens == 50);  // 30 uncached + 20 read from the cache.
  CHECK(answer->usage.cache_read_tokens == 20);
  CHECK(answer->usage.output_tokens == 7);

  const auto requests = server.requests();
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].path == "/v1/messages");
  CHECK(requests[0].header("x-api-key") == "sk-ant-api03-test");
  CHECK(requests[0].header("authorization").empty());
  CHECK(requests[0].header("anthropic-version") == "2023-06-01");
  CHECK(requests[0].header("anthropic-beta").find("interleaved-thinking") != std::string::npos);
  const Json body = requests[0].json();
  CHECK(body.at("model") == "claude-sonnet-4-5");
  CHECK(body.at("max_tokens") == 64000);
  CHECK(body.at("system")[0].at("text") == "Be brief.");
  CHECK(body.at("tools")[0].at("input_schema").at("type") == "object");
}

TEST_CASE("only Anthropic's own hosts read a key as an OAuth token") {
  MockServer server;
  server.enqueue(anthropic::text("ok", false));
  auto answer = anthropic_provider_for(server, "sk-ant-oat01-token")
                    ->complete(weather_request({Message::user("q")}, false), hermes::CallContext());
  REQUIRE_MESSAGE(answer.ok(), answer.status().to_string());
  const auto request = server.requests().at(0);
  CHECK(request.header("x-api-key") == "sk-ant-oat01-token");
  CHECK(request.header("authorization").empty());
  CHECK(request.header("accept") == "application/json");
}

TEST_CASE("two parallel tool_use blocks come back in order, streamed or whole") {
  for (bool stream : {true, false}) {
    CAPTURE(stream);
    MockServer server;
    server.enqueue(anthropic::tool_calls(two_city_calls(), stream, "Checking both."));
    auto answer = anthropic_provider_for(server)->complete(
        weather_request({Message::user("Weather?")}, stream), hermes::CallContext());
    REQUIRE_MESSAGE(answer.ok(), answer.status().to_string());
    REQUIRE(answer->message.tool_calls.size() == 2);
    CHECK(answer->message.content == "Checking both.");
    CHECK(answer->message.tool_calls[0].id == "toolu_paris");
    CHECK(Json::parse(answer->message.tool_calls[1].arguments) == Json{{"city", "Tokyo"}});
    CHECK(answer->message.finish_reason == "tool_calls");
  }
}

TEST_CASE("the next turn replays thinking blocks by the endpoint's rules") {
  // Kimi's endpoints take thinking back as it came; a generic third-party endpoint cannot
  // verify Anthropic signatures, so it gets none (and thinking is off for that turn).
  for (const char* model : {"kimi-k3", "claude-sonnet-4-5"}) {
    CAPTURE(model);
    MockServer server;
    server.enqueue(anthropic::tool_calls({two_city_calls()[0]}, true, "", {},
                                         MockThinking{"Call the weather tool.", "c2lnbmVk"}));
    server.enqueue(anthropic::text("18 degrees and clear.", true));
    auto provider = anthropic_provider_for(server);
    hermes::ProviderRequest request = weather_request({Message::user("Weather in Paris?")});
    request.model = model;
    request.reasoning_effort = "medium";
    auto first = provider->complete(request, hermes::CallContext());
    REQUIRE_MESSAGE(first.ok(), first.status().to_string());
    CHECK(first->message.reasoning == "Call the weather tool.");

    request.messages.push_back(first->message);
    request.messages.push_back(Message::tool("toolu_paris", "get_weather", R"({"temp_c":18})"));
    auto second = provider->complete(request, hermes::CallContext());
    REQUIRE_MESSAGE(second.ok(), second.status().to_string());

    const Json body = server.requests().at(1).json();
    const Json& assistant = body.at("messages")[1];
    CHECK(assistant.at("role") == "assistant");
    CHECK(body.at("messages")[2].at("content")[0].at("type") == "tool_result");
    if (std::string(model) == "kimi-k3") {
      CHECK(body.at("thinking").at("type") == "adaptive");
      CHECK(assistant.at("content")[0] == Json{{"type", "thinking"},
                                               {"thinking", "Call the weather tool."},
                                               {"signature", "c2lnbmVk"}});
      CHECK(assistant.at("content")[1].at("type") == "tool_use");
    } else {
      CHECK_FALSE(body.contains("thinking"));
      CHECK(assistant.at("content")[0].at("type") == "tool_use");
    }
  }
}

TEST_CASE("an Anthropic 429 with Retry-After is an ApiError carrying the delay") {
  MockServer server;
  server.enqueue(anthropic::error(429, "rate_limit_error", "Number of requests exceeded.",
                                  {{"retry-after", "12"}, {"request-id", "req_011"}}));
  auto answer = anthropic_provider_for(server)->complete(weather_request({Message::user("q")}),
                                                         hermes::CallContext());
  REQUIRE_FALSE(answer.ok());
  const hermes::ApiError& error = *answer.status().api_error();
  CHECK(error.http_status == 429);
  CHECK(error.retry_after_seconds == 12.0);
  CHECK(error.error_code == "rate_limit_error");
  CHECK(error.message == "Number of requests exceeded.");
  CHECK(error.request_id == "req_011");
}

TEST_CASE("an Anthropic stream cut before message_stop is a disconnect without calls") {
  MockServer server;
  MockResponse cut = anthropic::tool_calls(two_city_calls(), true);
  cut.drop_after_chunks = cut.chunks.size() - 3;  // Lose message_delta and message_stop too.
  server.enqueue(cut);
  auto answer = anthropic_provider_for(server)->complete(weather_request({Message::user("q")}),
                                                         hermes::CallContext());
  REQUIRE_FALSE(answer.ok());
  CHECK(answer.status().api_error()->transport == hermes::TransportFailure::kDisconnect);
}

TEST_CASE("cancelling an Anthropic stream midway returns Cancelled") {
  MockServer server;
  MockResponse slow = anthropic::text("one two three four five six", true);
  // message_start, the block start and the first text delta arrive at once.
  slow.chunks[0] += slow.chunks[1] + slow.chunks[2];
  slow.chunks.erase(slow.chunks.begin() + 1, slow.chunks.begin() + 3);
  slow.chunk_delay = 60s;
  server.enqueue(slow);
  hermes::CallContext context;
  context.on_event = [&context](const hermes::StreamEvent&) { context.cancel.cancel(); };
  auto answer =
      anthropic_provider_for(server)->complete(weather_request({Message::user("q")}), context);
  REQUIRE_FALSE(answer.ok());
  CHECK(answer.status().code() == hermes::StatusCode::kCancelled);
}
