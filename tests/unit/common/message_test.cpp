#include <doctest/doctest.h>

#include "hermes/message.hpp"

using hermes::Json;
using hermes::Message;
using hermes::Role;

TEST_CASE("a message survives a round trip through its JSON form") {
  Json j = Json::parse(R"({"role":"assistant","content":null,"tool_calls":[
      {"id":"call_1","type":"function","function":{"name":"add","arguments":"{\"a\":1}"}}],
      "reasoning":"think","refusal":null,"timestamp":12.5})");
  auto m = hermes::message_from_json(j);
  REQUIRE(m.ok());
  CHECK(m->role == Role::kAssistant);
  REQUIRE(m->tool_calls.size() == 1);
  CHECK(m->tool_calls[0].name == "add");
  CHECK(m->tool_calls[0].arguments == R"({"a":1})");
  CHECK(hermes::message_to_json(*m) == j);
}

TEST_CASE("a message with an unknown role is rejected naming the field") {
  auto m = hermes::message_from_json(Json::parse(R"({"role":"robot","content":"x"})"));
  REQUIRE_FALSE(m.ok());
  CHECK(m.status().code() == hermes::StatusCode::kInvalidArgument);
  CHECK(m.status().message().find("role") != std::string::npos);
}

TEST_CASE("a list error names the index of the bad message") {
  auto list = hermes::messages_from_json(Json::parse(R"([{"role":"user","content":"hi"},{"role":"tool","content":"x"}])"));
  REQUIRE_FALSE(list.ok());
  CHECK(list.status().message().find("messages[1]") != std::string::npos);
  CHECK(list.status().message().find("tool_call_id") != std::string::npos);
}

TEST_CASE("multimodal content keeps its parts and exposes the text") {
  Json j = Json::parse(R"({"role":"user","content":[{"type":"text","text":"what is this?"},
      {"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}}]})");
  auto m = hermes::message_from_json(j);
  REQUIRE(m.ok());
  CHECK(m->content == "what is this?");
  CHECK(hermes::message_to_json(*m) == j);
}
