// todo_list: merge semantics, validation limits, the result shape and the snapshot that
// survives context compression.
#include <doctest/doctest.h>

#include "hermes/todo.hpp"
#include "tools/builtin_toolsets.hpp"
#include "unit/tools/tool_harness.hpp"

using namespace hermes;
using hermes::testing::ToolHarness;

namespace {

const ToolSpec& todo() {
  static const std::vector<ToolSpec> specs = internal::todo_tools();
  return specs.front();
}

Json item(const std::string& id, const std::string& content, const std::string& status) {
  return {{"id", id}, {"content", content}, {"status", status}};
}

}  // namespace

TEST_CASE("reading an empty list returns zero counts at revision zero") {
  ToolHarness h;
  Json r = h.call_json(todo(), Json::object());
  CHECK(r["todos"].empty());
  CHECK(r["revision"] == 0);
  CHECK(r["summary"]["total"] == 0);
}

TEST_CASE("replace mode keeps the last duplicate id at its position and counts statuses") {
  ToolHarness h;
  Json r = h.call_json(todo(), {{"todos",
                                 {item("a", "first", "pending"), item("b", "second", "completed"),
                                  item("a", "first again", "pending")}}});
  REQUIRE(r["todos"].size() == 2);
  CHECK(r["todos"][0]["id"] == "b");
  CHECK(r["todos"][1]["content"] == "first again");
  CHECK(r["revision"] == 1);
  CHECK(r["summary"] ==
        Json{{"total", 2}, {"pending", 1}, {"in_progress", 0}, {"completed", 1}, {"cancelled", 0}});
}

TEST_CASE("merge mode updates only the fields given and appends new ids") {
  ToolHarness h;
  h.call_json(todo(), {{"todos", {item("1", "plan", "pending"), item("2", "build", "pending")}}});
  Json r = h.call_json(todo(), {{"merge", true},
                                {"todos",
                                 {{{"id", "2"}, {"status", "in_progress"}},
                                  item("3", "ship", "pending"),
                                  {{"content", "no id is ignored"}}}}});
  REQUIRE(r["todos"].size() == 3);
  // The item in progress moves ahead of the pending one before it.
  CHECK(r["todos"][0]["id"] == "2");
  CHECK(r["todos"][0]["content"] == "build");
  CHECK(r["todos"][0]["status"] == "in_progress");
  CHECK(r["todos"][2]["id"] == "3");
  CHECK(r["revision"] == 2);
}

TEST_CASE("an unchanged write does not bump the revision") {
  ToolHarness h;
  Json list = {{"todos", {item("1", "same", "pending")}}};
  h.call_json(todo(), list);
  CHECK(h.call_json(todo(), list)["revision"] == 1);
}

TEST_CASE("items are validated: missing id, empty content, bad status, self parent") {
  ToolHarness h;
  Json r = h.call_json(todo(),
                       {{"todos",
                         {{{"content", ""}, {"status", "DONE"}},
                          {{"id", 7}, {"content", "x"}, {"status", "Completed"}, {"parent", "7"}},
                          "not an object"}}});
  REQUIRE(r["todos"].size() == 3);
  CHECK(r["todos"][0] == Json{{"id", "?"}, {"content", "(no description)"}, {"status", "pending"}});
  CHECK(r["todos"][1] == Json{{"id", "7"}, {"content", "x"}, {"status", "completed"}});
  CHECK(r["todos"][2]["content"] == "(invalid item)");
}

TEST_CASE("content is capped at 4000 characters and the list at 256 items") {
  ToolHarness h;
  Json many = Json::array();
  for (int i = 0; i < 300; ++i)
    many.push_back(item(std::to_string(i), std::string(5000, 'x'), "pending"));
  Json r = h.call_json(todo(), {{"todos", many}});
  CHECK(r["todos"].size() == 256);
  const std::string content = r["todos"][0]["content"];
  CHECK(content.size() == 3987 + std::string("\xE2\x80\xA6 [truncated]").size());
  CHECK(content.rfind("\xE2\x80\xA6 [truncated]") == 3987);
}

TEST_CASE("todos sent as JSON text are parsed; anything but a list is an error") {
  ToolHarness h;
  Json r = h.call_json(todo(), {{"todos", R"([{"id":"1","content":"a","status":"pending"}])"}});
  CHECK(r["todos"].size() == 1);
  auto bad = h.call(todo(), {{"todos", "{not json"}});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message() == "todos must be a list of objects, got unparseable string");
  auto object = h.call(todo(), {{"todos", {{"id", "1"}}}});
  REQUIRE_FALSE(object.ok());
  CHECK(object.status().message() == "todos must be a list, got object");
  CHECK_FALSE(h.call(todo(), {{"todos", Json::array()}, {"merge", "maybe"}}).ok());
}

TEST_CASE("dangling and cyclic parents are dropped") {
  ToolHarness h;
  Json r = h.call_json(
      todo(), {{"todos",
                {{{"id", "a"}, {"content", "x"}, {"status", "pending"}, {"parent", "b"}},
                 {{"id", "b"}, {"content", "y"}, {"status", "pending"}, {"parent", "a"}},
                 {{"id", "c"}, {"content", "z"}, {"status", "pending"}, {"parent", "nope"}}}}});
  for (const Json& i : r["todos"]) {
    if (i["id"] == "c") CHECK_FALSE(i.contains("parent"));
  }
  int with_parent = 0;
  for (const Json& i : r["todos"]) with_parent += i.contains("parent") ? 1 : 0;
  CHECK(with_parent == 1);  // The a<->b cycle is broken once.
}

TEST_CASE("the compression snapshot shows active items and the parents of active subtasks") {
  ToolHarness h;
  CHECK_FALSE(render_todo_snapshot(h.state).has_value());
  h.call_json(todo(),
              {{"todos",
                {item("1", "design", "completed"),
                 item("2", "implement", "completed"),
                 {{"id", "2a"}, {"content", "parser"}, {"status", "in_progress"}, {"parent", "2"}},
                 {{"id", "2b"}, {"content", "docs"}, {"status", "cancelled"}, {"parent", "2"}},
                 item("3", "release", "pending")}}});
  auto snapshot = render_todo_snapshot(h.state);
  REQUIRE(snapshot.has_value());
  CHECK(*snapshot ==
        "[Your active task list was preserved across context compression]\n"
        "- [x] 2. implement (completed)\n"
        "  - [>] 2a. parser (in_progress)\n"
        "- [ ] 3. release (pending)");
}

TEST_CASE("without per-agent state the tool reports an error instead of crashing") {
  ToolHarness h;
  h.ctx.state = nullptr;
  CHECK_FALSE(h.call(todo(), Json::object()).ok());
}
