// The Responses provider end to end against the loopback mock server: the request on the
// wire, streamed and whole answers, reasoning replay on the next turn, HTTP errors, cut
// streams and cancellation.
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
using hermes::testing::MockToolCall;
namespace responses = hermes::testing::responses;

namespace {

std::shared_ptr<hermes::Provider> responses_provider_for(const MockServer& server) {
  hermes::ProviderConfig config;
  config.api_mode = "codex_responses";
  config.provider = "custom";
  config.base_url = server.base_url();
  config.api_key = "sk-responses";
  config.model = "gpt-5";
  config.timeouts.first_byte = 20s;
  config.timeouts.idle = 20s;
  auto provider = hermes::make_provider(config);
  REQUIRE(provider.ok());
  return *provider;
}

hermes::ProviderRequest weather_request_for(std::vector<Message> messages, bool stream = true) {
  hermes::ProviderRequest request;
  request.messages = std::move(messages);
  request.tools = Json::parse(R"([{"type":"function","function":{"name":"get_weather",
      "description":"Current weather","parameters":{"type":"object",
      "properties":{"city":{"type":"string"}}}}}])");
  request.stream = stream;
  return request;
}

std::vector<MockToolCall> two_city_call_ids() {
  return {{"call_paris", "get_weather", R"({"city":"Paris"})"},
          {"call_tokyo", "get_weather", R"({"city":"Tokyo"})"}};
}

}  // namespace

TEST_CASE("a streamed Responses answer arrives with its events and usage") {
  MockServer server;
  server.enqueue(responses::text("Bonjour tout le monde", true, {40, 6, 32, 0}));
  auto provider = responses_provider_for(server);
  hermes::CallContext context;
  std::string streamed;
  context.on_event = [&](const hermes::StreamEvent& e) {
    if (e.kind == hermes::StreamEvent::Kind::kTextDelta) streamed += e.text;
  };
  auto answer = provider->complete(
      weather_request_for({Message::system("Be brief."), Message::user("Say hello")}), context);
  REQUIRE_MESSAGE(answer.ok(), answer.status().to_string());
  CHECK(answer->message.content == "Bonjour tout le monde");
  CHECK(streamed == "Bonjour tout le monde");
  CHECK(answer->message.finish_reason == "stop");
  CHECK(answer->usage.input_tokens == 40);
  CHECK(answer->usage.cache_read_tokens == 32);

  const auto requests = server.requests();
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].path == "/v1/responses");
  CHECK(requests[0].header("authorization") == "Bearer sk-responses");
  CHECK(requests[0].header("accept") == "text/event-stream");
  const Json body = requests[0].json();
  CHECK(body.at("model") == "gpt-5");
  CHECK(body.at("instructions") == "Be brief.");
  CHECK(body.at("input") == Json::parse(R"([{"role":"user","content":"Say hello"}])"));
  CHECK(body.at("store") == false);
  CHECK(body.at("tools")[0].at("name") == "get_weather");
}

TEST_CASE("two parallel function calls come back in order, streamed or whole") {
  for (bool stream : {true, false}) {
    CAPTURE(stream);
    MockServer server;
    server.enqueue(responses::tool_calls(two_city_call_ids(), stream));
    auto answer = responses_provider_for(server)->complete(
        weather_request_for({Message::user("Weather?")}, stream), hermes::CallContext());
    REQUIRE_MESSAGE(answer.ok(), answer.status().to_string());
    REQUIRE(answer->message.tool_calls.size() == 2);
    CHECK(answer->message.tool_calls[0].id == "call_paris");
    CHECK(answer->message.tool_calls[1].arguments == R"({"city":"Tokyo"})");
    CHECK(answer->message.finish_reason == "tool_calls");
    CHECK(server.requests()[0].json().at("stream") == stream);
  }
}

TEST_CASE("the next turn carries the encrypted reasoning of the last one") {
  MockServer server;
  server.enqueue(
      responses::tool_calls({two_city_call_ids()[0]}, true, "", {},
                            hermes::testing::MockReasoning{"Need the weather.", "gAAAA-sealed"}));
  server.enqueue(responses::text("18 degrees and clear.", true));
  auto provider = responses_provider_for(server);
  std::vector<Message> history = {Message::user("Weather in Paris?")};
  auto first = provider->complete(weather_request_for(history), hermes::CallContext());
  REQUIRE_MESSAGE(first.ok(), first.status().to_string());
  CHECK(first->message.reasoning == "Need the weather.");
  REQUIRE(first->message.codex_reasoning_items.is_array());

  history.push_back(first->message);
  history.push_back(Message::tool("call_paris", "get_weather", R"({"temp_c":18})"));
  auto second = provider->complete(weather_request_for(history), hermes::CallContext());
  REQUIRE_MESSAGE(second.ok(), second.status().to_string());
  CHECK(second->message.content == "18 degrees and clear.");

  const Json input = server.requests().at(1).json().at("input");
  REQUIRE(input.size() == 4);
  CHECK(input[1] == Json::parse(R"({"type":"reasoning","encrypted_content":"gAAAA-sealed",
      "summary":[{"type":"summary_text","text":"Need the weather."}]})"));
  CHECK(input[2].at("type") == "function_call");
  CHECK(input[3] == Json::parse(R"({"type":"function_call_output","call_id":"call_paris",
      "output":"{\"temp_c\":18}"})"));
}

TEST_CASE("a 429 with Retry-After is an ApiError carrying the delay") {
  MockServer server;
  server.enqueue(responses::error(429, "Rate limit reached for gpt-5.", "rate_limit_exceeded",
                                  {{"Retry-After", "7"}, {"x-request-id", "req_r1"}}));
  auto answer = responses_provider_for(server)->complete(weather_request_for({Message::user("q")}),
                                                         hermes::CallContext());
  REQUIRE_FALSE(answer.ok());
  const hermes::ApiError& error = *answer.status().api_error();
  CHECK(error.http_status == 429);
  CHECK(error.retry_after_seconds == 7.0);
  CHECK(error.error_code == "rate_limit_exceeded");
  CHECK(error.request_id == "req_r1");
  CHECK(error.model == "gpt-5");
}

TEST_CASE("a Responses stream cut before its terminal event is a disconnect without calls") {
  MockServer server;
  MockResponse cut = responses::tool_calls(two_city_call_ids(), true);
  cut.drop_after_chunks = cut.chunks.size() - 2;  // Lose the last item's done and completed.
  server.enqueue(cut);
  int started = 0;
  hermes::CallContext context;
  context.on_event = [&](const hermes::StreamEvent& e) {
    if (e.kind == hermes::StreamEvent::Kind::kToolCallStart) ++started;
  };
  auto answer =
      responses_provider_for(server)->complete(weather_request_for({Message::user("q")}), context);
  REQUIRE_FALSE(answer.ok());
  CHECK(answer.status().api_error()->transport == hermes::TransportFailure::kDisconnect);
  CHECK(started == 2);  // The caller saw the calls start, and got none to run.
}

TEST_CASE("cancelling a Responses stream midway returns Cancelled") {
  MockServer server;
  MockResponse slow = responses::text("one two three four five six", true);
  // The opening events and the first text delta arrive at once; everything after waits
  // longer than the test may run, so only the cancellation can end the call.
  slow.chunks[0] += slow.chunks[1] + slow.chunks[2];
  slow.chunks.erase(slow.chunks.begin() + 1, slow.chunks.begin() + 3);
  slow.chunk_delay = 60s;
  server.enqueue(slow);
  hermes::CallContext context;
  context.on_event = [&context](const hermes::StreamEvent&) { context.cancel.cancel(); };
  hermes::ProviderRequest request = weather_request_for({Message::user("q")});
  auto answer = responses_provider_for(server)->complete(request, context);
  REQUIRE_FALSE(answer.ok());
  CHECK(answer.status().code() == hermes::StatusCode::kCancelled);
}
