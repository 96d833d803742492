#include "providers/chat_request_builder.hpp"

#include <doctest/doctest.h>

#include <cmath>

#include "hermes/message.hpp"

using hermes::Json;
using hermes::Message;
using hermes::ProviderRequest;
using hermes::ToolCall;
using hermes::internal::build_chat_request;
using hermes::internal::chat_dialect_for;
using hermes::internal::ChatDialect;

namespace {

ToolCall chat_tool_call(std::string id, std::string name, std::string arguments) {
  ToolCall c;
  c.id = std::move(id);
  c.name = std::move(name);
  c.arguments = std::move(arguments);
  return c;
}

// A conversation whose messages carry every field hermes keeps for itself.
ProviderRequest busy_request() {
  ProviderRequest request;
  request.model = "gpt-4.1-mini";
  Message system = Message::system("You are terse.");
  system.timestamp = 1767225600;
  Message user = Message::user("What's the weather in Paris?");
  user.api_content = "What's the weather in Paris?\n\n[memory: likes Celsius]";
  user.display_kind = "steer";
  user.extra = Json{{"observed", true}};
  Message assistant;
  assistant.role = hermes::Role::kAssistant;
  assistant.reasoning = "Need the weather tool.";
  assistant.reasoning_details = Json::array({{{"type", "reasoning.text"}, {"text", "Need it"}}});
  assistant.codex_reasoning_items = Json::array({{{"type", "reasoning"}, {"id", "rs_1"}}});
  assistant.anthropic_content_blocks = Json::array({{{"type", "thinking"}}});
  assistant.finish_reason = "tool_calls";
  ToolCall weather = chat_tool_call("call_1", "get_weather", R"({"city":"Paris"})");
  weather.extra = Json{{"call_id", "fc_1"},
                       {"response_item_id", "item_1"},
                       {"extra_content", {{"google", {{"thought_signature", "c2ln"}}}}}};
  assistant.tool_calls = {weather};
  Message result = Message::tool("call_1", "get_weather", R"({"temp_c":18})");
  result.scaffolding = true;
  request.messages = {system, user, assistant, result};
  return request;
}

}  // namespace

TEST_CASE("the request body carries only Chat Completions schema fields") {
  ProviderRequest request = busy_request();
  request.stream = false;
  auto body = build_chat_request(
      request, chat_dialect_for("custom", "http://127.0.0.1:8080/v1", request.model));
  REQUIRE(body.ok());
  const Json expected = Json::parse(R"({
    "model": "gpt-4.1-mini",
    "stream": false,
    "messages": [
      {"role": "system", "content": "You are terse."},
      {"role": "user", "content": "What's the weather in Paris?\n\n[memory: likes Celsius]"},
      {"role": "assistant", "content": null, "tool_calls": [
        {"id": "call_1", "type": "function",
         "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]},
      {"role": "tool", "tool_call_id": "call_1", "content": "{\"temp_c\":18}"}
    ]})");
  CHECK(*body == expected);
}

TEST_CASE("tools are omitted when empty and sent in function form otherwise") {
  ProviderRequest request;
  request.model = "m";
  request.messages = {Message::user("hi")};
  auto dialect = chat_dialect_for("custom", "http://localhost:11434/v1", "m");
  auto without = build_chat_request(request, dialect);
  REQUIRE(without.ok());
  CHECK_FALSE(without->contains("tools"));

  request.tools = Json::parse(R"([
    {"type":"function","function":{"name":"get_weather","parameters":{"type":"object"}}},
    {"name":"list_files","description":"bare definition"}])");
  auto with = build_chat_request(request, dialect);
  REQUIRE(with.ok());
  CHECK((*with)["tools"] == Json::parse(R"([
    {"type":"function","function":{"name":"get_weather","parameters":{"type":"object"}}},
    {"type":"function","function":{"name":"list_files","description":"bare definition"}}])"));
}

TEST_CASE("a stream asks for the usage chunk unless the server rejected stream_options") {
  ProviderRequest request;
  request.model = "m";
  request.messages = {Message::user("hi")};
  ChatDialect dialect;
  auto streamed = build_chat_request(request, dialect);
  REQUIRE(streamed.ok());
  CHECK((*streamed)["stream"] == true);
  CHECK((*streamed)["stream_options"] == Json{{"include_usage", true}});

  dialect.include_usage = false;
  auto plain = build_chat_request(request, dialect);
  REQUIRE(plain.ok());
  CHECK_FALSE(plain->contains("stream_options"));

  request.stream = false;
  dialect.include_usage = true;
  auto unstreamed = build_chat_request(request, dialect);
  REQUIRE(unstreamed.ok());
  CHECK_FALSE(unstreamed->contains("stream_options"));
}

TEST_CASE(
    "OpenAI endpoints and reasoning models get max_completion_tokens, reasoning models no "
    "temperature") {
  ProviderRequest request;
  request.messages = {Message::user("hi")};
  request.max_tokens = 1024;
  request.temperature = 0.2;
  struct Case {
    const char* provider;
    const char* base_url;
    const char* model;
    const char* field;
    bool temperature;  // Reasoning models reject sampling parameters.
  };
  for (const Case& c :
       {Case{"openai", "https://api.openai.com/v1", "gpt-4.1-mini", "max_completion_tokens", true},
        Case{"azure", "https://x.openai.azure.com/openai", "gpt-4o", "max_completion_tokens", true},
        Case{"openrouter", "https://openrouter.ai/api/v1", "openai/o3-mini",
             "max_completion_tokens", false},
        Case{"openrouter", "https://openrouter.ai/api/v1", "anthropic/claude-sonnet-4.5",
             "max_tokens", true},
        Case{"custom", "http://127.0.0.1:8000/v1", "o3-community-7b", "max_tokens", true},
        Case{"custom", "http://127.0.0.1:8000/v1", "gpt-5.1", "max_completion_tokens", false},
        Case{"openai", "https://api.openai.com/v1", "o4-mini", "max_completion_tokens", false},
        Case{"deepseek", "https://api.deepseek.com", "deepseek-chat", "max_tokens", true}}) {
    CAPTURE(c.model);
    request.model = c.model;
    auto body = build_chat_request(request, chat_dialect_for(c.provider, c.base_url, c.model));
    REQUIRE(body.ok());
    CHECK((*body)[c.field] == 1024);
    // model, messages, the cap, [temperature,] stream, stream_options
    CHECK(body->size() == (c.temperature ? 6u : 5u));
    CHECK(body->contains("temperature") == c.temperature);
    if (c.temperature) CHECK((*body)["temperature"] == 0.2);
  }
}

TEST_CASE("GPT-5 and Codex models get the system prompt as a developer message") {
  ProviderRequest request;
  request.model = "gpt-5.1-codex";
  request.messages = {Message::system("Rules."), Message::user("hi"),
                      Message::system("Late note.")};
  auto body = build_chat_request(
      request, chat_dialect_for("openai", "https://api.openai.com/v1", request.model));
  REQUIRE(body.ok());
  CHECK((*body)["messages"][0]["role"] == "developer");
  CHECK((*body)["messages"][2]["role"] == "system");  // Only the leading prompt moves.
}

TEST_CASE("thinking-mode servers get reasoning_content replayed, padded on tool-call turns") {
  ProviderRequest request = busy_request();
  request.model = "deepseek-reasoner";
  Message plain;
  plain.role = hermes::Role::kAssistant;
  plain.tool_calls = {chat_tool_call("call_2", "ls", "")};
  request.messages.push_back(plain);
  request.messages.push_back(Message::tool("call_2", "ls", "a.txt"));
  auto body = build_chat_request(
      request, chat_dialect_for("deepseek", "https://api.deepseek.com", request.model));
  REQUIRE(body.ok());
  const Json& messages = (*body)["messages"];
  CHECK(messages[2]["reasoning_content"] == "Need the weather tool.");
  CHECK(messages[4]["reasoning_content"] == " ");
  CHECK(messages[4]["tool_calls"][0]["function"]["arguments"] == "{}");
  CHECK_FALSE(messages[2].contains("reasoning_details"));
}

TEST_CASE("OpenRouter gets reasoning_details back and nested reasoning effort") {
  ProviderRequest request = busy_request();
  request.model = "anthropic/claude-sonnet-4.5";
  request.reasoning_effort = "high";
  auto body = build_chat_request(
      request, chat_dialect_for("openrouter", "https://openrouter.ai/api/v1", request.model));
  REQUIRE(body.ok());
  CHECK((*body)["messages"][2]["reasoning_details"] == request.messages[2].reasoning_details);
  CHECK_FALSE((*body)["messages"][2].contains("reasoning_content"));
  CHECK((*body)["reasoning"] == Json{{"effort", "high"}});
  CHECK_FALSE(body->contains("reasoning_effort"));
}

TEST_CASE("reasoning effort is clamped for generic servers and never sent to GPT-4") {
  ProviderRequest request;
  request.model = "qwen3-32b";
  request.messages = {Message::user("hi")};
  request.reasoning_effort = "xhigh";
  auto custom = build_chat_request(
      request, chat_dialect_for("custom", "http://127.0.0.1:8000/v1", request.model));
  REQUIRE(custom.ok());
  CHECK((*custom)["reasoning_effort"] == "high");
  request.model = "gpt-5.1";
  auto openai = build_chat_request(
      request, chat_dialect_for("openai", "https://api.openai.com/v1", request.model));
  REQUIRE(openai.ok());
  CHECK((*openai)["reasoning_effort"] == "xhigh");
  request.reasoning_effort = " High ";  // Servers compare the level case-sensitively.
  auto spelled = build_chat_request(
      request, chat_dialect_for("openrouter", "https://openrouter.ai/api/v1", "openai/gpt-5.1"));
  REQUIRE(spelled.ok());
  CHECK((*spelled)["reasoning"] == Json{{"effort", "high"}});
  request.model = "gpt-4.1";  // Answers 400 to the parameter.
  auto classic = build_chat_request(
      request, chat_dialect_for("openai", "https://api.openai.com/v1", request.model));
  REQUIRE(classic.ok());
  CHECK_FALSE(classic->contains("reasoning_effort"));
}

TEST_CASE("Gemini keeps its tool-call thought signatures; others never see them") {
  ProviderRequest request = busy_request();
  request.model = "gemini-3-pro-preview";
  auto gemini = build_chat_request(
      request, chat_dialect_for("gemini", "https://generativelanguage.googleapis.com/v1beta/openai",
                                request.model));
  REQUIRE(gemini.ok());
  const Json& kept = (*gemini)["messages"][2]["tool_calls"][0];
  CHECK(kept["extra_content"] == Json{{"google", {{"thought_signature", "c2ln"}}}});
  CHECK_FALSE(kept.contains("call_id"));
  CHECK_FALSE(kept.contains("response_item_id"));
}

TEST_CASE("multimodal content is sent as its parts") {
  ProviderRequest request;
  request.model = "gpt-4.1-mini";
  Message user = Message::user("what is this?");
  user.parts = Json::parse(R"([{"type":"text","text":"what is this?"},
      {"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}}])");
  request.messages = {user};
  auto body = build_chat_request(request, ChatDialect{});
  REQUIRE(body.ok());
  CHECK((*body)["messages"][0]["content"] == user.parts);
}

TEST_CASE("extra_body keys are merged into the top level") {
  ProviderRequest request;
  request.model = "qwen3";
  request.messages = {Message::user("hi")};
  request.extra_body =
      Json{{"chat_template_kwargs", {{"enable_thinking", false}}}, {"stream", true}};
  auto body = build_chat_request(request, ChatDialect{});
  REQUIRE(body.ok());
  CHECK((*body)["chat_template_kwargs"] == Json{{"enable_thinking", false}});
}

TEST_CASE("requests that cannot be encoded are rejected naming the field") {
  ProviderRequest request;
  request.messages = {Message::user("hi")};
  auto no_model = build_chat_request(request, ChatDialect{});
  REQUIRE_FALSE(no_model.ok());
  CHECK(no_model.status().message().find("model") != std::string::npos);

  auto configured = build_chat_request(request, ChatDialect{}, "configured-model");
  REQUIRE(configured.ok());
  CHECK((*configured)["model"] == "configured-model");

  request.model = "m";
  request.tools = Json::parse(R"([{"description":"no name"}])");
  auto bad_tool = build_chat_request(request, ChatDialect{});
  REQUIRE_FALSE(bad_tool.ok());
  CHECK(bad_tool.status().code() == hermes::StatusCode::kInvalidArgument);
  CHECK(bad_tool.status().message().find("tools[0]") != std::string::npos);

  request.tools = Json::array();
  request.max_tokens = 0;
  auto bad_cap = build_chat_request(request, ChatDialect{});
  REQUIRE_FALSE(bad_cap.ok());
  CHECK(bad_cap.status().message().rfind("max_tokens", 0) == 0);
  request.max_tokens.reset();
  request.temperature = std::nan("");
  auto bad_temperature = build_chat_request(request, ChatDialect{});
  REQUIRE_FALSE(bad_temperature.ok());
  CHECK(bad_temperature.status().message().rfind("temperature", 0) == 0);
  request.temperature.reset();

  request.extra_body = Json::array();
  auto bad_extra = build_chat_request(request, ChatDialect{});
  REQUIRE_FALSE(bad_extra.ok());
  CHECK(bad_extra.status().message().find("extra_body") != std::string::npos);

  request.extra_body = nullptr;
  Message orphan;
  orphan.role = hermes::Role::kTool;
  request.messages.push_back(orphan);
  auto bad_message = build_chat_request(request, ChatDialect{});
  REQUIRE_FALSE(bad_message.ok());
  CHECK(bad_message.status().message().find("messages[1].tool_call_id") != std::string::npos);
}

TEST_CASE("Claude through OpenRouter or the Nous portal gets cache breakpoints on content parts") {
  CHECK(chat_dialect_for("openrouter", "https://openrouter.ai/api/v1", "anthropic/claude-sonnet-4")
            .cache_markers);
  CHECK(chat_dialect_for("nous", "https://inference-api.nousresearch.com/v1", "claude-opus-4")
            .cache_markers);
  CHECK_FALSE(chat_dialect_for("openrouter", "https://openrouter.ai/api/v1", "openai/gpt-4.1")
                  .cache_markers);
  CHECK_FALSE(
      chat_dialect_for("custom", "http://localhost:8000/v1", "claude-sonnet-4").cache_markers);

  ProviderRequest request;
  request.model = "anthropic/claude-sonnet-4";
  Message assistant_call;
  assistant_call.role = hermes::Role::kAssistant;
  assistant_call.tool_calls = {chat_tool_call("call_1", "read_file", R"({"path":"a.txt"})")};
  Message image = Message::user("and this?");
  image.parts =
      Json::parse(R"([{"type":"text","text":"and this?","cache_control":{"type":"ephemeral"}},
      {"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}}])");
  request.messages = {Message::system("You are terse."),
                      Message::user("first"),
                      Message::assistant("one"),
                      Message::user("read a.txt"),
                      assistant_call,
                      Message::tool("call_1", "read_file", "hello"),
                      image};
  auto body = build_chat_request(
      request, chat_dialect_for("openrouter", "https://openrouter.ai/api/v1", request.model));
  REQUIRE(body.ok());
  const Json& m = (*body)["messages"];
  const Json marker = {{"type", "ephemeral"}};
  // The system prompt, then the last three messages that can carry a marker: the image
  // message (on its last part), the tool result, and the user message before the call.
  CHECK(m[0]["content"] ==
        Json::array({{{"type", "text"}, {"text", "You are terse."}, {"cache_control", marker}}}));
  CHECK(m[6]["content"][1]["cache_control"] == marker);
  CHECK_FALSE(m[6]["content"][0].contains("cache_control"));  // The caller's stale marker is gone.
  CHECK(m[5]["content"][0]["cache_control"] == marker);
  CHECK(m[5]["tool_call_id"] == "call_1");
  CHECK_FALSE(m[4].contains("cache_control"));  // Only tool calls: nothing to carry it.
  CHECK(m[3]["content"][0]["text"] == "read a.txt");
  CHECK(m[3]["content"][0]["cache_control"] == marker);
  CHECK(m[2]["content"] == "one");
  CHECK(m[1]["content"] == "first");
  const std::string sent = body->dump();
  std::size_t markers = 0;
  for (std::size_t at = sent.find("cache_control"); at != std::string::npos;
       at = sent.find("cache_control", at + 1)) {
    ++markers;
  }
  CHECK(markers == 4);

  // Any other route sends plain strings.
  auto plain = build_chat_request(
      request, chat_dialect_for("openai", "https://api.openai.com/v1", "gpt-4.1"));
  REQUIRE(plain.ok());
  CHECK((*plain)["messages"][0]["content"] == "You are terse.");
}

TEST_CASE("an assistant message with an empty tool_calls list is sent without the key") {
  auto assistant = hermes::message_from_json(
      Json::parse(R"({"role":"assistant","content":"Hi there.","tool_calls":[]})"));
  REQUIRE(assistant.ok());
  ProviderRequest request;
  request.model = "m";
  request.messages = {Message::user("hi"), *assistant, Message::user("and now?")};
  auto body =
      build_chat_request(request, chat_dialect_for("openai", "https://api.openai.com/v1", "m"));
  REQUIRE(body.ok());
  const Json& sent = (*body)["messages"][1];
  CHECK(sent == Json{{"role", "assistant"}, {"content", "Hi there."}});
}
