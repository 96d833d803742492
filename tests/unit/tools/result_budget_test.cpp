// Oversized tool results spill to <home>/cache/spillover with a preview in their place.
#include "tools/result_budget.hpp"

#include <doctest/doctest.h>

#include <filesystem>

#include "common/atomic_file.hpp"
#include "tools/builtin_toolsets.hpp"
#include "unit/tools/tool_harness.hpp"

using namespace hermes;
using namespace hermes::internal;
using hermes::testing::TempDir;

namespace {

std::string lines(std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i)
    out += "row " + std::to_string(i) + " of a long listing\n";
  return out;
}

}  // namespace

TEST_CASE("results within the threshold are returned unchanged") {
  TempDir home;
  CHECK(apply_result_budget("small", "call_1", home.path(), 100, 10) == "small");
}

TEST_CASE("an oversized result is saved whole and replaced by a preview and its path") {
  TempDir home;
  const std::string big = lines(6000);
  REQUIRE(big.size() > 100000);
  const std::string out = apply_result_budget(big, "call_1", home.path(), 100000, 1500);
  const std::string path = home.path() + "/cache/spillover/call_1.txt";
  CHECK(out.rfind("<persisted-output>\n", 0) == 0);
  CHECK(testing::has_text(out, "Full output saved to: " + path + "\n"));
  CHECK(testing::has_text(out, "Preview (first "));
  CHECK(out.size() < 2500);
  CHECK(out.substr(out.size() - 19) == "</persisted-output>");
  CHECK(*read_whole_file(path) == big);
}

TEST_CASE("tool call ids become safe file names inside the spill directory") {
  TempDir home;
  const std::string out =
      apply_result_budget(std::string(200, 'x'), "../../etc/evil id", home.path(), 10, 5);
  const auto start = out.find("Full output saved to: ") + 22;
  const std::string path = out.substr(start, out.find('\n', start) - start);
  CHECK(std::filesystem::path(path).parent_path() ==
        std::filesystem::path(home.path() + "/cache/spillover"));
  CHECK(std::filesystem::exists(path));
}

TEST_CASE("thresholds: read_file is exempt, MCP tools and per-tool limits are lower") {
  const ResultBudget b;
  CHECK(result_threshold(b, "read_file", 0) > 1000000000);
  CHECK(result_threshold(b, "terminal", 0) == 100000);
  CHECK(result_threshold(b, "mcp_github_search", 0) == 50000);
  CHECK(result_threshold(b, "terminal", 30000) == 30000);
  CHECK(result_threshold(b, "terminal", 500000) == 100000);
}

TEST_CASE("small context windows scale the budget down, with floors") {
  const ResultBudget small = ResultBudget::for_context(32000);
  CHECK(small.per_result_chars == 19200);
  CHECK(small.per_turn_chars == 38400);
  const ResultBudget tiny = ResultBudget::for_context(4000);
  CHECK(tiny.per_result_chars == 8000);
  CHECK(tiny.per_turn_chars == 16000);
  CHECK(ResultBudget::for_context(1000000).per_result_chars == 100000);
}

TEST_CASE("a batch over the per-turn budget spills its largest results first") {
  TempDir home;
  std::string a(90000, 'a'), b(95000, 'b'), c(20000, 'c');
  std::vector<BatchResult> batch = {
      {&a, "terminal", "call_a"}, {&b, "terminal", "call_b"}, {&c, "terminal", "call_c"}};
  enforce_turn_budget(batch, home.path(), ResultBudget{});
  CHECK(b.rfind("<persisted-output>", 0) == 0);
  CHECK(a == std::string(90000, 'a'));  // 90,000 + 20,000 + the preview fit.
  CHECK(c == std::string(20000, 'c'));
}

TEST_CASE("read_file can page through a spilled result outside its roots") {
  hermes::testing::ToolHarness h;
  TempDir workspace;
  const std::string out = apply_result_budget(lines(6000), "call_9", h.home.path(), 100000, 1500);
  FileToolOptions options;
  options.root = workspace.path();
  auto tools = file_tools(options, ApprovalOptions{});
  Json page = h.call_json(
      hermes::testing::spec_named(tools, "read_file"),
      {{"path", h.home.path() + "/cache/spillover/call_9.txt"}, {"offset", 10}, {"limit", 1}});
  CHECK(page["content"] == "10|row 9 of a long listing\n");
  auto elsewhere = h.call(hermes::testing::spec_named(tools, "read_file"),
                          {{"path", h.home.path() + "/memories/MEMORY.md"}});
  CHECK(elsewhere.status().code() == StatusCode::kPermissionDenied);
}
