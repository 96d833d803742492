#include "usage_tally.hpp"

#include <cstdio>

namespace hermes_cli {
namespace {

std::string row(const char* label, int64_t value) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "  %-20s %lld", label, static_cast<long long>(value));
  return buf;
}

}  // namespace

void UsageTally::add(const hermes::ConversationResult& result) {
  ++turns;
  api_calls += result.api_calls;
  if (result.usage.reported) {
    usage += result.usage;
    usage.reported = true;
  } else if (result.api_calls > 0) {
    usage_unreported = true;
  }
  if (result.estimated_cost_usd > 0) {
    cost_usd += result.estimated_cost_usd;
    cost_known = true;
  }
  if (result.last_prompt_tokens > 0) last_prompt_tokens = result.last_prompt_tokens;
}

std::vector<std::string> UsageTally::describe(const std::string& model) const {
  std::vector<std::string> lines;
  lines.push_back("Usage of this session (" + std::to_string(turns) + " turns, " +
                  std::to_string(api_calls) + " model calls, model " + model + "):");
  lines.push_back(row("input tokens", usage.input_tokens));
  lines.push_back(row("  cache read", usage.cache_read_tokens));
  lines.push_back(row("  cache write", usage.cache_write_tokens));
  lines.push_back(row("output tokens", usage.output_tokens));
  lines.push_back(row("  reasoning", usage.reasoning_tokens));
  lines.push_back(row("total tokens", usage.total_tokens()));
  if (last_prompt_tokens > 0) lines.push_back(row("context (last call)", last_prompt_tokens));
  char cost[96];
  if (cost_known) {
    std::snprintf(cost, sizeof cost, "  %-20s $%.4f (estimated)", "cost", cost_usd);
  } else {
    std::snprintf(cost, sizeof cost, "  %-20s unknown (no price known for this model)", "cost");
  }
  lines.emplace_back(cost);
  if (usage_unreported)
    lines.emplace_back("  (some calls reported no usage; the totals are a lower bound)");
  return lines;
}

}  // namespace hermes_cli
