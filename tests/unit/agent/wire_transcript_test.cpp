// The wire copy kept between steps equals the one made from scratch after every kind of
// edit, and a step that only appends recomputes only what it appended.
#include "agent/wire_transcript.hpp"

#include <doctest/doctest.h>

#include "hermes/message_utils.hpp"
#include "hermes/token_estimate.hpp"
#include "support/random_transcript.hpp"

using hermes::Message;
using hermes::internal::WireTranscript;
using hermes::testing::RandomTranscript;

namespace {

std::vector<Message> from_scratch(const std::string& system, const std::vector<Message>& messages) {
  std::vector<Message> input;
  if (!system.empty()) input.push_back(Message::system(system));
  input.insert(input.end(), messages.begin(), messages.end());
  return hermes::sanitize_api_messages(hermes::repair_message_sequence(std::move(input)));
}

// Updates `wire` and checks it against the from-scratch copy, messages and estimate.
void check_matches(WireTranscript& wire, const std::string& system,
                   const std::vector<Message>& messages) {
  wire.update(system, messages);
  const std::vector<Message> expected = from_scratch(system, messages);
  uint64_t lease = 0;
  std::vector<Message> got = wire.lend(lease);
  REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("wire message " << i);
    CHECK(got[i] == expected[i]);
  }
  CHECK(wire.estimate() == hermes::estimate_messages_tokens_rough(expected));
  wire.take_back(std::move(got), lease);
}

}  // namespace

TEST_CASE("the kept wire copy equals a fresh one after appends, edits, compactions and steers") {
  for (uint32_t seed = 1; seed <= 150; ++seed) {
    CAPTURE(seed);
    RandomTranscript gen(seed);
    std::string system = gen.pick(4) == 0 ? "" : "You are hermes.";
    std::vector<Message> messages = gen.messages(gen.pick(30));
    WireTranscript wire;
    check_matches(wire, system, messages);
    for (int op = 0; op < 25; ++op) {
      switch (gen.pick(9)) {
        case 0:
        case 1:
        case 2: {  // A tool step.
          for (Message& m : gen.tool_step()) messages.push_back(std::move(m));
          break;
        }
        case 3:  // Anything appended.
          messages.push_back(gen.any());
          break;
        case 4:  // An edit in place, anywhere (a steer lands on the last tool result).
          if (!messages.empty()) {
            Message& m = messages[gen.pick(static_cast<int>(messages.size()))];
            m.content += gen.pick(2) == 0 ? " steer" : "";
            if (gen.pick(3) == 0 && !m.tool_calls.empty()) m.tool_calls.back().arguments += "}";
            if (gen.pick(4) == 0) m.scaffolding = !m.scaffolding;
          }
          break;
        case 5:  // A compaction: the list replaced.
          messages = gen.messages(gen.pick(12));
          break;
        case 6:  // Removal (scaffolding taken out), or an insertion.
          if (!messages.empty()) {
            const auto at = messages.begin() + gen.pick(static_cast<int>(messages.size()));
            if (gen.pick(2) == 0) {
              messages.erase(at);
            } else {
              messages.insert(at, gen.any());
            }
          }
          break;
        case 7:  // The system prompt rebuilt, or dropped.
          system = gen.pick(3) == 0 ? "" : "You are hermes. " + std::to_string(op);
          break;
        default: {  // A lent copy that never comes back.
          wire.update(system, messages);
          uint64_t lease = 0;
          (void)wire.lend(lease);
          break;
        }
      }
      check_matches(wire, system, messages);
    }
  }
}

TEST_CASE("a tool step recomputes only the messages it appended") {
  RandomTranscript gen(7);
  std::vector<Message> messages;
  for (int i = 0; i < 200; ++i) {
    messages.push_back(Message::user("question " + std::to_string(i)));
    for (Message& m : gen.tool_step()) messages.push_back(std::move(m));
    messages.push_back(Message::assistant("answer " + std::to_string(i)));
  }
  messages.push_back(Message::user("the new question"));
  WireTranscript wire;
  wire.update("system", messages);
  const std::size_t first = wire.recomputed();
  CHECK(first > 400);

  for (int step = 0; step < 5; ++step) {
    Message calls = Message::assistant("");
    calls.tool_calls.push_back({"step_" + std::to_string(step), "add", "{\"a\":1}", nullptr});
    messages.push_back(calls);
    messages.push_back(Message::tool("step_" + std::to_string(step), "add", "2"));
    wire.update("system", messages);
    // The segment before the new calls (the user question) and the new one.
    CHECK(wire.recomputed() <= 3);
    check_matches(wire, "system", messages);
  }
}

TEST_CASE("the encodings are dropped from the first message that changed") {
  WireTranscript wire;
  std::vector<Message> messages = {Message::user("q")};
  Message calls = Message::assistant("");
  calls.tool_calls.push_back({"c1", "add", "{}", nullptr});
  messages.push_back(calls);
  messages.push_back(Message::tool("c1", "add", "1"));
  wire.update("s", messages);
  for (std::size_t i = 0; i < 4; ++i) wire.encoding_cache()->store(i, 1, "m" + std::to_string(i));

  messages.back().content = "edited";
  wire.update("s", messages);
  CHECK(wire.encoding_cache()->find(1, 1) != nullptr);  // The system prompt and the question.
  CHECK(wire.encoding_cache()->find(2, 1) == nullptr);  // The edited step's segment.
  CHECK(wire.encoding_cache()->find(3, 1) == nullptr);
}
