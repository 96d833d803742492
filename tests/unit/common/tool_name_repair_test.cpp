// Repairing the tool names and finish reasons models send.
#include <doctest/doctest.h>

#include "hermes/message_utils.hpp"

using namespace hermes;

namespace {
const std::vector<std::string> kTools = {"todo_list", "read_file", "process_manage", "memory",
                                         "web_search"};
}

TEST_CASE("an exact tool name is kept") {
  CHECK(coerce_tool_name("read_file", kTools) == "read_file");
}

TEST_CASE("legacy names of renamed tools reach the new tool") {
  CHECK(coerce_tool_name("todo", kTools) == "todo_list");
  CHECK(coerce_tool_name("Todo", kTools) == "todo_list");
  CHECK(coerce_tool_name("process", kTools) == "process_manage");
}

TEST_CASE("a legacy name is not invented when the new tool is not offered") {
  CHECK_FALSE(coerce_tool_name("cronjob", kTools).has_value());
}

TEST_CASE("case, separators, CamelCase and a tool suffix are normalised") {
  CHECK(coerce_tool_name("READ_FILE", kTools) == "read_file");
  CHECK(coerce_tool_name("read-file", kTools) == "read_file");
  CHECK(coerce_tool_name("ReadFile", kTools) == "read_file");
  CHECK(coerce_tool_name("web_search_tool", kTools) == "web_search");
}

TEST_CASE("a near miss maps to the closest tool and a far one to nothing") {
  CHECK(coerce_tool_name("read_fil", kTools) == "read_file");
  CHECK_FALSE(coerce_tool_name("launch_rocket", kTools).has_value());
  CHECK_FALSE(coerce_tool_name("", kTools).has_value());
}

TEST_CASE("finish reasons of every wire format map onto the canonical ones") {
  CHECK(normalize_finish_reason("end_turn") == "stop");
  CHECK(normalize_finish_reason("") == "stop");
  CHECK(normalize_finish_reason("max_tokens") == "length");
  CHECK(normalize_finish_reason("tool_use") == "tool_calls");
  CHECK(normalize_finish_reason("refusal") == "content_filter");
  CHECK(normalize_finish_reason("SOMETHING_NEW") == "something_new");
}
