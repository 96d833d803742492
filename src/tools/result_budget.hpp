// Tool results too large for the context: the whole result goes to a file under
// <home>/cache/spillover and the model gets a preview and the path (spill, not truncation:
// nothing is lost, read_file pages through it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hermes::internal {

struct ResultBudget {
  std::size_t per_result_chars = 100000;
  std::size_t per_turn_chars = 200000;
  std::size_t preview_chars = 1500;

  // The defaults, scaled down for a small context window: at most 15% (one result) and
  // 30% (one turn) of it, never below 8,000 and 16,000 characters.
  static ResultBudget for_context(int64_t context_tokens, double chars_per_token = 4.0);
};

// The threshold for one result of `tool_name`: unlimited for read_file (spilling its
// result would only lead to reading the spill file), 50,000 for MCP tools (mcp_ prefix),
// the tool's own max_result_chars when set, never more than the per-result default.
std::size_t result_threshold(const ResultBudget& budget, const std::string& tool_name,
                             std::size_t tool_max_chars);

// `content` unchanged when it fits `threshold` characters; otherwise the spilled form.
// When the file cannot be written, the preview alone with a note (bounded either way).
std::string apply_result_budget(const std::string& content, const std::string& tool_call_id,
                                const std::string& home, std::size_t threshold,
                                std::size_t preview_chars);

// One result of a finished batch, for the per-turn check.
struct BatchResult {
  std::string* content;
  std::string tool_name;
  std::string tool_call_id;
};

// Spills the largest results of the batch until the batch fits the per-turn budget.
void enforce_turn_budget(std::vector<BatchResult>& results, const std::string& home,
                         const ResultBudget& budget);

}  // namespace hermes::internal
