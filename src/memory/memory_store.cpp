#include "memory/memory_store.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <optional>

#include "common/atomic_file.hpp"
#include "common/number_format.hpp"
#include "common/private_files.hpp"
#include "common/text_utils.hpp"
#include "safety/threat_scan.hpp"
#include "tools/tool_args.hpp"

namespace hermes::internal {
namespace {

// An exclusive lock on a sibling <file>.lock, so the memory file itself can be replaced
// atomically while locked. Serialises writers across threads and processes.
class FileLock {
 public:
  explicit FileLock(const std::string& path)
      : fd_(::open((path + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, kPrivateFileMode)) {
    if (fd_ >= 0) {
      while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
      }
    }
  }
  ~FileLock() {
    if (fd_ >= 0) {
      ::flock(fd_, LOCK_UN);
      ::close(fd_);
    }
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
};

std::string read_or_empty(const std::string& path) {
  auto text = read_whole_file(path, 16u << 20);
  return text.ok() ? *text : "";
}

std::vector<std::string> previews(const std::vector<std::string>& entries) {
  std::vector<std::string> out;
  for (const std::string& e : entries) {
    out.push_back(utf8_length(e) > 80 ? std::string(utf8_head(e, 80)) + "..." : e);
  }
  return out;
}

// Indices of the entries containing `needle`, and whether they are all the same text.
struct Matches {
  std::vector<std::size_t> indices;
  bool distinct = false;
};

Matches find_matches(const std::vector<std::string>& entries, const std::string& needle) {
  Matches m;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].find(needle) != std::string::npos) m.indices.push_back(i);
  }
  for (std::size_t i : m.indices) m.distinct = m.distinct || entries[i] != entries[m.indices[0]];
  return m;
}

}  // namespace

std::vector<std::string> parse_memory_entries(std::string_view raw) {
  std::vector<std::string> out;
  if (trim_ascii(raw).empty()) return out;
  for (std::size_t b = 0; b <= raw.size();) {
    std::size_t e = raw.find(kMemoryDelimiter, b);
    if (e == std::string_view::npos) e = raw.size();
    if (std::string_view entry = trim_ascii(raw.substr(b, e - b)); !entry.empty())
      out.emplace_back(entry);
    b = e + kMemoryDelimiter.size();
  }
  return out;
}

std::string join_memory_entries(const std::vector<std::string>& entries) {
  std::string out;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (i) out += kMemoryDelimiter;
    out += entries[i];
  }
  return out;
}

std::vector<std::string> dedupe_memory_entries(std::vector<std::string> entries) {
  std::vector<std::string> out;
  for (std::string& e : entries) {
    if (std::find(out.begin(), out.end(), e) == out.end()) out.push_back(std::move(e));
  }
  return out;
}

std::string memory_file_name(MemoryTarget target) {
  return target == MemoryTarget::kUser ? "USER.md" : "MEMORY.md";
}

std::string memory_file_path(const std::string& home, MemoryTarget target) {
  return home + "/memories/" + memory_file_name(target);
}

std::size_t memory_limit(const MemoryLimits& limits, MemoryTarget target) {
  return target == MemoryTarget::kUser ? limits.user_chars : limits.memory_chars;
}

std::vector<std::string> sanitize_memory_entries(const std::vector<std::string>& entries,
                                                 MemoryTarget target) {
  const std::string file = memory_file_name(target);
  std::vector<std::string> out;
  for (const std::string& entry : entries) {
    if (entry.empty() || entry.rfind("[BLOCKED:", 0) == 0) {
      out.push_back(entry);
      continue;
    }
    // Past the scanner's window an entry could hide anything; no curated note is that big.
    if (utf8_length(entry) > kMaxThreatScanChars) {
      out.push_back("[BLOCKED: " + file + " entry too large to scan (" +
                    with_thousands(utf8_length(entry)) +
                    " chars). Removed from system prompt; use memory(action=remove) to delete the "
                    "original.]");
      continue;
    }
    const std::vector<std::string> findings = scan_for_threats(entry);
    if (findings.empty()) {
      out.push_back(entry);
      continue;
    }
    std::string ids;
    for (const std::string& f : findings) ids += (ids.empty() ? "" : ", ") + f;
    out.push_back(
        "[BLOCKED: " + file + " entry contained threat pattern(s): " + ids +
        ". Removed from system prompt; use memory(action=remove) to delete the original.]");
  }
  return out;
}

struct MemoryStore::Snapshot {
  std::vector<std::string> entries;
  std::optional<Json> drift;
};

MemoryStore::MemoryStore(std::string home, MemoryLimits limits)
    : home_(std::move(home)), limits_(limits) {}

// Reads the file (under the caller's lock). With `check_drift`, a file that does not
// round-trip through parse and join, or holds an entry bigger than the whole budget, was
// edited by something else: it is backed up and the mutation refused, because rewriting
// it would lose that edit.
MemoryStore::Snapshot MemoryStore::load(MemoryTarget target, bool check_drift) const {
  const std::string path = memory_file_path(home_, target);
  const std::string raw = read_or_empty(path);
  const std::vector<std::string> parsed = parse_memory_entries(raw);
  Snapshot s{dedupe_memory_entries(parsed), std::nullopt};
  if (!check_drift || trim_ascii(raw).empty()) return s;
  const std::size_t limit = memory_limit(limits_, target);
  const bool oversized = std::any_of(parsed.begin(), parsed.end(),
                                     [&](const std::string& e) { return utf8_length(e) > limit; });
  if (trim_ascii(raw) == join_memory_entries(parsed) && !oversized) return s;
  std::string backup = path + ".bak." + std::to_string(std::time(nullptr));
  if (!write_file_atomically(backup, raw).ok())
    backup += " (BACKUP FAILED \xE2\x80\x94 file unchanged on disk)";
  const std::string name = memory_file_name(target);
  s.drift = Json{
      {"success", false},
      {"error",
       "Refusing to write " + name +
           ": the file on disk holds content that would not survive a rewrite by the memory tool "
           "(added by hand, by another tool or by another session). A copy was saved to " +
           backup +
           ". Resolve it first: rewrite the file as a clean list of entries separated by lines "
           "holding only \xC2\xA7, or move the extra content out; then retry."},
      {"drift_backup", backup},
      {"remediation",
       "Open the backup, add its missing entries one at a time with memory(action=add, "
       "content=...), then rewrite or remove the original file."}};
  return s;
}

Json MemoryStore::success(MemoryTarget target, const std::vector<std::string>& entries,
                          const std::string& message) const {
  const std::size_t limit = memory_limit(limits_, target);
  const std::size_t current = utf8_length(join_memory_entries(entries));
  // Deliberately terminal and without the entries: echoing them invites the model to
  // "fix" more and repeat the same write.
  return {{"success", true},
          {"done", true},
          {"target", target == MemoryTarget::kUser ? "user" : "memory"},
          {"usage", std::to_string(usage_percent(current, limit)) + "% \xE2\x80\x94 " +
                        with_thousands(current) + "/" + with_thousands(limit) + " chars"},
          {"entry_count", entries.size()},
          {"message", message},
          {"note", "Write saved. This update is complete \xE2\x80\x94 do not repeat it."}};
}

Json MemoryStore::failure(MemoryTarget target, const std::vector<std::string>& entries,
                          const std::string& error) const {
  const std::size_t current = utf8_length(join_memory_entries(entries));
  return {{"success", false},
          {"error", error},
          {"current_entries", sanitize_memory_entries(entries, target)},
          {"usage", with_thousands(current) + "/" + with_thousands(memory_limit(limits_, target))}};
}

Json MemoryStore::save(MemoryTarget target, const std::vector<std::string>& entries,
                       const std::string& message) const {
  if (Status s =
          write_file_atomically(memory_file_path(home_, target), join_memory_entries(entries));
      !s.ok()) {
    return tool_failure("Failed to write memory file: " + s.message());
  }
  return success(target, entries, message);
}

Json MemoryStore::add(MemoryTarget target, const std::string& raw_content) {
  const std::string content(trim_ascii(raw_content));
  if (content.empty()) return tool_failure("Content cannot be empty.");
  if (auto threat = first_threat_message(content)) return tool_failure(*threat);
  const std::string path = memory_file_path(home_, target);
  if (Status s = make_private_directories(home_ + "/memories"); !s.ok())
    return tool_failure(s.message());
  FileLock lock(path);
  // Appending never rewrites other content, so the drift guard is not needed here.
  std::vector<std::string> entries = load(target, false).entries;
  if (std::find(entries.begin(), entries.end(), content) != entries.end()) {
    return success(target, entries, "Entry already exists (no duplicate added).");
  }
  const std::size_t limit = memory_limit(limits_, target);
  std::vector<std::string> next = entries;
  next.push_back(content);
  if (utf8_length(join_memory_entries(next)) > limit) {
    const std::size_t current = utf8_length(join_memory_entries(entries));
    return failure(target, entries,
                   "Memory at " + with_thousands(current) + "/" + with_thousands(limit) +
                       " chars. Adding this entry (" + std::to_string(utf8_length(content)) +
                       " chars) would exceed the limit. Consolidate now: merge overlapping entries "
                       "into shorter "
                       "ones with 'replace' or drop stale ones with 'remove' (see current_entries "
                       "below), then "
                       "retry this add \xE2\x80\x94 all in this turn.");
  }
  return save(target, next, "Entry added.");
}

Json MemoryStore::replace(MemoryTarget target, const std::string& raw_old,
                          const std::string& raw_content) {
  const std::string old_text(trim_ascii(raw_old));
  const std::string content(trim_ascii(raw_content));
  if (old_text.empty()) return tool_failure("old_text cannot be empty.");
  if (content.empty())
    return tool_failure("new_content cannot be empty. Use 'remove' to delete entries.");
  if (auto threat = first_threat_message(content)) return tool_failure(*threat);
  const std::string path = memory_file_path(home_, target);
  if (Status s = make_private_directories(home_ + "/memories"); !s.ok())
    return tool_failure(s.message());
  FileLock lock(path);
  Snapshot snap = load(target, true);
  if (snap.drift) return *snap.drift;
  std::vector<std::string>& entries = snap.entries;
  const Matches m = find_matches(entries, old_text);
  if (m.indices.empty()) {
    return failure(target, entries,
                   "No entry matched '" + old_text +
                       "'. Check current_entries below and retry with text from the entry you want "
                       "to replace.");
  }
  if (m.distinct) {
    std::vector<std::string> matched;
    for (std::size_t i : m.indices) matched.push_back(entries[i]);
    return {{"success", false},
            {"error", "Multiple entries matched '" + old_text + "'. Be more specific."},
            {"matches", previews(matched)}};
  }
  std::vector<std::string> next = entries;
  next[m.indices[0]] = content;  // Identical duplicates: the first one.
  const std::size_t limit = memory_limit(limits_, target);
  if (const std::size_t total = utf8_length(join_memory_entries(next)); total > limit) {
    return failure(
        target, entries,
        "Replacement would put memory at " + with_thousands(total) + "/" + with_thousands(limit) +
            " chars. Shorten the new content, or remove other stale entries to make room (see "
            "current_entries below), then retry \xE2\x80\x94 all in this turn.");
  }
  return save(target, next, "Entry replaced.");
}

Json MemoryStore::remove(MemoryTarget target, const std::string& raw_old) {
  const std::string old_text(trim_ascii(raw_old));
  if (old_text.empty()) return tool_failure("old_text cannot be empty.");
  const std::string path = memory_file_path(home_, target);
  if (Status s = make_private_directories(home_ + "/memories"); !s.ok())
    return tool_failure(s.message());
  FileLock lock(path);
  Snapshot snap = load(target, true);
  if (snap.drift) return *snap.drift;
  std::vector<std::string>& entries = snap.entries;
  const Matches m = find_matches(entries, old_text);
  if (m.indices.empty()) {
    return failure(target, entries,
                   "No entry matched '" + old_text +
                       "'. Check current_entries below and retry with text from the entry you want "
                       "to remove.");
  }
  if (m.distinct) {
    std::vector<std::string> matched;
    for (std::size_t i : m.indices) matched.push_back(entries[i]);
    return {{"success", false},
            {"error", "Multiple entries matched '" + old_text + "'. Be more specific."},
            {"matches", previews(matched)}};
  }
  std::vector<std::string> next = entries;
  next.erase(next.begin() + static_cast<std::ptrdiff_t>(m.indices[0]));
  return save(target, next, "Entry removed.");
}

Json MemoryStore::apply_batch(MemoryTarget target, const Json& operations) {
  if (!operations.is_array() || operations.empty())
    return tool_failure("operations list is empty.");
  // Every write is scanned before anything touches the disk: one poisoned op rejects all.
  for (std::size_t i = 0; i < operations.size(); ++i) {
    const Json& op = operations[i];
    if (!op.is_object()) continue;
    const std::string action = op.value("action", "");
    if ((action == "add" || action == "replace") && op.contains("content") &&
        op["content"].is_string()) {
      if (auto threat = first_threat_message(op["content"].get<std::string>())) {
        return tool_failure("Operation " + std::to_string(i + 1) + ": " + *threat);
      }
    }
  }
  const std::string path = memory_file_path(home_, target);
  if (Status s = make_private_directories(home_ + "/memories"); !s.ok())
    return tool_failure(s.message());
  FileLock lock(path);
  Snapshot snap = load(target, true);
  if (snap.drift) return *snap.drift;
  const std::vector<std::string>& entries = snap.entries;
  std::vector<std::string> working = entries;
  auto abort_batch = [&](const std::string& why) {
    return failure(target, entries, why + " No operations were applied (batch is all-or-nothing).");
  };
  for (std::size_t i = 0; i < operations.size(); ++i) {
    const Json op = operations[i].is_object() ? operations[i] : Json::object();
    const std::string action = op.value("action", "");
    auto text = [&](const char* key) {
      return op.contains(key) && op[key].is_string()
                 ? std::string(trim_ascii(op[key].get<std::string>()))
                 : std::string();
    };
    const std::string content = text("content");
    const std::string old_text = text("old_text");
    const std::string at =
        "Operation " + std::to_string(i + 1) + " (" + (action.empty() ? "unknown" : action) + ")";
    if (action == "add") {
      if (content.empty()) return abort_batch(at + ": content is required.");
      if (std::find(working.begin(), working.end(), content) == working.end())
        working.push_back(content);
      continue;
    }
    if (action != "replace" && action != "remove")
      return abort_batch(at + ": unknown action. Use add, replace, or remove.");
    if (old_text.empty()) return abort_batch(at + ": old_text is required.");
    if (action == "replace" && content.empty()) {
      return abort_batch(at + ": content is required (use action='remove' to delete).");
    }
    const Matches m = find_matches(working, old_text);
    if (m.indices.empty()) return abort_batch(at + ": no entry matched '" + old_text + "'.");
    if (m.distinct)
      return abort_batch(at + ": '" + old_text +
                         "' matched multiple distinct entries -- be more specific.");
    if (action == "replace") {
      working[m.indices[0]] = content;
    } else {
      working.erase(working.begin() + static_cast<std::ptrdiff_t>(m.indices[0]));
    }
  }
  const std::size_t limit = memory_limit(limits_, target);
  if (const std::size_t total = utf8_length(join_memory_entries(working)); total > limit) {
    return failure(
        target, entries,
        "After applying all " + std::to_string(operations.size()) +
            " operations, memory would be at " + with_thousands(total) + "/" +
            with_thousands(limit) +
            " chars -- over the limit. Remove or shorten more entries in the same batch (see "
            "current_entries below), then retry.");
  }
  return save(target, working, "Applied " + std::to_string(operations.size()) + " operation(s).");
}

Json MemoryStore::missing_old_text(MemoryTarget target, const std::string& action) const {
  const std::string path = memory_file_path(home_, target);
  const std::vector<std::string> entries =
      dedupe_memory_entries(parse_memory_entries(read_or_empty(path)));
  return failure(target, entries,
                 "'" + action +
                     "' needs old_text \xE2\x80\x94 a short unique substring of the entry to " +
                     action + ". None was provided. Call " + action +
                     " again with old_text set to part of one of the current_entries below.");
}

}  // namespace hermes::internal
