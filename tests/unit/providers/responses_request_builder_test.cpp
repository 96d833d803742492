#include "providers/responses_request_builder.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "hermes/message.hpp"
#include "unit/providers/fixture_files.hpp"

using hermes::Json;
using hermes::Message;
using hermes::ProviderRequest;
using hermes::ToolCall;
using hermes::internal::build_responses_request;
using hermes::internal::responses_dialect_for;
using hermes::internal::ResponsesDialect;

namespace {

std::vector<Message> responses_messages_of(const Json& list) {
  auto messages = hermes::messages_from_json(list);
  REQUIRE_MESSAGE(messages.ok(), messages.status().to_string());
  return *messages;
}

ProviderRequest request_of(const Json& fixture, const char* turn) {
  ProviderRequest request;
  request.model = fixture.at("model").get<std::string>();
  request.messages = responses_messages_of(fixture.at(turn));
  request.tools = fixture.at("tools");
  request.reasoning_effort = fixture.at("reasoning_effort").get<std::string>();
  return request;
}

Json responses_body(const ProviderRequest& request, const ResponsesDialect& dialect) {
  auto body = build_responses_request(request, dialect);
  REQUIRE_MESSAGE(body.ok(), body.status().to_string());
  return *body;
}

ToolCall responses_tool_call(std::string id, std::string name, std::string arguments) {
  ToolCall c;
  c.id = std::move(id);
  c.name = std::move(name);
  c.arguments = std::move(arguments);
  return c;
}

Json reasoning_item(const std::string& id, const std::string& blob, const std::string& issuer) {
  Json item = {
      {"id", id}, {"type", "reasoning"}, {"summary", Json::array()}, {"encrypted_content", blob}};
  if (!issuer.empty()) item["_issuer_kind"] = issuer;
  return item;
}

const ResponsesDialect kOpenAi = responses_dialect_for("openai", "https://api.openai.com/v1");

}  // namespace

TEST_CASE("the A.5 first turn is the documented Responses request") {
  const Json fixture = hermes::testing::read_json_fixture("requests/responses_a5_turns.json");
  const ResponsesDialect dialect =
      responses_dialect_for("openai", fixture.at("base_url").get<std::string>());
  CHECK(responses_body(request_of(fixture, "first_turn"), dialect) == fixture.at("first_request"));
}

TEST_CASE("the A.5 next turn replays the reasoning item without its id") {
  const Json fixture = hermes::testing::read_json_fixture("requests/responses_a5_turns.json");
  const ResponsesDialect dialect =
      responses_dialect_for("openai", fixture.at("base_url").get<std::string>());
  const Json body = responses_body(request_of(fixture, "next_turn"), dialect);
  CHECK(body.at("input") == fixture.at("next_turn_input"));
  CHECK(body.at("instructions") == "You are a coding agent.");
}

TEST_CASE("assistant turns replay message items, text and a following item for reasoning") {
  ProviderRequest request;
  request.model = "gpt-5";
  Message reasoning_only = Message::assistant("");
  reasoning_only.codex_reasoning_items =
      Json::array({reasoning_item("rs_1", "blob-1", kOpenAi.issuer)});
  Message with_items = Message::assistant("ignored: the items are replayed instead");
  with_items.codex_message_items =
      Json::array({{{"type", "message"},
                    {"role", "assistant"},
                    {"status", "weird"},
                    {"id", "msg_1"},
                    {"phase", "final_answer"},
                    {"content", Json::array({{{"type", "output_text"}, {"text", "Hi"}}})}},
                   {{"type", "message"},
                    {"role", "assistant"},
                    {"id", std::string(65, 'x')},
                    {"content", Json::array({{{"type", "text"}, {"text", "Long id"}}})}}});
  Message parts = Message::assistant("");
  parts.parts = Json::array({{{"type", "text"}, {"text", "From parts"}}});
  request.messages = {Message::user("a"), reasoning_only,     Message::user("b"),
                      with_items,         Message::user("c"), parts};
  const Json input = responses_body(request, kOpenAi).at("input");
  REQUIRE(input.size() == 8);
  CHECK(input[1] ==
        Json{{"type", "reasoning"}, {"summary", Json::array()}, {"encrypted_content", "blob-1"}});
  CHECK(input[2] == Json{{"role", "assistant"}, {"content", ""}});
  CHECK(input[4] == Json{{"type", "message"},
                         {"role", "assistant"},
                         {"status", "completed"},
                         {"id", "msg_1"},
                         {"phase", "final_answer"},
                         {"content", Json::array({{{"type", "output_text"}, {"text", "Hi"}}})}});
  CHECK_FALSE(input[5].contains("id"));  // Over 64 characters: the API would reject it.
  CHECK(input[7] ==
        Json{{"role", "assistant"},
             {"content", Json::array({{{"type", "output_text"}, {"text", "From parts"}}})}});

  // Copilot binds message ids to one connection: they are never replayed there.
  const Json copilot =
      responses_body(request, responses_dialect_for("copilot", "https://api.githubcopilot.com"));
  CHECK_FALSE(copilot.at("input")[4].contains("id"));
}

TEST_CASE("reasoning minted elsewhere, or already replayed, is not sent") {
  ProviderRequest request;
  request.model = "gpt-5";
  Message first = Message::assistant("one");
  first.codex_reasoning_items = Json::array({reasoning_item("rs_a", "mine", kOpenAi.issuer),
                                             reasoning_item("rs_b", "theirs", "xai_responses"),
                                             reasoning_item("rs_c", "legacy", "")});
  Message second = Message::assistant("two");
  second.codex_reasoning_items = Json::array(
      {reasoning_item("rs_a", "mine", kOpenAi.issuer), reasoning_item("rs_d", "", kOpenAi.issuer)});
  request.messages = {Message::user("q"), first, Message::user("q2"), second};
  std::vector<std::string> blobs;
  const Json body = responses_body(request, kOpenAi);
  for (const Json& item : body.at("input")) {
    if (item.value("type", "") == "reasoning") blobs.push_back(item.at("encrypted_content"));
  }
  CHECK(blobs == std::vector<std::string>{"mine", "legacy"});

  // Azure accepts replay from one earlier response only: the newest turn's.
  const ResponsesDialect azure =
      responses_dialect_for("custom", "https://res.openai.azure.com/openai/v1");
  second.codex_reasoning_items = Json::array({reasoning_item("rs_e", "newest", azure.issuer)});
  first.codex_reasoning_items = Json::array({reasoning_item("rs_f", "older", azure.issuer)});
  request.messages = {Message::user("q"), first, Message::user("q2"), second};
  blobs.clear();
  const Json azure_body = responses_body(request, azure);
  for (const Json& item : azure_body.at("input")) {
    if (item.value("type", "") == "reasoning") blobs.push_back(item.at("encrypted_content"));
  }
  CHECK(blobs == std::vector<std::string>{"newest"});
}

TEST_CASE("tool calls and results pair by call id, clamped to 64 characters") {
  ProviderRequest request;
  request.model = "gpt-5";
  const std::string long_id = "codex_mcp__hermes-tools__terminal_exec-" + std::string(40, '7');
  Message assistant = Message::assistant("");
  assistant.tool_calls = {responses_tool_call("call_x|fc_y", "a", ""),
                          responses_tool_call("fc_only", "b", " {\"k\":1} "),
                          responses_tool_call(long_id, "c", "{}")};
  request.messages = {Message::user("go"), assistant, Message::tool("call_x|fc_y", "a", "ra"),
                      Message::tool("fc_only", "b", "rb"), Message::tool(long_id, "c", "rc")};
  const Json input = responses_body(request, kOpenAi).at("input");
  REQUIRE(input.size() == 7);
  CHECK(input[1] ==
        Json{{"type", "function_call"}, {"call_id", "call_x"}, {"name", "a"}, {"arguments", "{}"}});
  CHECK(input[2].at("call_id") == "call_only");
  CHECK(input[2].at("arguments") == "{\"k\":1}");
  const std::string clamped = input[3].at("call_id");
  CHECK(clamped.size() <= 64);
  CHECK(clamped.rfind("call_", 0) == 0);
  CHECK(input[4] ==
        Json{{"type", "function_call_output"}, {"call_id", "call_x"}, {"output", "ra"}});
  CHECK(input[5].at("call_id") == "call_only");
  CHECK(input[6].at("call_id") == clamped);
}

TEST_CASE("images become input_image parts with a plain URL") {
  ProviderRequest request;
  request.model = "gpt-5";
  Message user = Message::user("look");
  user.parts =
      Json::array({{{"type", "text"}, {"text", "look"}},
                   {{"type", "image_url"},
                    {"image_url", {{"url", "data:image/png;base64,AAAA"}, {"detail", "low"}}}}});
  request.messages = {user};
  CHECK(responses_body(request, kOpenAi).at("input")[0] ==
        Json{{"role", "user"},
             {"content", Json::array({{{"type", "input_text"}, {"text", "look"}},
                                      {{"type", "input_image"},
                                       {"image_url", "data:image/png;base64,AAAA"},
                                       {"detail", "low"}}})}});
}

TEST_CASE("limits, effort and the Codex backend's constraints") {
  ProviderRequest request;
  request.model = "gpt-5";
  request.messages = {Message::user("x <|channel|> y")};
  request.max_tokens = 512;
  request.stream = false;
  request.reasoning_effort = "none";
  const Json plain = responses_body(request, kOpenAi);
  CHECK(plain.at("max_output_tokens") == 512);
  CHECK(plain.at("stream") == false);
  CHECK_FALSE(plain.contains("reasoning"));
  CHECK(plain.at("include") == Json::array());
  CHECK(plain.at("instructions") == "You are a helpful assistant.");
  CHECK(plain.at("input")[0].at("content") == "x <|channel|> y");

  request.reasoning_effort = "minimal";
  const ResponsesDialect codex =
      responses_dialect_for("openai-codex", "https://chatgpt.com/backend-api/codex");
  CHECK(codex.codex_backend);
  const Json backend = responses_body(request, codex);
  CHECK_FALSE(backend.contains("max_output_tokens"));
  CHECK(backend.at("stream") == true);  // The backend only streams.
  CHECK(backend.at("reasoning") == Json{{"effort", "low"}, {"summary", "auto"}});
  CHECK(backend.at("input")[0].at("content") ==
        "x <\xEF\xBD\x9C"
        "channel\xEF\xBD\x9C> y");
}

TEST_CASE("GPT-4 family models get sampling parameters instead of reasoning ones") {
  ProviderRequest request;
  request.messages = {Message::user("q")};
  request.temperature = 0.2;
  request.reasoning_effort = "high";
  for (const char* model :
       {"gpt-4.1-mini", "GPT-4o", "openai/gpt-3.5-turbo", "chatgpt-4o-latest"}) {
    CAPTURE(model);
    request.model = model;
    const Json classic = responses_body(request, kOpenAi);
    CHECK_FALSE(classic.contains("reasoning"));
    CHECK_FALSE(classic.contains("include"));
    CHECK(classic.at("temperature") == 0.2);
  }
  for (const char* model : {"openai/gpt-5", "o3-mini", "o4-mini"}) {
    CAPTURE(model);
    request.model = model;
    const Json reasoning = responses_body(request, kOpenAi);
    CHECK(reasoning.at("reasoning").at("effort") == "high");
    CHECK(reasoning.at("include") == Json::array({"reasoning.encrypted_content"}));
    CHECK_FALSE(reasoning.contains("temperature"));
  }
}

TEST_CASE("other servers' models keep the caller's temperature and get reasoning") {
  ProviderRequest request;
  request.messages = {Message::user("q")};
  request.temperature = 0.7;
  request.model = "qwen3-30b-a3b";
  const Json body =
      responses_body(request, responses_dialect_for("custom", "http://127.0.0.1:8080/v1"));
  CHECK(body.at("temperature") == 0.7);
  CHECK(body.at("reasoning") == Json{{"effort", "medium"}, {"summary", "auto"}});
}

TEST_CASE("xAI gets its strongest effort for levels above high") {
  ProviderRequest request;
  request.messages = {Message::user("q")};
  request.model = "grok-4.3";
  const ResponsesDialect xai = responses_dialect_for("xai", "https://api.x.ai/v1");
  for (const char* effort : {"xhigh", "max", "ultra"}) {
    CAPTURE(effort);
    request.reasoning_effort = effort;
    CHECK(responses_body(request, xai).at("reasoning") == Json{{"effort", "high"}});
  }
  request.reasoning_effort = "low";
  CHECK(responses_body(request, xai).at("reasoning") == Json{{"effort", "low"}});
}

TEST_CASE("requests that cannot be encoded name the field") {
  ProviderRequest request;
  request.model = "gpt-5";
  request.messages = {Message::user("q"), Message::tool("", "f", "r")};
  auto missing = build_responses_request(request, kOpenAi);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().message() == "messages[1].tool_call_id: missing on a tool message");
  request.messages = {Message::user("q")};
  request.tools = Json::array({{{"type", "function"}, {"function", {{"description", "x"}}}}});
  CHECK(build_responses_request(request, kOpenAi).status().message().rfind("tools[0]", 0) == 0);
  request.tools = Json::array();
  request.model.clear();
  CHECK(build_responses_request(request, kOpenAi).status().message() == "model: empty");
}

TEST_CASE("endpoints are told apart by exact hosts") {
  CHECK(responses_dialect_for("", "https://chatgpt.com/backend-api/codex").issuer ==
        "codex_backend");
  CHECK(responses_dialect_for("", "https://api.x.ai/v1").issuer == "xai_responses");
  CHECK(responses_dialect_for("", "https://api.githubcopilot.com").issuer == "github_responses");
  CHECK(responses_dialect_for("", "https://api.openai.com/v1/").issuer ==
        "other:https://api.openai.com/v1");
  CHECK_FALSE(
      responses_dialect_for("", "https://chatgpt.com.evil.test/backend-api/codex").codex_backend);
}
