// The frozen memory block of the system prompt.
#include <algorithm>

#include "common/atomic_file.hpp"
#include "common/number_format.hpp"
#include "common/utf8.hpp"
#include "hermes/memory.hpp"
#include "memory/memory_store.hpp"
#include "tools/tool_args.hpp"

namespace hermes::internal {
namespace {

std::string repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

std::string_view utf8_tail(std::string_view text, std::size_t n) {
  const std::size_t total = utf8_length(text);
  if (n >= total) return text;
  const std::string_view head = utf8_head(text, total - n);
  return text.substr(head.size());
}

std::string render_block(MemoryTarget target, const std::vector<std::string>& entries,
                         std::size_t limit) {
  if (entries.empty()) return "";
  std::string content = join_memory_entries(entries);
  const std::size_t current = utf8_length(content);
  // Writers other than the tool (hand edits, scripts) can grow a file without bound; the
  // prompt gets at most twice the budget, head and tail.
  const std::size_t cap = std::max<std::size_t>(2 * limit, 4000);
  if (current > cap) {
    const auto head = static_cast<std::size_t>(static_cast<double>(cap) * 0.7);
    const auto tail = static_cast<std::size_t>(static_cast<double>(cap) * 0.2);
    content = std::string(utf8_head(content, head)) + "\n\n[... " +
              with_thousands(current - head - tail) +
              " chars truncated \xE2\x80\x94 memory over budget (" + with_thousands(current) + "/" +
              with_thousands(limit) + "); consolidate via memory(action=remove/replace) ...]\n\n" +
              std::string(utf8_tail(content, tail));
  }
  const std::string over = current > limit ? " \xE2\x9A\xA0 OVER BUDGET" : "";
  const std::string usage = "[" + std::to_string(usage_percent(current, limit)) +
                            "% \xE2\x80\x94 " + with_thousands(current) + "/" +
                            with_thousands(limit) + " chars" + over + "]";
  const std::string header = target == MemoryTarget::kUser
                                 ? "USER PROFILE (who the user is) " + usage
                                 : "MEMORY (your personal notes) " + usage;
  const std::string rule = repeat("\xE2\x95\x90", 46);  // U+2550
  return rule + "\n" + header + "\n" + rule + "\n" + content;
}

std::string snapshot_of(const std::string& home, MemoryTarget target, std::size_t limit) {
  auto raw = read_whole_file(memory_file_path(home, target), 16u << 20);
  if (!raw.ok()) return "";
  const std::vector<std::string> entries = dedupe_memory_entries(parse_memory_entries(*raw));
  return render_block(target, sanitize_memory_entries(entries, target), limit);
}

}  // namespace
}  // namespace hermes::internal

namespace hermes {

std::string render_memory_snapshot(const std::string& home, const MemoryLimits& limits) {
  using internal::MemoryTarget;
  std::string out = internal::snapshot_of(home, MemoryTarget::kMemory, limits.memory_chars);
  const std::string user = internal::snapshot_of(home, MemoryTarget::kUser, limits.user_chars);
  if (!out.empty() && !user.empty()) out += "\n\n";
  return out + user;
}

std::string_view memory_guidance() {
  return "You have persistent memory across sessions. Save durable facts with the memory tool as "
         "you "
         "learn them, without being asked: the user's preferences and corrections, details of "
         "their "
         "environment, tool quirks, stable conventions. Keep it compact. Do not save task "
         "progress, "
         "session outcomes, logs of completed work or temporary to-do state (session_search finds "
         "past "
         "conversations); save reusable procedures as skills instead. Write facts (\"User prefers "
         "concise "
         "answers\"), not instructions to yourself (\"Always answer concisely\"): instructions get "
         "re-read "
         "later as orders.";
}

}  // namespace hermes
