// The Chat Completions body written with an encoding cache is byte for byte the body
// built from scratch, whatever the cache holds from earlier requests of the same turn.
#include <doctest/doctest.h>

#include "common/json_text.hpp"
#include "hermes/message_utils.hpp"
#include "providers/chat_request_builder.hpp"
#include "providers/message_encoding_cache.hpp"
#include "support/random_transcript.hpp"

using hermes::Json;
using hermes::Message;
using hermes::ProviderRequest;
using hermes::internal::build_chat_request;
using hermes::internal::ChatDialect;
using hermes::internal::dump_json;
using hermes::internal::encode_chat_request;
using hermes::internal::MessageEncodingCache;
using hermes::testing::RandomTranscript;

namespace {

std::vector<ChatDialect> chat_dialects() {
  std::vector<ChatDialect> out;
  out.push_back(ChatDialect{});
  ChatDialect markers;
  markers.cache_markers = true;
  markers.send_reasoning_details = true;
  markers.nested_reasoning_effort = true;
  out.push_back(markers);
  ChatDialect echo;
  echo.echo_reasoning_content = true;
  echo.developer_role = true;
  echo.keep_thought_signatures = true;
  echo.max_completion_tokens = true;
  out.push_back(echo);
  return out;
}

ProviderRequest request_for(RandomTranscript& gen, std::vector<Message> messages) {
  ProviderRequest request;
  request.model = "m";
  request.messages = std::move(messages);
  if (gen.pick(2) == 0) {
    request.tools = Json::array(
        {{{"type", "function"}, {"function", {{"name", "add"}, {"parameters", Json::object()}}}}});
  }
  if (gen.pick(2) == 0) request.max_tokens = 100 + gen.pick(50);
  if (gen.pick(3) == 0) request.temperature = 0.5;
  if (gen.pick(3) == 0) request.reasoning_effort = "high";
  request.stream = gen.pick(2) == 0;
  switch (gen.pick(5)) {
    case 0:
      request.extra_body = Json{{"zz_last", 1}, {"aa_first", true}, {"model", "override"}};
      break;
    case 1:
      request.extra_body = Json{{"messages", Json::array()}};  // Replaces the messages.
      break;
    default:
      break;
  }
  return request;
}

std::string chat_from_scratch(const ProviderRequest& request, const ChatDialect& dialect) {
  ProviderRequest plain = request;
  plain.encoding_cache = nullptr;
  auto body = build_chat_request(plain, dialect, "default");
  return body.ok() ? dump_json(*body) : "error: " + body.status().message();
}

std::string chat_encoded(const ProviderRequest& request, const ChatDialect& dialect) {
  auto body = encode_chat_request(request, dialect, "default");
  return body.ok() ? *body : "error: " + body.status().message();
}

}  // namespace

TEST_CASE("a body written from cached encodings equals the body built from scratch") {
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    CAPTURE(seed);
    for (const ChatDialect& dialect : chat_dialects()) {
      RandomTranscript gen(seed);
      std::vector<Message> input = {Message::system("You are hermes.")};
      for (Message& m : gen.messages(1 + gen.pick(15))) input.push_back(std::move(m));
      MessageEncodingCache cache;
      for (int step = 0; step < 8; ++step) {
        // As the loop does it: the wire copy of the transcript, the unchanged prefix kept.
        const std::vector<Message> wire =
            hermes::sanitize_api_messages(hermes::repair_message_sequence(input));
        ProviderRequest request = request_for(gen, wire);
        request.encoding_cache = &cache;
        CHECK(chat_encoded(request, dialect) == chat_from_scratch(request, dialect));
        // Twice: the second time every message comes from the cache.
        CHECK(chat_encoded(request, dialect) == chat_from_scratch(request, dialect));

        for (Message& m : gen.tool_step()) input.push_back(std::move(m));
        const std::vector<Message> next =
            hermes::sanitize_api_messages(hermes::repair_message_sequence(input));
        std::size_t same = 0;
        while (same < wire.size() && same < next.size() && wire[same] == next[same]) ++same;
        cache.keep_first(same);
      }
    }
  }
}

TEST_CASE("an encoding stored under another dialect is not reused") {
  ProviderRequest request;
  request.model = "m";
  Message assistant = Message::assistant("");
  assistant.tool_calls.push_back({"c1", "add", "{}", nullptr});
  assistant.reasoning = "because";
  request.messages = {Message::system("s"), Message::user("q"), assistant,
                      Message::tool("c1", "add", "1")};
  MessageEncodingCache cache;
  request.encoding_cache = &cache;
  ChatDialect plain;
  ChatDialect echo;
  echo.echo_reasoning_content = true;
  echo.developer_role = true;
  CHECK(chat_encoded(request, plain) == chat_from_scratch(request, plain));
  CHECK(chat_encoded(request, echo) == chat_from_scratch(request, echo));
  CHECK(chat_encoded(request, echo).find("reasoning_content") != std::string::npos);
  CHECK(chat_encoded(request, plain) == chat_from_scratch(request, plain));
}

TEST_CASE("a message that cannot be encoded is named the same way with a cache") {
  ProviderRequest request;
  request.model = "m";
  Message orphan;
  orphan.role = hermes::Role::kTool;
  orphan.content = "x";
  request.messages = {Message::user("q"), orphan};
  MessageEncodingCache cache;
  request.encoding_cache = &cache;
  auto body = encode_chat_request(request, ChatDialect{}, "default");
  REQUIRE_FALSE(body.ok());
  CHECK(body.status().message() == "messages[1].tool_call_id: missing on a tool message");
}
