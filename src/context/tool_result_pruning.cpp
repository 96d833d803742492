#include "context/tool_result_pruning.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "common/json_text.hpp"
#include "common/utf8.hpp"
#include "context/message_budget.hpp"
#include "context/message_parts.hpp"
#include "context/text_cut.hpp"
#include "context/tool_result_summary.hpp"
#include "hermes/json.hpp"

namespace hermes::internal {
namespace {

constexpr std::size_t kDedupMinChars = 200;
constexpr std::size_t kArgumentsMaxChars = 500;

using OrderedJson = nlohmann::ordered_json;

struct CallInfo {
  std::string_view name;
  std::string_view arguments;
};

std::unordered_map<std::string_view, CallInfo> index_calls(const std::vector<Message>& messages) {
  std::unordered_map<std::string_view, CallInfo> calls;
  for (const auto& m : messages) {
    if (m.role != Role::kAssistant) continue;
    for (const auto& call : m.tool_calls) calls[call.id] = CallInfo{call.name, call.arguments};
  }
  return calls;
}

// The index of the first message of the protected tail.
std::size_t protected_tail_start(const std::vector<Message>& messages, const PruneSettings& s) {
  const std::size_t n = messages.size();
  const auto wanted = static_cast<std::size_t>(std::max(s.protect_tail_count, 0));
  if (!s.protect_tail_tokens || *s.protect_tail_tokens <= 0) return n - std::min(wanted, n);
  const std::size_t floor = std::min({wanted, n, kTailMessageFloorCap});
  int64_t used = 0;
  std::size_t start = n;
  while (start > 0) {
    const int64_t cost = estimate_message_budget_tokens(messages[start - 1]);
    if (used + cost > *s.protect_tail_tokens) break;
    used += cost;
    --start;
  }
  return std::min(start, n - floor);
}

// Replaces older copies of identical results with a back-reference.
int deduplicate(std::vector<Message>& messages) {
  int replaced = 0;
  // Views of the newer copies, which are never modified here.
  std::unordered_set<std::string_view> seen;
  for (std::size_t i = messages.size(); i-- > 0;) {
    Message& m = messages[i];
    if (m.role != Role::kTool || m.parts.is_array()) continue;
    if (utf8_length(m.content) < kDedupMinChars) continue;
    if (seen.insert(m.content).second) continue;
    m.content = std::string(kDuplicateToolOutput);
    ++replaced;
  }
  return replaced;
}

// True for a result an earlier pass already reduced to a line.
bool already_pruned(std::string_view content) {
  if (content == kPrunedToolPlaceholder || starts_with(content, "[Duplicate tool output") ||
      starts_with(content, "[screenshot removed")) {
    return true;
  }
  return starts_with(content, "[") && content.find(" chars)") != std::string_view::npos &&
         utf8_length(content) < 400;
}

bool demote(Message& m, const std::unordered_map<std::string_view, CallInfo>& calls,
            int64_t min_chars) {
  if (m.role != Role::kTool || m.parts.is_array()) return false;
  if (m.content.empty() || already_pruned(m.content)) return false;
  if (static_cast<int64_t>(utf8_length(m.content)) <= min_chars) return false;
  std::string_view name = m.name.empty() ? std::string_view("unknown") : std::string_view(m.name);
  std::string_view arguments;
  if (auto it = calls.find(m.tool_call_id); it != calls.end()) {
    name = it->second.name;
    arguments = it->second.arguments;
  }
  m.content = summarize_tool_result(name, arguments, m.content);
  return true;
}

bool shrink_arguments(Message& m) {
  if (m.role != Role::kAssistant) return false;
  bool changed = false;
  for (auto& call : m.tool_calls) {
    if (utf8_length(call.arguments) <= kArgumentsMaxChars) continue;
    std::string shrunk = shrink_tool_call_arguments(call.arguments);
    if (shrunk == call.arguments) continue;
    call.arguments = std::move(shrunk);
    changed = true;
  }
  return changed;
}

// The newest tool result that carries an image; it keeps its image.
std::optional<std::size_t> newest_image_result(const std::vector<Message>& messages) {
  for (std::size_t i = messages.size(); i-- > 0;) {
    if (messages[i].role == Role::kTool && has_image_parts(messages[i])) return i;
  }
  return std::nullopt;
}

void shrink_strings(OrderedJson& value, std::size_t max_chars, bool& changed) {
  if (value.is_string()) {
    const auto& text = value.get_ref<const std::string&>();
    if (utf8_length(text) <= max_chars) return;
    value = std::string(utf8_head(text, max_chars)) + "...[truncated]";
    changed = true;
  } else if (value.is_structured()) {
    for (auto& child : value) shrink_strings(child, max_chars, changed);
  }
}

}  // namespace

std::string shrink_tool_call_arguments(std::string_view arguments, std::size_t max_string_chars) {
  if (json_nesting_exceeds(arguments)) return std::string(arguments);
  OrderedJson parsed = OrderedJson::parse(arguments, nullptr, false);
  if (parsed.is_discarded()) return std::string(arguments);
  bool changed = false;
  shrink_strings(parsed, max_string_chars, changed);
  if (!changed) return std::string(arguments);
  return parsed.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

PruneResult prune_old_tool_results(const std::vector<Message>& messages,
                                   const PruneSettings& settings) {
  PruneResult out{messages, 0};
  if (out.messages.empty()) return out;
  const auto calls = index_calls(messages);  // Views into `messages`, which stays unchanged.
  const std::size_t boundary = protected_tail_start(out.messages, settings);
  const auto keep_image = newest_image_result(out.messages);

  out.pruned += deduplicate(out.messages);
  const int64_t min_chars = std::max<int64_t>(settings.min_prune_chars, 0);
  for (std::size_t i = 0; i < boundary; ++i) {
    Message& m = out.messages[i];
    if (m.role == Role::kTool && i != keep_image && replace_image_parts(m, kScreenshotRemoved)) {
      ++out.pruned;
      continue;
    }
    if (demote(m, calls, min_chars)) ++out.pruned;
    if (shrink_arguments(m)) ++out.pruned;
  }
  return out;
}

}  // namespace hermes::internal
