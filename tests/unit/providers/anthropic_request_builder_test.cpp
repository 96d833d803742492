#include "providers/anthropic_request_builder.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include "hermes/message.hpp"
#include "providers/anthropic_message_conversion.hpp"
#include "unit/providers/fixture_files.hpp"

using hermes::Json;
using hermes::Message;
using hermes::ProviderRequest;
using hermes::ToolCall;
using hermes::internal::anthropic_dialect_for;
using hermes::internal::AnthropicDialect;
using hermes::internal::build_anthropic_request;
using hermes::internal::convert_to_anthropic;
using hermes::internal::ThinkingReplay;

namespace {

std::vector<Message> anthropic_messages_of(const Json& list) {
  auto messages = hermes::messages_from_json(list);
  REQUIRE_MESSAGE(messages.ok(), messages.status().to_string());
  return *messages;
}

Json anthropic_body(const ProviderRequest& request, const AnthropicDialect& dialect) {
  auto body = build_anthropic_request(request, dialect);
  REQUIRE_MESSAGE(body.ok(), body.status().to_string());
  return *body;
}

ToolCall tool_call_of(std::string id, std::string name, std::string arguments) {
  ToolCall c;
  c.id = std::move(id);
  c.name = std::move(name);
  c.arguments = std::move(arguments);
  return c;
}

// Visits every JSON value in `json`.
void walk(const Json& json, const std::function<void(const Json&)>& visit) {
  visit(json);
  if (json.is_structured()) {
    for (const Json& child : json) walk(child, visit);
  }
}

int count_breakpoints(const Json& body) {
  int count = 0;
  walk(body, [&](const Json& value) {
    if (value.is_object() && value.contains("cache_control")) ++count;
  });
  return count;
}

AnthropicDialect native() {
  return anthropic_dialect_for("https://api.anthropic.com", "sk-ant-api03-x", "claude-sonnet-4-5");
}

Message thinking_turn(const std::string& text, const std::string& signature,
                      const std::string& id) {
  Message m = Message::assistant("");
  m.tool_calls = {tool_call_of(id, "f", "{}")};
  m.reasoning_details =
      Json::array({{{"type", "thinking"}, {"thinking", text}, {"signature", signature}}});
  return m;
}

}  // namespace

TEST_CASE("the A.4 first turn carries system, tools, thinking and max_tokens") {
  const Json fixture = hermes::testing::read_json_fixture("requests/anthropic_a4_turns.json");
  ProviderRequest request;
  request.model = fixture.at("model").get<std::string>();
  request.messages = anthropic_messages_of(fixture.at("first_turn"));
  request.tools = fixture.at("tools");
  request.reasoning_effort = fixture.at("reasoning_effort").get<std::string>();
  request.max_tokens = fixture.at("max_tokens").get<int64_t>();
  const AnthropicDialect dialect = anthropic_dialect_for(fixture.at("base_url").get<std::string>(),
                                                         "sk-ant-api03-x", request.model);
  Json body = anthropic_body(request, dialect);
  // A thinking budget requires temperature 1 on the models that take one.
  CHECK(body.at("temperature") == 1);
  body.erase("temperature");
  CHECK(body == fixture.at("first_request"));
}

TEST_CASE("the A.4 next turn replays the signed thinking block unchanged") {
  const Json fixture = hermes::testing::read_json_fixture("requests/anthropic_a4_turns.json");
  AnthropicDialect dialect = native();
  dialect.prompt_caching = false;
  const std::vector<Message> history = anthropic_messages_of(fixture.at("next_turn"));
  const auto conversation = convert_to_anthropic(history, dialect, "claude-sonnet-4-5");
  CHECK(conversation.system.is_null());
  CHECK(conversation.messages == fixture.at("next_turn_messages"));
  // With breakpoints, the one on that turn goes to its tool_use, never to the thinking.
  const Json cached = convert_to_anthropic(history, native(), "claude-sonnet-4-5").messages;
  CHECK_FALSE(cached[1]["content"][0].contains("cache_control"));
  CHECK(cached[1]["content"][2].contains("cache_control"));
}

TEST_CASE("system messages become the top-level system prompt") {
  AnthropicDialect dialect = native();
  dialect.prompt_caching = false;
  const auto conversation = convert_to_anthropic(
      {Message::system("Rules."), Message::user("hi"), Message::system("More rules.")}, dialect,
      "claude-sonnet-4-5");
  CHECK(conversation.system == "Rules.\n\nMore rules.");
  CHECK(conversation.messages == Json::array({{{"role", "user"}, {"content", "hi"}}}));
}

TEST_CASE("a thinking prefill is not sent to the Messages API") {
  AnthropicDialect dialect = native();
  dialect.prompt_caching = false;
  Message prefill = Message::assistant("");
  prefill.reasoning = "The capital of Peru is Lima.";
  const auto conversation = convert_to_anthropic({Message::user("Capital of Peru?"), prefill},
                                                 dialect, "claude-sonnet-4-5");
  CHECK(conversation.messages ==
        Json::array({{{"role", "user"}, {"content", "Capital of Peru?"}}}));
}

TEST_CASE("tool results share one user message in call order, and same roles merge") {
  AnthropicDialect dialect = native();
  dialect.prompt_caching = false;
  Message assistant = Message::assistant("Checking.");
  assistant.tool_calls = {tool_call_of("call_1", "a", "{\"x\":1}"),
                          tool_call_of("call 2", "b", "not json")};
  const auto conversation =
      convert_to_anthropic({Message::user("first"), Message::user("second"), assistant,
                            Message::tool("call_1", "a", "one"), Message::tool("call 2", "b", ""),
                            Message::user("thanks")},
                           dialect, "claude-sonnet-4-5");
  const Json expected = Json::parse(R"js([
    {"role":"user","content":[{"type":"text","text":"first"},{"type":"text","text":"second"}]},
    {"role":"assistant","content":[{"type":"text","text":"Checking."},
      {"type":"tool_use","id":"call_1","name":"a","input":{"x":1}},
      {"type":"tool_use","id":"call_2","name":"b","input":{}}]},
    {"role":"user","content":[
      {"type":"tool_result","tool_use_id":"call_1","content":"one"},
      {"type":"tool_result","tool_use_id":"call_2","content":"(no output)"},
      {"type":"text","text":"thanks"}]}])js");
  CHECK(conversation.messages == expected);
}

TEST_CASE("orphaned halves of tool pairs are dropped and a user turn leads") {
  AnthropicDialect dialect = native();
  dialect.prompt_caching = false;
  Message asked = Message::assistant("");
  asked.tool_calls = {tool_call_of("toolu_answered", "f", "{}"),
                      tool_call_of("toolu_orphan", "f", "{}")};
  const auto conversation = convert_to_anthropic(
      {asked, Message::tool("toolu_answered", "f", "ok"), Message::tool("toolu_ghost", "f", "?")},
      dialect, "claude-sonnet-4-5");
  const Json expected = Json::parse(R"js([
    {"role":"user","content":[{"type":"text","text":"(empty)"}]},
    {"role":"assistant","content":[{"type":"tool_use","id":"toolu_answered","name":"f","input":{}}]},
    {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_answered","content":"ok"}]}])js");
  CHECK(conversation.messages == expected);
}

TEST_CASE("prompt caching marks the system prompt and the last three messages, four at most") {
  std::vector<Message> history = {Message::system("You are terse.")};
  for (int i = 0; i < 6; ++i) {
    history.push_back(Message::user("question " + std::to_string(i)));
    Message answer = Message::assistant("");
    answer.tool_calls = {tool_call_of("toolu_" + std::to_string(i), "f", "{}")};
    history.push_back(answer);
    history.push_back(Message::tool("toolu_" + std::to_string(i), "f", "result"));
  }
  history.push_back(Message::user("last"));
  ProviderRequest request;
  request.model = "claude-sonnet-4-5";
  request.messages = history;
  const Json body = anthropic_body(request, native());
  CHECK(count_breakpoints(body) == 4);
  CHECK(body.at("system")[0].at("cache_control") == Json{{"type", "ephemeral"}});
  const Json& messages = body.at("messages");
  const std::size_t n = messages.size();
  // The last result and the closing question merge into one user message; each keeps its own.
  const Json& last = messages[n - 1]["content"];
  CHECK(last[0].at("type") == "tool_result");
  CHECK(last[0].contains("cache_control"));
  CHECK(last[1].at("text") == "last");
  CHECK(last[1].contains("cache_control"));
  CHECK(messages[n - 2]["content"].back().at("type") == "tool_use");
  CHECK(messages[n - 2]["content"].back().contains("cache_control"));
  for (const Json& block : messages[n - 3]["content"]) CHECK_FALSE(block.contains("cache_control"));

  // Without a system prompt the four go to the last four messages.
  request.messages.erase(request.messages.begin());
  CHECK(count_breakpoints(anthropic_body(request, native())) == 4);
  // Markers already in the history are replaced, never added to.
  Message marked = Message::user("x");
  marked.parts =
      Json::array({{{"type", "text"}, {"text", "x"}, {"cache_control", {{"type", "ephemeral"}}}}});
  request.messages.insert(request.messages.begin(), marked);
  CHECK(count_breakpoints(anthropic_body(request, native())) == 4);

  // Endpoints that ignore markers get none.
  const AnthropicDialect local = anthropic_dialect_for("http://127.0.0.1:8080", "", "local-model");
  CHECK_FALSE(local.prompt_caching);
  request.model = "local-model";
  CHECK(count_breakpoints(anthropic_body(request, local)) == 0);
}

TEST_CASE("older models keep thinking on the latest turn only; newer ones on every turn") {
  const std::vector<Message> history = {
      Message::user("q1"), thinking_turn("first thought", "sig-1", "toolu_1"),
      Message::tool("toolu_1", "f", "r1"), thinking_turn("second thought", "sig-2", "toolu_2"),
      Message::tool("toolu_2", "f", "r2")};
  auto first_block_type = [](const Json& messages, std::size_t i) {
    return messages[i]["content"][0]["type"].get<std::string>();
  };
  AnthropicDialect dialect = native();
  dialect.prompt_caching = false;
  const Json older = convert_to_anthropic(history, dialect, "claude-sonnet-4-5").messages;
  CHECK(first_block_type(older, 1) == "tool_use");
  CHECK(older[3]["content"][0] ==
        Json{{"type", "thinking"}, {"thinking", "second thought"}, {"signature", "sig-2"}});
  const Json newer = convert_to_anthropic(history, dialect, "claude-opus-4-6").messages;
  CHECK(first_block_type(newer, 1) == "thinking");
  CHECK(first_block_type(newer, 3) == "thinking");

  // Another vendor's endpoint cannot verify Anthropic's signatures: no thinking at all.
  const AnthropicDialect third_party =
      anthropic_dialect_for("https://gateway.example.com/anthropic", "key", "claude-opus-4-6");
  CHECK(third_party.replay == ThinkingReplay::kThirdParty);
  const Json stripped = convert_to_anthropic(history, third_party, "claude-opus-4-6").messages;
  CHECK(first_block_type(stripped, 3) == "tool_use");
}

TEST_CASE("a turn whose tool call was removed loses its signature, not its words") {
  AnthropicDialect dialect = native();
  dialect.prompt_caching = false;
  Message turn = thinking_turn("plan", "sig", "toolu_gone");
  turn.content = "Let me look.";
  const Json messages = convert_to_anthropic({Message::user("q"), turn, Message::user("next")},
                                             dialect, "claude-sonnet-4-5")
                            .messages;
  CHECK(messages[1]["content"] == Json::parse(R"js([{"type":"text","text":"plan"},
      {"type":"text","text":"Let me look."}])js"));
}

TEST_CASE("DeepSeek and Kimi endpoints get their reasoning back as unsigned thinking") {
  Message turn = Message::assistant("");
  turn.reasoning = "I should list files.";
  turn.tool_calls = {tool_call_of("call_1", "ls", "{}")};
  const std::vector<Message> history = {Message::user("q"), turn,
                                        Message::tool("call_1", "ls", "a b")};
  const AnthropicDialect deepseek =
      anthropic_dialect_for("https://api.deepseek.com/anthropic", "k", "deepseek-v4-pro");
  CHECK(deepseek.replay == ThinkingReplay::kDeepSeek);
  const Json messages = convert_to_anthropic(history, deepseek, "deepseek-v4-pro").messages;
  CHECK(messages[1]["content"][0] ==
        Json{{"type", "thinking"}, {"thinking", "I should list files."}});
  const AnthropicDialect kimi =
      anthropic_dialect_for("https://api.kimi.com/coding", "k", "kimi-k3");
  turn.reasoning.clear();
  const Json kimi_messages =
      convert_to_anthropic({Message::user("q"), turn, Message::tool("call_1", "ls", "a b")}, kimi,
                           "kimi-k3")
          .messages;
  CHECK(kimi_messages[1]["content"][0] == Json{{"type", "thinking"}, {"thinking", ""}});
}

TEST_CASE("thinking parameters follow the model's thinking mode") {
  ProviderRequest request;
  request.messages = {Message::user("q")};
  request.reasoning_effort = "high";
  request.temperature = 0.3;
  request.model = "anthropic/claude-opus-4.6";
  Json adaptive = anthropic_body(request, native());
  CHECK(adaptive.at("model") == "claude-opus-4-6");
  CHECK(adaptive.at("thinking") == Json{{"type", "adaptive"}, {"display", "summarized"}});
  CHECK(adaptive.at("output_config") == Json{{"effort", "high"}});
  CHECK(adaptive.at("max_tokens") == 128000);
  CHECK(adaptive.at("temperature") == 0.3);  // 4.6 still takes sampling parameters.

  request.model = "claude-opus-4-7";
  request.reasoning_effort = "none";
  Json off = anthropic_body(request, native());
  CHECK(off.at("thinking") == Json{{"type", "disabled"}});
  CHECK_FALSE(off.contains("temperature"));  // 4.7 rejects them.

  request.model = "claude-3-5-haiku-latest";
  request.reasoning_effort = "high";
  request.temperature.reset();
  Json haiku = anthropic_body(request, native());
  CHECK_FALSE(haiku.contains("thinking"));
  CHECK(haiku.at("max_tokens") == 8192);

  request.model = "claude-sonnet-4-5";
  request.max_tokens = 1000;
  Json manual = anthropic_body(request, native());
  CHECK(manual.at("thinking") == Json{{"type", "enabled"}, {"budget_tokens", 16000}});
  CHECK(manual.at("max_tokens") == 16000 + 4096);

  request.reasoning_effort = "max";  // The strongest level gets the largest budget.
  CHECK(anthropic_body(request, native()).at("thinking").at("budget_tokens") == 32000);
}

TEST_CASE("a forced tool choice becomes auto while thinking is on, and stays without it") {
  ProviderRequest request;
  request.messages = {Message::user("q")};
  request.tools = Json::parse(
      R"([{"type":"function","function":{"name":"final_answer","parameters":{"type":"object"}}}])");
  request.extra_body = {{"tool_choice", {{"type", "any"}}}};
  request.model = "claude-sonnet-4-5";
  request.reasoning_effort = "high";
  Json thinking = anthropic_body(request, native());
  REQUIRE(thinking.contains("thinking"));
  CHECK(thinking.at("tool_choice") == Json{{"type", "auto"}});

  request.extra_body = {{"tool_choice", {{"type", "tool"}, {"name", "final_answer"}}}};
  request.model = "claude-opus-4-6";  // Adaptive thinking: the same rule.
  CHECK(anthropic_body(request, native()).at("tool_choice") == Json{{"type", "auto"}});

  request.extra_body = {{"tool_choice", {{"type", "any"}}}};
  request.reasoning_effort = "";  // No thinking: the forced choice is sent as asked.
  CHECK(anthropic_body(request, native()).at("tool_choice") == Json{{"type", "any"}});
  request.model = "claude-opus-4-7";
  request.reasoning_effort = "none";  // Thinking disabled explicitly: also kept.
  CHECK(anthropic_body(request, native()).at("tool_choice") == Json{{"type", "any"}});
}

TEST_CASE("thinking is turned off when the last tool turn has no thinking to replay") {
  ProviderRequest request;
  request.model = "claude-sonnet-4-5";
  request.reasoning_effort = "medium";
  Message other_provider = Message::assistant("");
  other_provider.tool_calls = {tool_call_of("call_1", "ls", "{}")};
  request.messages = {Message::user("q"), other_provider, Message::tool("call_1", "ls", "ok")};
  CHECK_FALSE(anthropic_body(request, native()).contains("thinking"));
  request.messages[1] = thinking_turn("t", "sig", "call_1");
  CHECK(anthropic_body(request, native()).contains("thinking"));
}

TEST_CASE("tool schemas are normalised and duplicate names dropped") {
  ProviderRequest request;
  request.model = "claude-sonnet-4-5";
  request.messages = {Message::user("q")};
  request.tools = Json::parse(R"js([
    {"type":"function","function":{"name":"f","description":"F","parameters":{"type":"object",
      "properties":{"n":{"anyOf":[{"type":"integer"},{"type":"null"}],"description":"N"}}}}},
    {"name":"f","parameters":{}},
    {"name":"g","parameters":{"anyOf":[{"type":"object"},{"type":"string"}]}},
    {"type":"function","function":{"name":"h"}}])js");
  const Json tools = anthropic_body(request, native()).at("tools");
  REQUIRE(tools.size() == 3);
  CHECK(tools[0]["input_schema"]["properties"]["n"] ==
        Json{{"type", "integer"}, {"description", "N"}});
  CHECK(tools[1]["input_schema"] == Json{{"type", "object"}, {"properties", Json::object()}});
  CHECK(tools[2]["input_schema"] == Json{{"type", "object"}, {"properties", Json::object()}});
  CHECK(tools[2]["description"] == "");
}

TEST_CASE("endpoints decide authentication and beta headers") {
  const AnthropicDialect key =
      anthropic_dialect_for("https://api.anthropic.com", "sk-ant-api03-k", "m");
  CHECK_FALSE(key.bearer_auth);
  CHECK(key.betas == "interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14");
  const AnthropicDialect oauth =
      anthropic_dialect_for("https://api.anthropic.com", "sk-ant-oat01-t", "m");
  CHECK(oauth.oauth);
  CHECK(oauth.bearer_auth);
  CHECK(oauth.betas.find("oauth-2025-04-20") != std::string::npos);
  // A third-party endpoint never treats its key as an Anthropic OAuth token.
  CHECK_FALSE(
      anthropic_dialect_for("https://proxy.example.com", "sk-ant-oat01-t", "m").bearer_auth);
  const AnthropicDialect minimax =
      anthropic_dialect_for("https://api.minimax.io/anthropic", "k", "MiniMax-M2");
  CHECK(minimax.bearer_auth);
  CHECK(minimax.betas == "interleaved-thinking-2025-05-14");
  CHECK(hermes::internal::anthropic_max_output_tokens("MiniMax-M2") == 131072);
  CHECK(hermes::internal::normalize_anthropic_model("us.anthropic.claude-opus-4.1") ==
        "us.anthropic.claude-opus-4.1");
}

TEST_CASE("which models keep earlier turns' thinking") {
  using hermes::internal::model_preserves_prior_thinking;
  CHECK(model_preserves_prior_thinking("claude-opus-4-5"));
  CHECK(model_preserves_prior_thinking("claude-sonnet-4-6-20260101"));
  CHECK(model_preserves_prior_thinking("claude-opus-5"));
  CHECK_FALSE(model_preserves_prior_thinking("claude-sonnet-4-5"));
  CHECK_FALSE(model_preserves_prior_thinking("claude-opus-4-20250514"));
  CHECK_FALSE(model_preserves_prior_thinking("claude-haiku-4-5"));
  CHECK_FALSE(model_preserves_prior_thinking("gpt-5"));
}
