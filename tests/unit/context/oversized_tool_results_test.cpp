// A compaction with no middle to summarise still has to fit: tool output too large for
// the window is shortened wherever it stands.
#include "context/oversized_tool_results.hpp"

#include <doctest/doctest.h>

#include "hermes/context_compressor.hpp"
#include "hermes/token_estimate.hpp"
#include "unit/context/transcript_builder.hpp"

namespace hermes {
namespace {

using testing::bulk;
using testing::transcript_problem;
using testing::TranscriptBuilder;

// A system prompt, one user message and three tool rounds of 20-30 KB each: eight
// messages, all inside the protected head and tail.
std::vector<Message> few_huge_results() {
  TranscriptBuilder t;
  t.system("You are a coding agent.").user("Read the three logs and tell me what failed.");
  t.tool_round("read_file", R"({"path":"a.log"})", "BEGIN-A " + bulk("a", 24'000) + " END-A");
  t.tool_round("read_file", R"({"path":"b.log"})", "BEGIN-B " + bulk("b", 30'000) + " END-B");
  t.tool_round("read_file", R"({"path":"c.log"})", "BEGIN-C " + bulk("c", 20'000) + " END-C");
  return t.build();
}

std::unique_ptr<ContextCompressor> compressor(int64_t context_length) {
  ContextCompressorOptions o;
  o.context_length = context_length;
  auto c = ContextCompressor::create(std::move(o));
  REQUIRE(c.ok());
  return std::move(*c);
}

}  // namespace

TEST_CASE("few messages with huge tool results are shortened until they fit") {
  const std::vector<Message> input = few_huge_results();
  auto c = compressor(16'000);  // Threshold 8,000 tokens; the input holds ~19,000.
  REQUIRE(estimate_messages_tokens_rough(input) > c->threshold_tokens());
  const auto out = c->compress(input, CompressOptions{});
  REQUIRE(out.ok());
  REQUIRE(out->size() == input.size());
  CHECK(estimate_messages_tokens_rough(*out) <= c->threshold_tokens());
  CHECK(transcript_problem(*out).empty());
  CHECK(c->last_report().shortened_tool_results > 0);
  CHECK(c->last_report().tokens_after < c->last_report().tokens_before);
  int cut = 0;
  for (std::size_t i = 0; i < out->size(); ++i) {
    const Message& m = (*out)[i];
    if (m.role != Role::kTool || m.content == input[i].content) {
      CHECK(m.content == input[i].content);  // Only tool output gives.
      continue;
    }
    ++cut;
    CHECK(m.content.size() < input[i].content.size());
    CHECK(m.content.find("characters of tool output omitted") != std::string::npos);
    // The beginning and the end of each output stay readable.
    CHECK(m.content.substr(0, 7) == input[i].content.substr(0, 7));
    CHECK(m.content.substr(m.content.size() - 5) ==
          input[i].content.substr(input[i].content.size() - 5));
  }
  CHECK(cut >= 2);  // The largest first: the 30 KB and 24 KB results.
}

TEST_CASE("after a refusal for size the result is at most half of what was refused") {
  const std::vector<Message> input = few_huge_results();
  auto c = compressor(1'000'000);  // The window the agent believes in is far larger.
  const int64_t refused = estimate_messages_tokens_rough(input);
  CompressOptions normal;
  const auto untouched = c->compress(input, normal);
  REQUIRE(untouched.ok());
  CHECK(estimate_messages_tokens_rough(*untouched) ==
        refused);  // Nothing to do below the threshold.

  CompressOptions overflow;
  overflow.overflow = true;
  overflow.current_tokens = refused;
  const auto out = c->compress(input, overflow);
  REQUIRE(out.ok());
  CHECK(estimate_messages_tokens_rough(*out) <= refused / 2);
  CHECK(transcript_problem(*out).empty());
}

TEST_CASE("shortening stops at the floor and leaves small results alone") {
  std::vector<Message> messages = few_huge_results();
  messages.push_back(Message::user("small"));
  const auto shrunk = internal::shrink_oversized_tool_results(messages, 1);
  for (const Message& m : shrunk.messages) {
    if (m.role == Role::kTool)
      CHECK(m.content.size() <= 2 * internal::kMinShortenedToolChars + 200);
  }
  CHECK(shrunk.messages.back().content == "small");
  // Under the target nothing changes.
  const auto same = internal::shrink_oversized_tool_results(messages, 1'000'000);
  CHECK(same.shortened == 0);
  CHECK(same.messages == messages);
}

TEST_CASE("the compressor's steps are public under upstream's names") {
  auto c = compressor(100'000);
  TranscriptBuilder t;
  t.system("sys").user("first");
  for (int i = 0; i < 12; ++i) {
    t.tool_round("read_file", R"({"path":"f)" + std::to_string(i) + R"("})",
                 bulk("r" + std::to_string(i), 3'000));
  }
  t.user("latest").assistant("ok");
  const std::vector<Message> messages = t.build();

  const std::size_t cut = c->find_tail_cut_by_tokens(messages, 2);
  CHECK(cut > 2);
  CHECK(cut < messages.size());
  CHECK(messages[cut].role != Role::kTool);  // Never between a call and its results.
  CHECK(c->find_tail_cut_by_tokens(messages, 2, 100) >= cut);  // A smaller budget keeps less.
  CHECK(c->find_tail_cut_by_tokens(messages, messages.size()) == messages.size());
  CHECK(c->find_tail_cut_by_tokens({}, 0) == 0);

  const auto pruned = c->prune_old_tool_results(messages, 4);
  CHECK(pruned.pruned > 0);
  CHECK(pruned.messages.size() == messages.size());
  CHECK(pruned.messages.back().content == "ok");

  const std::string args = R"({"content":")" + std::string(500, 'x') + R"(","path":"a"})";
  const std::string cut_args = ContextCompressor::truncate_tool_call_args_json(args, 200);
  CHECK(Json::parse(cut_args)["content"].get<std::string>().size() < 300);
  CHECK(ContextCompressor::truncate_tool_call_args_json("not json {", 5) == "not json {");

  CHECK(kPrunedToolPlaceholder == "[Old tool output cleared to save context space]");
  CHECK(kLegacySummaryPrefix == "[CONTEXT SUMMARY]:");
  CHECK(kCompressedSummaryMetadataKey == "_compressed_summary");
}

}  // namespace hermes
