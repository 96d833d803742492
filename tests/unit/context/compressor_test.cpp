// End-to-end compactions with a scripted summariser.
#include <doctest/doctest.h>

#include <stdexcept>

#include "context/message_parts.hpp"
#include "hermes/context_compressor.hpp"
#include "unit/context/transcript_builder.hpp"

namespace hermes {
namespace {

using testing::bulk;
using testing::fixture_text;
using testing::prompt_of;
using testing::ScriptedProvider;
using testing::summary_body;
using testing::transcript_problem;
using testing::TranscriptBuilder;

// A 100K window with the threshold capped at 10,000 tokens: the tail budget is 2,000.
ContextCompressorOptions small_window(std::shared_ptr<Provider> aux,
                                      std::shared_ptr<Provider> main) {
  ContextCompressorOptions o;
  o.model = "test-model";
  o.context_length = 100'000;
  o.threshold_tokens_cap = 10'000;
  o.summary_provider = std::move(aux);
  o.main_provider = std::move(main);
  return o;
}

std::unique_ptr<ContextCompressor> make(ContextCompressorOptions o) {
  auto c = ContextCompressor::create(std::move(o));
  REQUIRE(c.ok());
  return std::move(*c);
}

// `turns` user turns, each reading `rounds` files of ~1,000 tokens, then answering.
void add_work(TranscriptBuilder& t, int first_turn, int turns, int rounds) {
  for (int u = first_turn; u < first_turn + turns; ++u) {
    const std::string n = std::to_string(u);
    t.user("task " + n + ": look at module " + n);
    for (int r = 0; r < rounds; ++r) {
      const std::string path = "/work/src/module_" + n + "_" + std::to_string(r) + ".py";
      t.tool_round("read_file", "{\"path\":\"" + path + "\"}", bulk("contents of " + path, 4000));
    }
    t.assistant("module " + n + " reviewed");
  }
}

std::vector<Message> work_session(int turns, int rounds) {
  TranscriptBuilder t;
  add_work(t, 0, turns, rounds);
  return t.build();
}

int count_summaries(const std::vector<Message>& messages) {
  int n = 0;
  for (const auto& m : messages) n += is_context_summary(m) ? 1 : 0;
  return n;
}

const Message* find_summary(const std::vector<Message>& messages) {
  for (const auto& m : messages) {
    if (is_context_summary(m)) return &m;
  }
  return nullptr;
}

TEST_CASE("a long session is compacted: head and tail kept, the middle summarised") {
  auto aux = testing::summariser({summary_body("reviewed modules 0-3")});
  auto c = make(small_window(aux, nullptr));
  const auto input = work_session(5, 3);  // 40 messages, ~15,000 tokens.
  auto out = c->compress(input, {});
  REQUIRE(out.ok());

  CHECK(transcript_problem(*out) == "");
  CHECK(out->size() < input.size());
  // The head: the first user message and the first tool round, its result described.
  CHECK((*out)[0] == input[0]);
  CHECK((*out)[1] == input[1]);
  CHECK((*out)[2].content == "[read_file] read /work/src/module_0_0.py from line 1 (4,000 chars)");
  // The summary, right after the head.
  REQUIRE(count_summaries(*out) == 1);
  const Message& s = (*out)[3];
  CHECK(is_context_summary(s));
  CHECK(s.role == Role::kUser);  // After a tool result.
  CHECK(s.content.rfind(
            fixture_text("summary_prefix") + "\n" + summary_body("reviewed modules 0-3"), 0) == 0);
  CHECK(s.content.find(fixture_text("summary_end_marker")) ==
        s.content.size() - fixture_text("summary_end_marker").size());
  // The tail: the latest turn, its user message verbatim, its final answer verbatim.
  CHECK(std::find(out->begin(), out->end(), input[32]) != out->end());
  CHECK(out->back() == input.back());

  REQUIRE(aux->requests().size() == 1);
  const std::string prompt = prompt_of(aux->requests()[0]);
  CHECK(prompt.find("TURNS TO SUMMARIZE:") != std::string::npos);
  CHECK(prompt.find("[USER]: task 1: look at module 1") != std::string::npos);
  CHECK(prompt.find("task 4") == std::string::npos);  // The tail is not summarised.

  const CompressionReport& r = c->last_report();
  CHECK(r.compacted);
  CHECK_FALSE(r.used_static_summary);
  CHECK(r.summarized_messages > 0);
  CHECK(r.tokens_after < r.tokens_before);
  CHECK(r.messages_after == out->size());
  CHECK(c->compression_count() == 1);
  CHECK(c->last_prompt_tokens() == -1);
  CHECK(c->system_prompt_note() == fixture_text("system_note"));
  CHECK(c->previous_summary() == summary_body("reviewed modules 0-3"));
}

TEST_CASE("a second compaction updates the first summary and replaces it") {
  auto aux = testing::summariser({summary_body("first"), summary_body("second")});
  auto c = make(small_window(aux, nullptr));
  auto first = c->compress(work_session(5, 3), {});
  REQUIRE(first.ok());
  TranscriptBuilder more;
  for (const auto& m : *first) more.add(m);
  add_work(more, 5, 4, 3);
  auto second = c->compress(more.build(), {});
  REQUIRE(second.ok());

  REQUIRE(aux->requests().size() == 2);
  const std::string prompt = prompt_of(aux->requests()[1]);
  CHECK(prompt.find("PREVIOUS SUMMARY:\n" + summary_body("first")) != std::string::npos);
  CHECK(prompt.find("NEW TURNS TO INCORPORATE:") != std::string::npos);
  CHECK(prompt.find("[USER]: task 5: look at module 5") != std::string::npos);
  CHECK(prompt.find(fixture_text("summary_prefix")) == std::string::npos);  // Not summarised again.
  CHECK(count_summaries(*second) == 1);
  CHECK(find_summary(*second)->content.find(summary_body("second")) != std::string::npos);
  CHECK(transcript_problem(*second) == "");
  // After the first compaction the early messages are no longer protected.
  CHECK((*second)[0].content.rfind(fixture_text("summary_prefix"), 0) == 0);
  CHECK(c->compression_count() == 2);
}

TEST_CASE("a resumed session picks its previous summary up from the transcript") {
  auto first_run =
      make(small_window(testing::summariser({summary_body("from the last run")}), nullptr));
  auto compacted = first_run->compress(work_session(5, 3), {});
  REQUIRE(compacted.ok());
  TranscriptBuilder more;
  for (const auto& m : *compacted) more.add(m);
  add_work(more, 5, 4, 3);

  auto aux = testing::summariser({summary_body("updated")});
  auto fresh = make(small_window(aux, nullptr));  // A new process: no state.
  auto out = fresh->compress(more.build(), {});
  REQUIRE(out.ok());
  const std::string prompt = prompt_of(aux->requests().at(0));
  CHECK(prompt.find("PREVIOUS SUMMARY:\n" + summary_body("from the last run")) !=
        std::string::npos);
  CHECK(count_summaries(*out) == 1);
}

TEST_CASE("the focus topic and memory context reach the summary request") {
  auto aux = testing::summariser({summary_body("x")});
  auto c = make(small_window(aux, nullptr));
  CompressOptions opts;
  opts.focus_topic = "database migration";
  opts.memory_context = "prefers postgres";
  REQUIRE(c->compress(work_session(5, 3), opts).ok());
  const std::string prompt = prompt_of(aux->requests().at(0));
  CHECK(prompt.find("FOCUS TOPIC: \"database migration\"") != std::string::npos);
  CHECK(prompt.find("60-70%") != std::string::npos);
  CHECK(prompt.find("\"prefers postgres\"") != std::string::npos);
}

TEST_CASE("an automatic focus quotes the recent user messages when enabled") {
  auto aux = testing::summariser({summary_body("x")});
  auto o = small_window(aux, nullptr);
  o.auto_focus_topic = true;
  auto c = make(o);
  REQUIRE(c->compress(work_session(5, 3), {}).ok());
  CHECK(prompt_of(aux->requests().at(0)).find("FOCUS TOPIC: \"Recent user focus:\n- task 2") !=
        std::string::npos);
}

TEST_CASE("secrets never reach the summariser") {
  auto aux = testing::summariser({summary_body("x")});
  auto o = small_window(aux, nullptr);
  o.redact = [](std::string_view s) {
    std::string out(s);
    for (std::size_t at; (at = out.find("sk-live-123")) != std::string::npos;)
      out.replace(at, 11, "[REDACTED]");
    return out;
  };
  auto c = make(o);
  TranscriptBuilder t;
  t.user("deploy with sk-live-123")
      .tool_round("terminal", R"({"command":"deploy --key sk-live-123"})", "ok");
  add_work(t, 1, 5, 3);
  CompressOptions opts;
  opts.focus_topic = "the sk-live-123 deploy";
  REQUIRE(c->compress(t.build(), opts).ok());
  const std::string prompt = prompt_of(aux->requests().at(0));
  CHECK(prompt.find("sk-live-123") == std::string::npos);
}

TEST_CASE("the main model writes the summary when the auxiliary one fails") {
  auto aux = std::make_shared<ScriptedProvider>();
  aux->error(503, "model overloaded");
  auto main = testing::summariser({summary_body("by main")});
  std::vector<std::string> kinds;
  auto o = small_window(aux, main);
  o.on_status = [&](std::string_view kind, std::string_view) { kinds.emplace_back(kind); };
  auto c = make(o);
  auto out = c->compress(work_session(5, 3), {});
  REQUIRE(out.ok());
  CHECK(find_summary(*out)->content.find("by main") != std::string::npos);
  CHECK(c->last_report().used_main_provider);
  CHECK(kinds == std::vector<std::string>{"summary_model_fallback"});
}

// Checks the static summary stands in for a failed one and loses nothing that matters.
void check_static_summary(ContextCompressor& c, const std::vector<Message>& input,
                          const Result<std::vector<Message>>& out) {
  REQUIRE(out.ok());
  CHECK(transcript_problem(*out) == "");
  CHECK(c.last_report().used_static_summary);
  CHECK_FALSE(c.last_report().error.empty());
  const Message* s = find_summary(*out);
  REQUIRE(s != nullptr);
  CHECK(s->content.find("## Historical Task Snapshot\nUser asked: 'task 3: look at module 3'") !=
        std::string::npos);
  CHECK(s->content.find("/work/src/module_1_0.py") != std::string::npos);
  CHECK(s->content.find("Called tool(s): read_file") != std::string::npos);
  CHECK(out->back() == input.back());
  CHECK(std::find(out->begin(), out->end(), input[32]) != out->end());
}

TEST_CASE("an erroring, empty or shapeless summariser leaves a static summary") {
  const auto input = work_session(5, 3);
  SUBCASE("errors") {
    auto aux = std::make_shared<ScriptedProvider>();
    aux->error(500, "internal error");
    auto main = std::make_shared<ScriptedProvider>();
    main->error(500, "internal error");
    auto c = make(small_window(aux, main));
    check_static_summary(*c, input, c->compress(input, {}));
  }
  SUBCASE("empty answers") {
    auto c = make(small_window(testing::summariser({"   "}), testing::summariser({""})));
    check_static_summary(*c, input, c->compress(input, {}));
  }
  SUBCASE("answers that are not a summary") {
    auto c = make(small_window(nullptr, testing::summariser({"Sure, happy to help with that!"})));
    check_static_summary(*c, input, c->compress(input, {}));
  }
  SUBCASE("a truncated answer") {
    auto main = std::make_shared<ScriptedProvider>();
    main->text(summary_body("cut"), "length");
    auto c = make(small_window(nullptr, main));
    check_static_summary(*c, input, c->compress(input, {}));
  }
  SUBCASE("no summariser at all") {
    auto c = make(small_window(nullptr, nullptr));
    check_static_summary(*c, input, c->compress(input, {}));
    CHECK(c->should_compress_info(50'000).blocked_reason == "cooldown:600");
  }
}

TEST_CASE("a summariser that cannot be reached leaves the transcript unchanged") {
  auto aux = std::make_shared<ScriptedProvider>();
  auto main = std::make_shared<ScriptedProvider>();
  for (auto* p : {aux.get(), main.get()}) {
    p->step([](const ProviderRequest&, const CallContext&) -> Result<ProviderResponse> {
      ApiError e;
      e.message = "connection refused";
      e.transport = TransportFailure::kConnect;
      return Status::api_error(e);
    });
  }
  std::vector<std::string> kinds;
  auto o = small_window(aux, main);
  o.on_status = [&](std::string_view kind, std::string_view) { kinds.emplace_back(kind); };
  auto c = make(o);
  auto out = c->compress(work_session(5, 3), {});
  REQUIRE_FALSE(out.ok());
  CHECK(out.status().code() == StatusCode::kUnavailable);
  CHECK(out.status().message().find("NOT rotated") != std::string::npos);
  CHECK(c->last_report().aborted);
  CHECK(c->compression_count() == 0);
  CHECK(c->previous_summary().empty());
  CHECK(kinds == std::vector<std::string>{"compression_aborted"});
}

TEST_CASE("an access failure aborts too, and so does any failure when asked to") {
  auto main = std::make_shared<ScriptedProvider>();
  main->error(401, "invalid api key");
  auto c = make(small_window(nullptr, main));
  CHECK_FALSE(c->compress(work_session(5, 3), {}).ok());

  auto o = small_window(nullptr, testing::summariser({""}));
  o.abort_on_summary_failure = true;
  auto strict = make(o);
  auto out = strict->compress(work_session(5, 3), {});
  CHECK_FALSE(out.ok());
  CHECK(strict->last_report().aborted);
}

TEST_CASE("the latest user message stays verbatim even deep under a long tool run") {
  TranscriptBuilder t;
  add_work(t, 0, 3, 2);
  t.user("the live request: migrate the schema");
  for (int r = 0; r < 10; ++r) {
    // A visible reply opens the run, so only the user anchor can keep the request.
    t.tool_round("terminal", R"({"command":"step"})", bulk("step " + std::to_string(r), 6000),
                 r == 0 ? "Starting with the users table." : "");
  }
  const auto input = t.build();
  auto aux = testing::summariser({summary_body("x")});
  auto c = make(small_window(aux, nullptr));
  auto out = c->compress(input, {});
  REQUIRE(out.ok());
  CHECK(c->last_report().compacted);
  CHECK(transcript_problem(*out) == "");
  const auto live = std::find_if(out->begin(), out->end(), [](const Message& m) {
    return m.content == "the live request: migrate the schema";
  });
  CHECK(live != out->end());
  CHECK(prompt_of(aux->requests().at(0)).find("the live request") == std::string::npos);
}

TEST_CASE("parallel tool calls at the boundary stay whole") {
  TranscriptBuilder t;
  for (int u = 0; u < 6; ++u) {
    t.user("batch " + std::to_string(u));
    for (int r = 0; r < 2; ++r) {
      t.parallel_round({{"read_file", R"({"path":"/a"})",
                         bulk("a" + std::to_string(u) + std::to_string(r), 2500)},
                        {"read_file", R"({"path":"/b"})",
                         bulk("b" + std::to_string(u) + std::to_string(r), 2500)},
                        {"terminal", R"({"command":"ls"})",
                         bulk("c" + std::to_string(u) + std::to_string(r), 2500)}});
    }
    t.assistant("batch done");
  }
  const auto input = t.build();
  auto c = make(small_window(testing::summariser({summary_body("x")}), nullptr));
  auto out = c->compress(input, {});
  REQUIRE(out.ok());
  CHECK(transcript_problem(*out) == "");
  for (const auto& m : *out) {
    if (m.tool_calls.empty()) continue;
    CHECK(m.tool_calls.size() == 3);  // No group lost a call to the boundary.
  }
}

TEST_CASE("a history that fits the protected regions is left alone and counts as ineffective") {
  auto aux = testing::summariser({summary_body("x")});
  auto c = make(small_window(aux, nullptr));
  TranscriptBuilder t;
  t.user("hi").assistant("hello").user("how are you").assistant("fine");
  const auto input = t.build();
  for (int i = 0; i < 2; ++i) {
    auto out = c->compress(input, {});
    REQUIRE(out.ok());
    CHECK(*out == input);
    CHECK_FALSE(c->last_report().compacted);
  }
  CHECK(aux->requests().empty());
  CHECK(c->should_compress_info(50'000).blocked_reason == "ineffective");
  CHECK_FALSE(c->has_content_to_compress(input));
}

TEST_CASE("a single huge message is kept whole") {
  TranscriptBuilder t;
  t.user("a").assistant("b").user("c").assistant("d").user("e").assistant("f");
  t.user("please read this: " + bulk("paste", 400'000));
  const auto input = t.build();
  auto c = make(small_window(testing::summariser({summary_body("x")}), nullptr));
  auto out = c->compress(input, {});
  REQUIRE(out.ok());
  CHECK(out->back() == input.back());
  CHECK(transcript_problem(*out) == "");
}

TEST_CASE("a transcript from an old store comes out valid") {
  const Json fixture = testing::load_fixture("old_store_orphans.json");
  auto input = messages_from_json(fixture.at("messages"));
  REQUIRE(input.ok());
  auto o = small_window(testing::summariser({summary_body("x")}), nullptr);
  o.threshold_tokens_cap = 1'000;  // A tail of 200 tokens, so this short history compacts.
  auto c = make(o);
  auto out = c->compress(*input, {});
  REQUIRE(out.ok());
  CHECK(c->last_report().compacted);
  CHECK(transcript_problem(*out) == "");
  CHECK(out->back().content == "Now run the whole suite again please.");
  bool stubbed = false;
  for (const auto& m : *out) {
    CHECK(m.tool_call_id != "call_lost_1");
    CHECK(m.tool_call_id != "call_zzz");
    stubbed = stubbed ||
              (m.tool_call_id == "call_b" && m.content == fixture_text("summarized_result_stub"));
  }
  CHECK(stubbed);
}

TEST_CASE("a system message heading the transcript gets the compaction note") {
  TranscriptBuilder t;
  t.system("You are a careful engineer.");
  add_work(t, 0, 5, 3);
  auto c = make(small_window(testing::summariser({summary_body("x")}), nullptr));
  auto out = c->compress(t.build(), {});
  REQUIRE(out.ok());
  CHECK((*out)[0].content == "You are a careful engineer.\n\n" + fixture_text("system_note"));
  CHECK(transcript_problem(*out) == "");
}

TEST_CASE("old user images are stripped once a newer one exists") {
  auto picture = [](const std::string& text) {
    Message m = Message::user(text);
    m.parts = Json::array(
        {Json{{"type", "text"}, {"text", text}},
         Json{{"type", "image_url"}, {"image_url", {{"url", "data:image/png;base64,QUJD"}}}}});
    return m;
  };
  TranscriptBuilder t;
  t.add(picture("what is this?")).assistant("a cat");
  add_work(t, 1, 4, 3);
  t.add(picture("and this?")).assistant("a dog");
  auto c = make(small_window(testing::summariser({summary_body("x")}), nullptr));
  auto out = c->compress(t.build(), {});
  REQUIRE(out.ok());
  CHECK_FALSE(internal::has_image_parts(out->front()));
  CHECK(out->front().content.find(fixture_text("image_stripped")) != std::string::npos);
  CHECK(internal::has_image_parts((*out)[out->size() - 2]));
}

TEST_CASE("a throwing hook is reported as an error, never thrown to the caller") {
  auto o = small_window(testing::summariser({summary_body("x")}), nullptr);
  o.redact = [](std::string_view) -> std::string { throw std::runtime_error("redactor broke"); };
  o.on_status = [](std::string_view, std::string_view) { throw 42; };
  auto c = make(o);
  auto out = c->compress(work_session(5, 3), {});
  REQUIRE_FALSE(out.ok());
  CHECK(out.status().code() == StatusCode::kInternal);
  CHECK(out.status().message().find("redactor broke") != std::string::npos);
}

}  // namespace
}  // namespace hermes
