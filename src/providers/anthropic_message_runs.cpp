#include "providers/anthropic_message_runs.hpp"

#include <algorithm>
#include <string_view>

#include "common/fnv1a.hpp"
#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "hermes/message_utils.hpp"
#include "providers/anthropic_blocks.hpp"

namespace hermes::internal {
namespace {

// Continues `hash` with a number: one multiply, as FNV-1a does per byte.
uint64_t hash_number(uint64_t value, uint64_t hash) {
  hash = (hash ^ value) * 1099511628211ull;
  return hash ^ (hash >> 29);
}

bool same_id(std::string_view a, std::string_view b) {
  return anthropic::compare_sanitized_tool_ids(a, b) == 0;
}

bool has_id(const std::vector<std::string_view>& ids, std::string_view id) {
  return std::any_of(ids.begin(), ids.end(),
                     [&](std::string_view other) { return same_id(id, other); });
}

// The runs, alternating sides.
std::vector<AnthropicRun> runs_of(const std::vector<Message>& messages,
                                  const std::vector<std::size_t>& others) {
  std::vector<AnthropicRun> runs;
  for (std::size_t k = 0; k < others.size(); ++k) {
    const bool assistant = messages[others[k]].role == Role::kAssistant;
    if (runs.empty() || runs.back().assistant != assistant) {
      AnthropicRun run;
      run.assistant = assistant;
      run.from = k;
      run.first = others[k];
      runs.push_back(std::move(run));
    }
    runs.back().to = k + 1;
    runs.back().last = others[k];
  }
  return runs;
}

// The tool results that open a user run share its first converted message: the calls of
// the assistant message before them are answered there or not at all.
void opening_result_ids(const std::vector<Message>& messages, const AnthropicRunPlan& plan,
                        const AnthropicRun& run, std::vector<std::string_view>& ids) {
  for (std::size_t k = run.from; k < run.to; ++k) {
    const Message& message = messages[plan.sources.others[k]];
    if (message.role != Role::kTool) break;
    ids.push_back(message.tool_call_id);
  }
}

// Marks which calls survive: an assistant run's last message keeps the calls the next
// run answers (its earlier messages are followed by assistant messages, never answered).
// Returns the kept calls; `kept_from[r]` is where run r's calls begin among them.
std::vector<std::string_view> keep_answered_calls(const std::vector<Message>& messages,
                                                  AnthropicRunPlan& plan,
                                                  std::vector<std::size_t>& kept_from) {
  std::vector<std::string_view> kept;
  std::vector<std::string_view> answered;
  std::vector<std::string_view> uses;
  kept_from.assign(plan.runs.size() + 1, 0);
  for (std::size_t r = 0; r < plan.runs.size(); ++r) {
    kept_from[r] = kept.size();
    AnthropicRun& run = plan.runs[r];
    if (!run.assistant) continue;
    answered.clear();
    if (r + 1 < plan.runs.size()) opening_result_ids(messages, plan, plan.runs[r + 1], answered);
    uses.clear();
    anthropic_tool_use_ids(messages[run.last], uses);
    for (std::string_view id : uses) (has_id(answered, id) ? kept : run.dropped_ids).push_back(id);
  }
  kept_from[plan.runs.size()] = kept.size();
  return kept;
}

// Drops the results no kept call asks for. A result usually answers the run just before
// its own; the others are looked up among all the kept calls, sorted when first needed.
void drop_unasked_results(const std::vector<Message>& messages, AnthropicRunPlan& plan,
                          const std::vector<std::string_view>& kept,
                          const std::vector<std::size_t>& kept_from) {
  auto before = [](std::string_view a, std::string_view b) {
    return anthropic::compare_sanitized_tool_ids(a, b) < 0;
  };
  std::vector<std::string_view> sorted;
  for (std::size_t r = 0; r < plan.runs.size(); ++r) {
    AnthropicRun& run = plan.runs[r];
    if (run.assistant) continue;
    const auto near_begin =
        kept.begin() + static_cast<std::ptrdiff_t>(r > 0 ? kept_from[r - 1] : 0);
    const auto near_end = kept.begin() + static_cast<std::ptrdiff_t>(r > 0 ? kept_from[r] : 0);
    for (std::size_t k = run.from; k < run.to; ++k) {
      const Message& message = messages[plan.sources.others[k]];
      if (message.role != Role::kTool) continue;
      const std::string_view id = message.tool_call_id;
      if (std::any_of(near_begin, near_end, [&](std::string_view c) { return same_id(id, c); })) {
        continue;
      }
      if (sorted.empty() && !kept.empty()) {
        sorted = kept;
        std::sort(sorted.begin(), sorted.end(), before);
      }
      if (!std::binary_search(sorted.begin(), sorted.end(), id, before)) {
        run.dropped_ids.push_back(id);
      }
    }
  }
}

}  // namespace

AnthropicSources anthropic_sources(const std::vector<Message>& messages,
                                   const AnthropicDialect& dialect) {
  AnthropicSources out;
  out.marked.assign(messages.size(), false);
  for (std::size_t i = 0; i < messages.size(); ++i) {
    // A thinking prefill cannot be sent: the Messages API refuses an assistant prefill
    // while thinking is on, and without thinking it would be only placeholder words.
    if (messages[i].role == Role::kAssistant && is_thinking_only_assistant(messages[i])) continue;
    if (messages[i].role != Role::kSystem) {
      out.others.push_back(i);
    } else if (!trim_ascii(messages[i].wire_text()).empty()) {
      out.has_system = true;
    }
  }
  if (dialect.prompt_caching) {
    const std::size_t budget = kMaxCacheBreakpoints - (out.has_system ? 1 : 0);
    const std::size_t n = out.others.size();
    for (std::size_t k = n > budget ? n - budget : 0; k < n; ++k) out.marked[out.others[k]] = true;
  }
  return out;
}

void anthropic_tool_use_ids(const Message& message, std::vector<std::string_view>& ids) {
  if (!anthropic::replays_stored_blocks(message.anthropic_content_blocks)) {
    for (const ToolCall& call : message.tool_calls) ids.push_back(call.id);
    return;
  }
  static const std::string kNone;
  for (const Json& block : message.anthropic_content_blocks) {
    if (string_member(block, "type") != "tool_use") continue;
    auto id = block.find("id");
    ids.push_back(id != block.end() && id->is_string() ? id->get_ref<const std::string&>() : kNone);
  }
}

AnthropicRunPlan plan_anthropic_runs(const std::vector<Message>& messages,
                                     const AnthropicDialect& dialect) {
  AnthropicRunPlan plan;
  plan.sources = anthropic_sources(messages, dialect);
  plan.runs = runs_of(messages, plan.sources.others);
  for (auto it = plan.runs.rbegin(); it != plan.runs.rend(); ++it) {
    if (it->assistant) {
      it->last_assistant = true;
      break;
    }
  }
  std::vector<std::size_t> kept_from;
  const std::vector<std::string_view> kept = keep_answered_calls(messages, plan, kept_from);
  drop_unasked_results(messages, plan, kept, kept_from);
  return plan;
}

std::set<std::string> anthropic_opening_result_ids(const std::vector<Message>& messages,
                                                   const AnthropicRunPlan& plan, std::size_t r) {
  std::set<std::string> out;
  if (r >= plan.runs.size()) return out;
  std::vector<std::string_view> ids;
  opening_result_ids(messages, plan, plan.runs[r], ids);
  for (std::string_view id : ids) out.insert(anthropic::sanitize_tool_id(id));
  return out;
}

std::set<std::string> anthropic_asked_result_ids(const std::vector<Message>& messages,
                                                 const AnthropicRunPlan& plan,
                                                 const AnthropicRun& run) {
  std::set<std::string> out;
  for (std::size_t k = run.from; k < run.to; ++k) {
    const Message& message = messages[plan.sources.others[k]];
    if (message.role == Role::kTool && !has_id(run.dropped_ids, message.tool_call_id)) {
      out.insert(anthropic::sanitize_tool_id(message.tool_call_id));
    }
  }
  return out;
}

uint64_t anthropic_run_shape(const AnthropicRunPlan& plan, const AnthropicRun& run, uint64_t seed) {
  uint64_t hash = hash_number(run.last - run.first, seed);
  hash = hash_number(run.to - run.from, hash);
  for (std::size_t k = run.from; k < run.to; ++k) {
    const std::size_t i = plan.sources.others[k];
    if (plan.sources.marked[i]) hash = hash_number(i - run.first + 1, hash);
  }
  // Given the run's messages, its tool ids decide only which of its own blocks go.
  hash = hash_number(run.dropped_ids.size(), hash);
  for (std::string_view id : run.dropped_ids) {
    const std::string sanitized = anthropic::sanitize_tool_id(id);
    hash = fnv1a64(sanitized, hash_number(sanitized.size(), hash));
  }
  return hash;
}

}  // namespace hermes::internal
