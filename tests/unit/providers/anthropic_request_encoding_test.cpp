// The Anthropic Messages body written with an encoding cache is byte for byte the body
// built from scratch, after every kind of edit a turn makes to its transcript: messages
// appended (merging into the last converted message), the history compacted, a message
// repaired in the middle, text steered into a tool result or a user message, system
// messages added; with thinking blocks, images and cache breakpoints.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "common/json_text.hpp"
#include "hermes/message_utils.hpp"
#include "providers/anthropic_request_builder.hpp"
#include "providers/message_encoding_cache.hpp"
#include "support/random_transcript.hpp"

using hermes::Json;
using hermes::Message;
using hermes::ProviderRequest;
using hermes::Role;
using hermes::internal::AnthropicDialect;
using hermes::internal::build_anthropic_request;
using hermes::internal::dump_json;
using hermes::internal::encode_anthropic_request;
using hermes::internal::MessageEncodingCache;
using hermes::internal::ThinkingReplay;
using hermes::testing::RandomTranscript;

namespace {

struct Endpoint {
  AnthropicDialect dialect;
  std::string model;
};

std::vector<Endpoint> endpoints() {
  auto endpoint = [](ThinkingReplay replay, bool caching, std::string model) {
    AnthropicDialect dialect;
    dialect.replay = replay;
    dialect.prompt_caching = caching;
    return Endpoint{dialect, std::move(model)};
  };
  return {
      // Sonnet 4.5 keeps the last turn's thinking only; Opus 4.6 keeps every turn's.
      endpoint(ThinkingReplay::kNative, false, "claude-sonnet-4-5"),
      endpoint(ThinkingReplay::kNative, true, "claude-sonnet-4-5"),
      endpoint(ThinkingReplay::kNative, true, "claude-opus-4-6"),
      endpoint(ThinkingReplay::kThirdParty, true, "MiniMax-M2"),
      endpoint(ThinkingReplay::kKimi, false, "kimi-k2"),
      endpoint(ThinkingReplay::kDeepSeek, true, "deepseek-v4"),
  };
}

// Thinking as Anthropic returns it on some assistant messages: ordered blocks with signed
// and redacted thinking, blank text and the tool uses (one sometimes missing), or thinking
// blocks among the reasoning details; and a tool id that sanitises onto another.
void add_thinking_data(RandomTranscript& gen, std::vector<Message>& messages) {
  for (Message& m : messages) {
    if (m.role == Role::kTool && gen.pick(8) == 0) m.tool_call_id += ".";
    if (m.role != Role::kAssistant) continue;
    switch (gen.pick(5)) {
      case 0: {
        Json blocks =
            Json::array({{{"type", "thinking"}, {"thinking", "plan"}, {"signature", "s"}}});
        if (gen.pick(2) == 0) blocks.push_back({{"type", "redacted_thinking"}, {"data", "d"}});
        blocks.push_back({{"type", "text"}, {"text", gen.pick(2) == 0 ? " " : "said"}});
        for (const hermes::ToolCall& call : m.tool_calls) {
          if (gen.pick(5) == 0) continue;
          blocks.push_back({{"type", "tool_use"},
                            {"id", call.id},
                            {"name", call.name},
                            {"input", Json::object()}});
        }
        m.anthropic_content_blocks = std::move(blocks);
        break;
      }
      case 1:
        m.reasoning_details = Json::array(
            {{{"type", "thinking"}, {"thinking", "hmm"}, {"signature", gen.pick(2) ? "sig" : ""}}});
        break;
      case 2:
        m.anthropic_content_blocks = Json::array({{{"type", "text"}, {"text", ""}}});
        break;
      default:
        break;
    }
  }
}

ProviderRequest request_for(RandomTranscript& gen, const Endpoint& endpoint,
                            std::vector<Message> messages) {
  ProviderRequest request;
  request.model = endpoint.model;
  request.messages = std::move(messages);
  if (gen.pick(2) == 0) {
    request.tools = Json::array(
        {{{"type", "function"}, {"function", {{"name", "add"}, {"parameters", Json::object()}}}}});
  }
  if (gen.pick(2) == 0) request.max_tokens = 100 + gen.pick(50);
  if (gen.pick(3) == 0) request.temperature = 0.5;
  const char* const kEfforts[] = {"", "high", "none", "low"};
  request.reasoning_effort = kEfforts[gen.pick(4)];
  request.stream = gen.pick(2) == 0;
  switch (gen.pick(6)) {
    case 0:
      request.extra_body = Json{{"zz_last", 1}, {"aa_first", true}, {"model", "override"}};
      break;
    case 1:
      request.extra_body = Json{{"messages", Json::array()}};  // Replaces the messages.
      break;
    case 2:
      request.extra_body = Json{{"tool_choice", {{"type", "any"}}}};
      break;
    default:
      break;
  }
  return request;
}

std::string anthropic_from_scratch(const ProviderRequest& request, const Endpoint& endpoint) {
  ProviderRequest plain = request;
  plain.encoding_cache = nullptr;
  auto body = build_anthropic_request(plain, endpoint.dialect, "default");
  return body.ok() ? dump_json(*body) : "error: " + body.status().message();
}

std::string anthropic_encoded(const ProviderRequest& request, const Endpoint& endpoint) {
  auto body = encode_anthropic_request(request, endpoint.dialect, "default");
  return body.ok() ? *body : "error: " + body.status().message();
}

// Text the user sends while a tool runs, added to the newest tool result or user message.
void steer(std::vector<Message>& input) {
  for (auto it = input.rbegin(); it != input.rend(); ++it) {
    if (it->role != Role::kTool && it->role != Role::kUser) continue;
    it->content += "\n[the user says: use the other file]";
    if (it->parts.is_array()) it->parts.push_back({{"type", "text"}, {"text", "steered"}});
    return;
  }
}

// One edit of the kinds a turn makes between two calls.
void edit(RandomTranscript& gen, std::vector<Message>& input) {
  std::vector<Message> added;
  switch (gen.pick(8)) {
    case 0: {  // Compaction: a summary and the newest messages.
      const std::size_t keep = std::min<std::size_t>(input.size() - 1, 1 + gen.pick(4));
      std::vector<Message> compacted = {input.front(), Message::user("[summary of the work]")};
      compacted.insert(compacted.end(), input.end() - static_cast<std::ptrdiff_t>(keep),
                       input.end());
      input = std::move(compacted);
      return;
    }
    case 1: {  // A repair in the middle: a message's text or its tool id changed.
      Message& m = input[1 + gen.pick(static_cast<int>(input.size() - 1))];
      if (m.role == Role::kTool && gen.pick(2) == 0) {
        m.tool_call_id = "call_repaired";
      } else {
        m.content += " (repaired)";
      }
      return;
    }
    case 2:
      steer(input);
      return;
    case 3:  // A system message among the others (a late reminder).
      input.insert(input.begin() + 1 + gen.pick(static_cast<int>(input.size())),
                   Message::system(gen.pick(2) == 0 ? "remember the plan" : " "));
      return;
    case 4:  // Messages that merge into the last converted message.
      added.push_back(gen.pick(2) == 0 ? gen.user() : gen.assistant_text());
      added.push_back(gen.any());
      break;
    default:
      added = gen.tool_step();
      break;
  }
  add_thinking_data(gen, added);
  for (Message& m : added) input.push_back(std::move(m));
}

std::size_t same_prefix(const std::vector<Message>& a, const std::vector<Message>& b) {
  std::size_t same = 0;
  while (same < a.size() && same < b.size() && a[same] == b[same]) ++same;
  return same;
}

}  // namespace

TEST_CASE("an Anthropic body written from cached runs equals the body built from scratch") {
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    CAPTURE(seed);
    for (const Endpoint& endpoint : endpoints()) {
      CAPTURE(endpoint.model);
      RandomTranscript gen(seed);
      std::vector<Message> input = {Message::system("You are hermes.")};
      for (Message& m : gen.messages(1 + gen.pick(15))) input.push_back(std::move(m));
      add_thinking_data(gen, input);
      // Half the seeds send the transcript as the loop's wire copy, half as it is.
      const bool sanitised = seed % 2 == 0;
      auto wire_of = [&](const std::vector<Message>& messages) {
        return sanitised ? hermes::sanitize_api_messages(hermes::repair_message_sequence(messages))
                         : messages;
      };
      MessageEncodingCache cache;
      for (int step = 0; step < 10; ++step) {
        CAPTURE(step);
        const std::vector<Message> wire = wire_of(input);
        ProviderRequest request = request_for(gen, endpoint, wire);
        const std::string expected = anthropic_from_scratch(request, endpoint);
        CHECK(anthropic_encoded(request, endpoint) == expected);
        request.encoding_cache = &cache;
        CHECK(anthropic_encoded(request, endpoint) == expected);
        // Twice: the second time every run but the last assistant one comes from the cache.
        CHECK(anthropic_encoded(request, endpoint) == expected);

        edit(gen, input);
        cache.keep_first(same_prefix(wire, wire_of(input)));
      }
    }
  }
}

TEST_CASE("a run the cache holds is not converted again") {
  ProviderRequest request;
  request.model = "claude-opus-4-6";
  request.messages = {Message::system("s"), Message::user("first question"),
                      Message::assistant("first answer"), Message::user("second question")};
  MessageEncodingCache cache;
  request.encoding_cache = &cache;
  AnthropicDialect dialect;
  REQUIRE(encode_anthropic_request(request, dialect).ok());
  // Edited without telling the cache: only a reused run still says "first question".
  request.messages[1].content = "changed";
  auto body = encode_anthropic_request(request, dialect);
  REQUIRE(body.ok());
  CHECK(body->find("first question") != std::string::npos);
  cache.keep_first(1);
  body = encode_anthropic_request(request, dialect);
  REQUIRE(body.ok());
  CHECK(body->find("first question") == std::string::npos);
}

TEST_CASE("a run kept for one endpoint is not reused for another") {
  Message assistant = Message::assistant("");
  assistant.tool_calls.push_back({"c1", "add", "{}", nullptr});
  assistant.reasoning = "because";
  ProviderRequest request;
  request.model = "kimi-k2";
  request.messages = {Message::user("q"), assistant, Message::tool("c1", "add", "1"),
                      Message::assistant("done")};
  MessageEncodingCache cache;
  request.encoding_cache = &cache;
  for (const Endpoint& endpoint : endpoints()) {
    CAPTURE(endpoint.model);
    CHECK(anthropic_encoded(request, endpoint) == anthropic_from_scratch(request, endpoint));
  }
}

TEST_CASE("a request that cannot be encoded is refused the same way with a cache") {
  ProviderRequest request;
  request.model = "claude-opus-4-6";
  Message orphan;
  orphan.role = Role::kTool;
  orphan.content = "x";
  request.messages = {Message::user("q"), orphan};
  MessageEncodingCache cache;
  request.encoding_cache = &cache;
  auto body = encode_anthropic_request(request, AnthropicDialect{});
  REQUIRE_FALSE(body.ok());
  CHECK(body.status().message() == "messages[1].tool_call_id: missing on a tool message");
  request.messages.clear();
  CHECK_FALSE(encode_anthropic_request(request, AnthropicDialect{}).ok());
}

TEST_CASE("a conversation that opens with the assistant or has only system messages") {
  Message thinking_only = Message::assistant("<think>plan</think>");
  Message call = Message::assistant("");
  call.tool_calls.push_back({"c1", "add", "{}", nullptr});
  const std::vector<std::vector<Message>> conversations = {
      {Message::system("s")},
      {Message::system("s"), thinking_only},
      {call, Message::tool("c1", "add", "1")},
      {Message::system("s"), Message::assistant("hi"), Message::system("t"), Message::user("q")},
  };
  for (const Endpoint& endpoint : endpoints()) {
    CAPTURE(endpoint.model);
    for (const std::vector<Message>& messages : conversations) {
      ProviderRequest request;
      request.model = endpoint.model;
      request.messages = messages;
      request.reasoning_effort = "high";
      MessageEncodingCache cache;
      request.encoding_cache = &cache;
      CHECK(anthropic_encoded(request, endpoint) == anthropic_from_scratch(request, endpoint));
      CHECK(anthropic_encoded(request, endpoint) == anthropic_from_scratch(request, endpoint));
    }
  }
}
