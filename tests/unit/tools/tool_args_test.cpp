#include <doctest/doctest.h>

#include "tools/tool_args.hpp"

using hermes::Json;
using namespace hermes::internal;

TEST_CASE("a string argument of another type is named with its type, a missing one is not") {
  const Json args = {{"name", "deploy"}, {"category", 3}, {"content", nullptr}};
  CHECK(check_string_args(args, {"name", "content", "absent"}).ok());
  hermes::Status s = check_string_args(args, {"name", "category"});
  CHECK_FALSE(s.ok());
  CHECK(s.message() == "Argument 'category' must be a string, got integer.");
  CHECK(check_string_args(Json::array({1, 2}), {"name"}).ok());
}

TEST_CASE("a required string argument is missing, mistyped or given") {
  CHECK(arg_string({{"path", "a.txt"}}, "path").value() == "a.txt");
  CHECK(arg_string(Json::object(), "path").status().message() ==
        "Missing required argument 'path'.");
  CHECK(arg_string({{"path", Json::array()}}, "path").status().message() ==
        "Argument 'path' must be a string, got array.");
}
