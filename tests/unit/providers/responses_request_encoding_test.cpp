// The Responses body written with an encoding cache is byte for byte the body built from
// scratch, including messages whose reasoning items are replayed (never cached: which of
// them go depends on the messages before).
#include <doctest/doctest.h>

#include "common/json_text.hpp"
#include "hermes/message_utils.hpp"
#include "providers/message_encoding_cache.hpp"
#include "providers/responses_request_builder.hpp"
#include "support/random_transcript.hpp"

using hermes::Json;
using hermes::Message;
using hermes::ProviderRequest;
using hermes::internal::build_responses_request;
using hermes::internal::dump_json;
using hermes::internal::encode_responses_request;
using hermes::internal::MessageEncodingCache;
using hermes::internal::ResponsesDialect;
using hermes::testing::RandomTranscript;

namespace {

std::vector<ResponsesDialect> responses_dialects() {
  ResponsesDialect plain;
  plain.issuer = "openai";
  ResponsesDialect codex = plain;
  codex.codex_backend = true;
  codex.github = true;
  ResponsesDialect azure = plain;
  azure.azure = true;
  return {plain, codex, azure};
}

// Replay data on some assistant messages: reasoning items (one id repeated across
// messages) and message items.
void add_replay_data(RandomTranscript& gen, std::vector<Message>& messages) {
  for (Message& m : messages) {
    if (m.role != hermes::Role::kAssistant || gen.pick(3) != 0) continue;
    m.codex_reasoning_items = Json::array({{{"type", "reasoning"},
                                            {"id", "rs_" + std::to_string(gen.pick(3))},
                                            {"encrypted_content", "blob"},
                                            {"_issuer_kind", "openai"}}});
    if (gen.pick(2) == 0) {
      m.codex_message_items = Json::array(
          {{{"type", "message"},
            {"role", "assistant"},
            {"id", "msg_1"},
            {"status", "completed"},
            {"content", Json::array({{{"type", "output_text"}, {"text", "said <|x|>"}}})}}});
    }
  }
}

std::string responses_from_scratch(const ProviderRequest& request,
                                   const ResponsesDialect& dialect) {
  ProviderRequest plain = request;
  plain.encoding_cache = nullptr;
  auto body = build_responses_request(plain, dialect, "default");
  return body.ok() ? dump_json(*body) : "error: " + body.status().message();
}

std::string responses_encoded(const ProviderRequest& request, const ResponsesDialect& dialect) {
  auto body = encode_responses_request(request, dialect, "default");
  return body.ok() ? *body : "error: " + body.status().message();
}

}  // namespace

TEST_CASE("a Responses body written from cached items equals the body built from scratch") {
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    CAPTURE(seed);
    for (const ResponsesDialect& dialect : responses_dialects()) {
      RandomTranscript gen(seed);
      std::vector<Message> input = {Message::system("You are hermes.")};
      for (Message& m : gen.messages(1 + gen.pick(15))) input.push_back(std::move(m));
      add_replay_data(gen, input);
      MessageEncodingCache cache;
      for (int step = 0; step < 8; ++step) {
        const std::vector<Message> wire =
            hermes::sanitize_api_messages(hermes::repair_message_sequence(input));
        ProviderRequest request;
        request.model = "gpt-5";
        request.messages = wire;
        request.stream = gen.pick(2) == 0;
        if (gen.pick(2) == 0) request.max_tokens = 64;
        if (gen.pick(2) == 0) request.reasoning_effort = "low";
        if (gen.pick(4) == 0) request.extra_body = Json{{"input", Json::array()}};
        if (gen.pick(4) == 0) request.extra_body = Json{{"zz", 1}, {"include", Json::array()}};
        request.encoding_cache = &cache;
        CHECK(responses_encoded(request, dialect) == responses_from_scratch(request, dialect));
        CHECK(responses_encoded(request, dialect) == responses_from_scratch(request, dialect));

        std::vector<Message> step_messages = gen.tool_step();
        add_replay_data(gen, step_messages);
        for (Message& m : step_messages) input.push_back(std::move(m));
        const std::vector<Message> next =
            hermes::sanitize_api_messages(hermes::repair_message_sequence(input));
        std::size_t same = 0;
        while (same < wire.size() && same < next.size() && wire[same] == next[same]) ++same;
        cache.keep_first(same);
      }
    }
  }
}
