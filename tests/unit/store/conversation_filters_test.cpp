#include "store/conversation_filters.hpp"

#include <doctest/doctest.h>

#include "support/store_capabilities.hpp"
#include "unit/store/store_backends.hpp"

using hermes::Message;
using hermes::ToolCall;
using hermes::testing::create;
using hermes::testing::search_of;

namespace {

Message calling(const std::string& text, const std::string& id, const std::string& name) {
  Message m = Message::assistant(text);
  m.tool_calls.push_back(ToolCall{id, name, "{}", nullptr});
  return m;
}

}  // namespace

TEST_CASE("a persisted review exchange is dropped with the calls it made") {
  std::vector<Message> conversation = {
      Message::user("real question"),
      Message::assistant("real answer"),
      Message::user("Review the conversation above and consider saving to memory if appropriate."),
      calling("", "call_1", "memory"),
      Message::tool("call_1", "memory", "saved"),
      Message::user("Review the conversation above and update the skill library. Be ACTIVE"),
      Message::assistant("Nothing to save."),
      Message::user("next question"),
  };
  hermes::store::apply_resume_filters(conversation);
  REQUIRE(conversation.size() == 3);
  CHECK(conversation[0].content == "real question");
  CHECK(conversation[1].content == "real answer");
  CHECK(conversation[2].content == "next question");
}

TEST_CASE("a bare tool-name marker is blanked but real text is kept") {
  std::vector<Message> conversation = {calling("[terminal]", "c1", "terminal"),
                                       calling("Let me check [terminal] output", "c2", "terminal"),
                                       Message::assistant("[not a call]")};
  hermes::store::apply_resume_filters(conversation);
  CHECK(conversation[0].content.empty());
  CHECK(conversation[1].content == "Let me check [terminal] output");
  CHECK(conversation[2].content == "[not a call]");
}

TEST_CASE_TEMPLATE("resume applies the filters", B, STORE_BACKENDS) {
  STORE_BACKEND(B, backend);
  auto& store = *backend.store;
  create(store, "s");
  REQUIRE(
      store
          .append_messages(
              "s", {Message::user("q"), calling("[web_search]", "c1", "web_search"),
                    Message::tool("c1", "web_search", "results"),
                    Message::user("Review the conversation above and update the skill library."),
                    Message::assistant("Nothing to save.")})
          .ok());
  auto loaded = store.load_messages("s");
  REQUIRE(loaded->size() == 3);
  CHECK((*loaded)[1].content.empty());
  CHECK((*loaded)[1].tool_calls.size() == 1);
  // The rows themselves are all still there.
  CHECK(search_of(store).read_messages("s")->size() == 5);
}
