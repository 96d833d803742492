#include "context/context_file_text.hpp"

#include <algorithm>
#include <condition_variable>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <system_error>
#include <thread>

#include "common/text_utils.hpp"
#include "common/utf8.hpp"
#include "context/message_budget.hpp"
#include "context/text_cut.hpp"
#include "safety/log.hpp"
#include "safety/threat_scan.hpp"

namespace hermes::internal {
namespace {

constexpr std::size_t kMinCapChars = 20'000;
constexpr std::size_t kMaxCapChars = 500'000;
constexpr double kWindowShare = 0.06;
constexpr double kHeadShare = 0.7;
constexpr double kTailShare = 0.2;
constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

void report(const ContextFileNotice& notice, const std::string& text) {
  HERMES_LOG_WARN("{}", text);
  if (notice) notice(text);
}

std::optional<std::string> slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return std::move(text).str();
}

// The read runs on its own thread so the caller can stop waiting; an abandoned reader
// finishes on its own and drops the shared state.
std::optional<std::string> slurp_within(const std::filesystem::path& path,
                                        std::chrono::milliseconds timeout,
                                        const ContextFileNotice& notice) {
  struct Shared {
    std::mutex mu;
    std::condition_variable done_cv;
    bool done = false;
    std::optional<std::string> text;
  };
  auto shared = std::make_shared<Shared>();
  try {
    std::thread([shared, path] {
      std::optional<std::string> text = slurp(path);
      std::lock_guard lock(shared->mu);
      shared->text = std::move(text);
      shared->done = true;
      shared->done_cv.notify_one();
    }).detach();
  } catch (const std::system_error&) {
    return slurp(path);  // No thread to spare: read without a deadline.
  }
  std::unique_lock lock(shared->mu);
  if (!shared->done_cv.wait_for(lock, timeout, [&] { return shared->done; })) {
    report(notice, fmt::format("Context file {} took longer than {} ms to read; skipped.",
                               path.string(), timeout.count()));
    return std::nullopt;
  }
  return std::move(shared->text);
}

}  // namespace

std::string read_context_file(const std::filesystem::path& path, std::chrono::milliseconds timeout,
                              const ContextFileNotice& notice) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return "";
  std::optional<std::string> text = slurp_within(path, timeout, notice);
  if (!text) return "";
  std::string_view body = *text;
  if (starts_with(body, kByteOrderMark)) body.remove_prefix(kByteOrderMark.size());
  if (!is_valid_utf8(body)) {
    report(notice, fmt::format("Context file {} is not valid UTF-8; skipped.", path.string()));
    return "";
  }
  return strip(body);
}

std::size_t context_file_char_cap(int64_t context_length) {
  if (context_length <= 0) return kMinCapChars;
  const double budget =
      static_cast<double>(context_length) * static_cast<double>(kCharsPerToken) * kWindowShare;
  if (budget >= static_cast<double>(kMaxCapChars)) return kMaxCapChars;
  return std::max(kMinCapChars, static_cast<std::size_t>(budget));
}

std::string truncate_context_file(std::string_view content, std::string_view name, std::size_t cap,
                                  std::string_view read_path, const ContextFileNotice& notice) {
  const std::size_t total = utf8_length(content);
  if (total <= cap) return std::string(content);
  const auto head = static_cast<std::size_t>(static_cast<double>(cap) * kHeadShare);
  const auto tail = static_cast<std::size_t>(static_cast<double>(cap) * kTailShare);
  report(notice, fmt::format("Context file {} truncated: {} characters exceed the limit of {}; "
                             "trim the file or use a model with a larger context window.",
                             name, total, cap));
  std::string out(utf8_head(content, head));
  out += fmt::format(
      "\n\n[...truncated {}: kept {}+{} of {} chars. The middle is left out; to see all of "
      "it, read the file with the read_file tool: {}]\n\n",
      name, head, tail, total, read_path);
  out += utf8_tail(content, tail);
  return out;
}

std::string screen_context_file(std::string_view content, std::string_view name,
                                const ContextFileNotice& notice) {
  const std::vector<std::string> findings = scan_for_threats(content, ThreatScope::kContext);
  if (findings.empty()) return std::string(content);
  std::string list;
  for (const std::string& finding : findings) list += (list.empty() ? "" : ", ") + finding;
  report(notice, fmt::format("Context file {} blocked: it looks like a prompt injection ({}).",
                             name, list));
  return fmt::format("[BLOCKED: {} contained potential prompt injection ({}). Content not loaded.]",
                     name, list);
}

}  // namespace hermes::internal
