// A server's elicitation/create answered by the application's handler: directly, and
// through the client against tests/fixtures/mcp/fake_http_server.py.
#include "mcp/elicitation.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

#include "common/json_text.hpp"
#include "http_server_process.hpp"

using namespace hermes;
using namespace hermes::testing;
using internal::answer_elicitation;

namespace {

const Json kForm{
    {"message", "Your name?"},
    {"requestedSchema", {{"type", "object"}, {"properties", {{"name", {{"type", "string"}}}}}}}};

McpElicitationHandler answering(std::string action, Json content = Json::object()) {
  return [action, content](const McpElicitation&) { return McpElicitationResult{action, content}; };
}

// What the fake server's tool elicit got back from the client for `params`.
Json elicit(McpServerConfig config, const Json& params) {
  ConnectedServer c(std::move(config));
  auto r = call_tool(*c.registry, "mcp_web_elicit", params);
  INFO(r.status().to_string());
  REQUIRE(r.ok());
  const std::string text = internal::parse_json(*r)->at("result").get<std::string>();
  auto reply = internal::parse_json(text);
  return reply ? *reply : Json(text);
}

}  // namespace

TEST_CASE("the handler sees the server, the message and the schema, and its answer is sent") {
  McpElicitation seen;
  auto handler = [&](const McpElicitation& request) {
    seen = request;
    return McpElicitationResult{"accept", {{"name", "Ada"}}};
  };
  auto result = answer_elicitation(handler, "forms", kForm);
  REQUIRE(result.ok());
  CHECK(*result == Json{{"action", "accept"}, {"content", {{"name", "Ada"}}}});
  CHECK(seen.server == "forms");
  CHECK(seen.message == "Your name?");
  CHECK(seen.requested_schema == kForm["requestedSchema"]);
}

TEST_CASE("a declined or cancelled question sends no content") {
  for (const char* action : {"decline", "cancel"}) {
    auto result = answer_elicitation(answering(action, {{"name", "Ada"}}), "forms", kForm);
    REQUIRE(result.ok());
    CHECK(*result == Json{{"action", action}});
  }
}

TEST_CASE("a handler that throws or answers nonsense fails the request, naming why") {
  auto thrower = [](const McpElicitation&) -> McpElicitationResult {
    throw std::runtime_error("no terminal");
  };
  auto thrown = answer_elicitation(thrower, "forms", kForm);
  CHECK(thrown.status().code() == StatusCode::kInternal);
  CHECK(thrown.status().message() == "the elicitation handler failed: no terminal");
  auto unknown = answer_elicitation(answering("maybe"), "forms", kForm);
  CHECK(unknown.status().code() == StatusCode::kInternal);
  CHECK(unknown.status().message().find("'maybe'") != std::string::npos);
  auto not_object = answer_elicitation(answering("accept", Json::array()), "forms", kForm);
  CHECK(not_object.status().code() == StatusCode::kInternal);
}

TEST_CASE("a request that is not a form is refused as invalid params") {
  Json no_schema{{"message", "Your name?"}};
  CHECK(answer_elicitation(answering("accept"), "forms", no_schema).status().code() ==
        StatusCode::kInvalidArgument);
  Json url_mode = kForm;
  url_mode["mode"] = "url";
  CHECK(answer_elicitation(answering("accept"), "forms", url_mode).status().code() ==
        StatusCode::kInvalidArgument);
  CHECK(answer_elicitation(answering("accept"), "forms", Json()).status().code() ==
        StatusCode::kInvalidArgument);
}

TEST_CASE("a client with a handler offers elicitation and answers the server during a call") {
  auto server = HttpServerProcess::fake();
  auto config = server->config("web");
  config.on_elicitation = answering("accept", {{"name", "Ada"}});
  CHECK(elicit(config, kForm) ==
        Json{{"result", {{"action", "accept"}, {"content", {{"name", "Ada"}}}}}});
}

TEST_CASE("a client without a handler does not offer elicitation") {
  auto server = HttpServerProcess::fake();
  CHECK(elicit(server->config("web"), kForm) == Json("not offered"));
}

TEST_CASE("a server asking a malformed question gets an invalid-params error") {
  auto server = HttpServerProcess::fake();
  auto config = server->config("web");
  config.on_elicitation = answering("accept");
  const Json reply = elicit(config, Json{{"message", 7}});
  CHECK(reply["error"]["code"] == -32602);
}
