#include "tools/result_budget.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <mutex>
#include <set>

#include "common/atomic_file.hpp"
#include "common/fnv1a.hpp"
#include "common/number_format.hpp"
#include "common/utf8.hpp"
#include "safety/log.hpp"
#include "tools/tool_args.hpp"

namespace fs = std::filesystem;

namespace hermes::internal {
namespace {

constexpr const char* kOpenTag = "<persisted-output>";
constexpr const char* kCloseTag = "</persisted-output>";
constexpr std::size_t kMcpThreshold = 50000;
constexpr auto kSpillMaxAge = std::chrono::hours(24);

std::string size_text(std::size_t bytes) {
  char buf[32];
  const double kb = static_cast<double>(bytes) / 1024.0;
  if (kb >= 1024.0) {
    std::snprintf(buf, sizeof buf, "%.1f MB", kb / 1024.0);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f KB", kb);
  }
  return buf;
}

// The start of `content`, cut at the last newline when that keeps at least half.
std::string preview_of(const std::string& content, std::size_t max_chars, bool& more) {
  more = utf8_length(content) > max_chars;
  if (!more) return content;
  const std::string_view head = utf8_head(content, max_chars);
  const std::size_t newline = head.rfind('\n');
  if (newline != std::string_view::npos && newline > head.size() / 2)
    return std::string(head.substr(0, newline + 1));
  return std::string(head);
}

std::string spill_file_name(const std::string& id) {
  std::string stem;
  for (char c : id)
    stem +=
        (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-') ? c : '_';
  stem.erase(0, stem.find_first_not_of("._-"));
  if (stem.empty()) stem = "tool_result";
  if (stem != id || stem.size() > 120) {
    char hash[16];
    std::snprintf(hash, sizeof hash, "%012llx",
                  static_cast<unsigned long long>(fnv1a64(id) & 0xFFFFFFFFFFFFull));
    stem = stem.substr(0, 120) + "_" + hash;
  }
  return stem + ".txt";
}

// Once per home and process: spill files older than a day are removed.
void prune_spillover(const std::string& dir) {
  static std::mutex mu;
  static std::set<std::string> done;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!done.insert(dir).second) return;
  }
  std::error_code ec;
  const auto cutoff = fs::file_time_type::clock::now() - kSpillMaxAge;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.is_regular_file(ec) && entry.last_write_time(ec) < cutoff)
      fs::remove(entry.path(), ec);
  }
}

}  // namespace

ResultBudget ResultBudget::for_context(int64_t context_tokens, double chars_per_token) {
  ResultBudget b;
  if (context_tokens <= 0) return b;
  const double chars = static_cast<double>(context_tokens) * chars_per_token;
  b.per_result_chars =
      std::clamp<std::size_t>(static_cast<std::size_t>(chars * 0.15), 8000, b.per_result_chars);
  b.per_turn_chars =
      std::clamp<std::size_t>(static_cast<std::size_t>(chars * 0.30), 16000, b.per_turn_chars);
  return b;
}

std::size_t result_threshold(const ResultBudget& budget, const std::string& tool_name,
                             std::size_t tool_max_chars) {
  if (tool_name == "read_file") return std::numeric_limits<std::size_t>::max();
  std::size_t t = budget.per_result_chars;
  if (tool_name.starts_with("mcp_")) t = std::min(t, kMcpThreshold);
  if (tool_max_chars > 0) t = std::min(t, tool_max_chars);
  return t;
}

std::string apply_result_budget(const std::string& content, const std::string& tool_call_id,
                                const std::string& home, std::size_t threshold,
                                std::size_t preview_chars) {
  const std::size_t chars = utf8_length(content);
  if (chars <= threshold) return content;
  bool more = false;
  const std::string preview = preview_of(content, preview_chars, more);
  const std::string dir = home + "/cache/spillover";
  const std::string path = dir + "/" + spill_file_name(tool_call_id);
  Status written =
      home.empty() ? Status::failed_precondition("no home") : write_file_atomically(path, content);
  if (!written.ok()) {
    HERMES_LOG_WARN("could not save a large tool result to {}: {}", path, written.message());
    return preview + "\n\n[Truncated: the tool result was " + with_thousands(chars) +
           " characters and could not be saved to a file.]";
  }
  prune_spillover(dir);
  return std::string(kOpenTag) + "\nThis tool result was too large (" + with_thousands(chars) +
         " characters, " + size_text(content.size()) + ").\nFull output saved to: " + path +
         "\nRead it with read_file, using offset and limit to page through it. Do not request the "
         "same data "
         "again: all of it is in that file.\n\nPreview (first " +
         std::to_string(utf8_length(preview)) + " chars):\n" + preview + (more ? "\n..." : "") +
         "\n" + kCloseTag;
}

void enforce_turn_budget(std::vector<BatchResult>& results, const std::string& home,
                         const ResultBudget& budget) {
  auto total = [&] {
    std::size_t sum = 0;
    for (const BatchResult& r : results) sum += utf8_length(*r.content);
    return sum;
  };
  std::vector<BatchResult*> order;
  for (BatchResult& r : results) order.push_back(&r);
  std::sort(order.begin(), order.end(), [](const BatchResult* a, const BatchResult* b) {
    return a->content->size() > b->content->size();
  });
  for (BatchResult* r : order) {
    if (total() <= budget.per_turn_chars) return;
    if (r->tool_name == "read_file" || r->content->rfind(kOpenTag, 0) == 0) continue;
    *r->content = apply_result_budget(*r->content, r->tool_call_id, home, 0, budget.preview_chars);
  }
}

}  // namespace hermes::internal
