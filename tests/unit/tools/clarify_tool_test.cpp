// clarify: questions through Callbacks::on_clarify.
#include <doctest/doctest.h>

#include "tools/builtin_toolsets.hpp"
#include "unit/tools/tool_harness.hpp"

using namespace hermes;
using hermes::testing::ToolHarness;

namespace {

const ToolSpec& clarify() {
  static const std::vector<ToolSpec> specs = internal::clarify_tools();
  return specs.front();
}

}  // namespace

TEST_CASE("without a clarify callback the tool says it is not available") {
  ToolHarness h;
  auto r = h.call(clarify(), {{"question", "Which target?"}});
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().message() == "Clarify tool is not available in this execution context.");
}

TEST_CASE("an open question returns the user's answer") {
  ToolHarness h;
  h.callbacks.on_clarify = [](const std::string& q, const std::vector<std::string>& choices) {
    CHECK(q == "Name?");
    CHECK(choices.empty());
    return std::optional<std::string>("Ada");
  };
  Json r = h.call_json(clarify(), {{"question", "  Name?  "}});
  CHECK(r == Json{{"question", "Name?"}, {"choices_offered", nullptr}, {"user_response", "Ada"}});
}

TEST_CASE("the first of several choices is shown as recommended and the label is stripped again") {
  ToolHarness h;
  std::vector<std::string> shown;
  h.callbacks.on_clarify = [&](const std::string&, const std::vector<std::string>& choices) {
    shown = choices;
    return std::optional<std::string>("staging (Recommended)");
  };
  Json r = h.call_json(clarify(),
                       {{"question", "Where?"},
                        {"choices", {"staging", {{"label", "prod"}}, "", "dev", "qa", "extra"}}});
  CHECK(shown == std::vector<std::string>{"staging (Recommended)", "prod", "dev", "qa"});
  CHECK(r["choices_offered"] == Json{"staging", "prod", "dev", "qa"});
  CHECK(r["user_response"] == "staging");
}

TEST_CASE("multi-select answers become a list") {
  ToolHarness h;
  h.callbacks.on_clarify = [](const std::string&, const std::vector<std::string>&) {
    return std::optional<std::string>("a, c (Recommended)");
  };
  Json r = h.call_json(
      clarify(), {{"question", "Which?"}, {"choices", {"a", "b", "c"}}, {"multi_select", true}});
  CHECK(r["user_response"] == Json{"a", "c"});
  h.callbacks.on_clarify = [](const std::string&, const std::vector<std::string>&) {
    return std::optional<std::string>(R"(["b"])");
  };
  CHECK(h.call_json(clarify(), {{"question", "Which?"},
                                {"choices", {"a", "b"}},
                                {"multi_select", true}})["user_response"] == Json{"b"});
}

TEST_CASE("no answer tells the model to use its best judgement") {
  ToolHarness h;
  h.callbacks.on_clarify = [](const std::string&, const std::vector<std::string>&) {
    return std::optional<std::string>();
  };
  Json r = h.call_json(clarify(), {{"question", "Proceed?"}});
  CHECK(r["user_response"].get<std::string>().find("best judgement") != std::string::npos);
}

TEST_CASE("a batch stops asking once the user stops answering") {
  ToolHarness h;
  int asked = 0;
  h.callbacks.on_clarify = [&](const std::string& q,
                               const std::vector<std::string>&) -> std::optional<std::string> {
    ++asked;
    if (q == "First?") return "yes";
    return std::nullopt;
  };
  Json r = h.call_json(
      clarify(), {{"question", "Setup"},
                  {"questions", {{{"id", "one"}, {"question", "First?"}}, "Second?", "Third?"}}});
  CHECK(asked == 2);
  CHECK(r["timed_out"] == true);
  REQUIRE(r["responses"].size() == 3);
  CHECK(r["responses"][0] == Json{{"id", "one"},
                                  {"question", "First?"},
                                  {"choices_offered", nullptr},
                                  {"user_response", "yes"}});
  CHECK(r["responses"][2]["user_response"] == "");
}

TEST_CASE("bad input is an error the model can read") {
  ToolHarness h;
  h.callbacks.on_clarify = [](const std::string&, const std::vector<std::string>&) {
    return std::optional<std::string>("x");
  };
  CHECK(h.call(clarify(), Json::object()).status().message() == "Question text is required.");
  CHECK(h.call(clarify(), {{"question", 42}}).status().message() ==
        "Argument 'question' must be a string, got integer.");
  CHECK(h.call(clarify(), {{"question", "Q"}, {"choices", "a,b"}}).status().message() ==
        "choices must be a list of strings.");
  CHECK_FALSE(
      h.call(clarify(), {{"question", "Q"}, {"questions", Json::array({1, 2, 3, 4, 5, 6})}}).ok());
  h.callbacks.on_clarify = [](const std::string&,
                              const std::vector<std::string>&) -> std::optional<std::string> {
    throw std::runtime_error("terminal closed");
  };
  CHECK(h.call(clarify(), {{"question", "Q"}}).status().message() ==
        "Failed to get user input: terminal closed");
}

TEST_CASE("clarify runs alone: it needs the user") {
  CHECK(clarify().interactive);
}
