// The skills section of the system prompt, cached in process and on disk and rebuilt when
// a SKILL.md or DESCRIPTION.md changes.
#include <algorithm>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>

#include "common/atomic_file.hpp"
#include "common/fnv1a.hpp"
#include "common/json_text.hpp"
#include "common/utf8.hpp"
#include "hermes/skills.hpp"
#include "skills/frontmatter.hpp"
#include "skills/skill_catalog.hpp"
#include "tools/tool_args.hpp"

namespace fs = std::filesystem;

namespace hermes::internal {
namespace {

constexpr std::size_t kMaxDescriptionChars = 60;
constexpr std::size_t kMaxCachedIndexes = 32;
constexpr const char* kDiskCacheName = "/.skills_index_cache.json";

constexpr std::string_view kIndexHeader =
    "## Skills (mandatory)\n"
    "Before replying, scan the skills below. If one matches the task, load it with "
    "skill_view(name) "
    "and follow its instructions. If a skill you use turns out to be wrong or incomplete, fix it "
    "with skill_manage(action='patch'). After a difficult or iterative task, offer to save the "
    "approach as a skill, and update a skill you used when it missed steps or pitfalls.";

constexpr std::string_view kIndexFooter =
    "If none match, proceed normally without loading a skill.";

// One line, quotes and surrounding blanks removed, cut to 60 characters.
std::string index_description(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  const std::size_t b = text.find_first_not_of(" \t\"'");
  if (b == std::string::npos) return "";
  text = text.substr(b, text.find_last_not_of(" \t\"'") - b + 1);
  if (utf8_length(text) > kMaxDescriptionChars)
    text = std::string(utf8_head(text, kMaxDescriptionChars - 3)) + "...";
  return text;
}

std::string category_of(const Skill& s) {
  if (s.dir == s.root) return "general";
  return s.category.empty() ? s.dir_name : s.category;
}

std::string category_description(const std::string& root, const std::string& category) {
  auto text = read_whole_file(root + "/" + category + "/DESCRIPTION.md", 1u << 16);
  if (!text.ok()) return "";
  auto doc = parse_skill_document(*text);
  if (!doc.ok() || !doc->frontmatter.contains("description") ||
      !doc->frontmatter["description"].is_string())
    return "";
  return index_description(doc->frontmatter["description"].get<std::string>());
}

std::string render_index(const std::string& home, const SkillsOptions& options,
                         const std::vector<std::string>& tools,
                         const std::vector<std::string>& toolsets) {
  struct Entry {
    std::string name, description;
  };
  std::map<std::string, std::vector<Entry>> by_category;
  std::map<std::string, std::string> category_roots;
  for (const Skill& s : discover_skills(home, options)) {
    if (!s.error.empty() || skill_disabled(s, options) || !skill_supports_this_platform(s) ||
        !skill_conditions_met(s, tools, toolsets)) {
      continue;
    }
    const std::string cat = category_of(s);
    auto& entries = by_category[cat];
    if (std::none_of(entries.begin(), entries.end(),
                     [&](const Entry& e) { return e.name == s.name; })) {
      entries.push_back({s.name, index_description(s.description)});
    }
    category_roots.emplace(cat, s.root);
  }
  if (by_category.empty()) return "";
  std::string out(kIndexHeader);
  out += "\n\n<available_skills>\n";
  for (auto& [cat, entries] : by_category) {
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.name < b.name; });
    const std::string desc = category_description(category_roots[cat], cat);
    out += "  " + cat + ":" + (desc.empty() ? "" : " " + desc) + "\n";
    for (const Entry& e : entries)
      out += "    - " + e.name + (e.description.empty() ? "" : ": " + e.description) + "\n";
  }
  out += "</available_skills>\n\n";
  out += kIndexFooter;
  return out;
}

// A fingerprint of every file the index reads: path, size and modification time.
uint64_t manifest_of(const std::string& home, const SkillsOptions& options) {
  std::vector<std::string> rows;
  for (const SkillRoot& root : skill_roots(home, options)) {
    std::error_code ec;
    fs::recursive_directory_iterator it(root.path,
                                        fs::directory_options::skip_permission_denied |
                                            fs::directory_options::follow_directory_symlink,
                                        ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (it->is_directory(ec) &&
          (name == ".git" || name == ".hub" || name == ".archive" || it.depth() >= 8)) {
        it.disable_recursion_pending();
        continue;
      }
      if (name != "SKILL.md" && name != "DESCRIPTION.md") continue;
      const auto size = it->file_size(ec);
      const auto mtime = it->last_write_time(ec).time_since_epoch().count();
      rows.push_back(it->path().string() + "|" + std::to_string(size) + "|" +
                     std::to_string(mtime));
    }
  }
  std::sort(rows.begin(), rows.end());
  uint64_t h = fnv1a64("manifest");
  for (const std::string& r : rows) h = fnv1a64(r + "\n", h);
  return h;
}

std::string cache_key(const std::string& home, const SkillsOptions& options,
                      const std::vector<std::string>& tools,
                      const std::vector<std::string>& toolsets) {
  auto sorted = [](std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  Json key = {{"home", home},
              {"external", options.external_dirs},
              {"disabled", sorted(options.disabled)},
              {"tools", sorted(tools)},
              {"toolsets", sorted(toolsets)},
              {"version", 1}};
  return std::to_string(fnv1a64(dump_json(key)));
}

struct CachedIndex {
  uint64_t manifest = 0;
  std::string text;
};

std::mutex& cache_mutex() {
  static std::mutex mu;
  return mu;
}

std::map<std::string, CachedIndex>& memory_cache() {
  static std::map<std::string, CachedIndex> cache;
  return cache;
}

std::optional<std::string> from_disk(const std::string& home, const std::string& key,
                                     uint64_t manifest) {
  auto text = read_whole_file(home + kDiskCacheName, 4u << 20);
  if (!text.ok()) return std::nullopt;
  auto json = parse_json(*text);
  if (!json || !json->is_object() || json->value("key", "") != key ||
      json->value("manifest", "") != std::to_string(manifest) || !(*json)["text"].is_string()) {
    return std::nullopt;
  }
  return (*json)["text"].get<std::string>();
}

}  // namespace
}  // namespace hermes::internal

namespace hermes {

std::string build_skills_index(const std::string& home, const SkillsOptions& options,
                               const std::vector<std::string>& available_tools,
                               const std::vector<std::string>& available_toolsets) {
  using namespace internal;
  const std::string key = cache_key(home, options, available_tools, available_toolsets);
  const uint64_t manifest = manifest_of(home, options);
  {
    std::lock_guard<std::mutex> lock(cache_mutex());
    auto it = memory_cache().find(key);
    if (it != memory_cache().end() && it->second.manifest == manifest) return it->second.text;
  }
  std::optional<std::string> text = home.empty() ? std::nullopt : from_disk(home, key, manifest);
  if (!text) {
    text = render_index(home, options, available_tools, available_toolsets);
    if (!home.empty() && std::filesystem::is_directory(home)) {
      const Json doc = {{"key", key}, {"manifest", std::to_string(manifest)}, {"text", *text}};
      (void)write_file_atomically(home + kDiskCacheName,
                                  dump_json(doc));  // A cache: failure is harmless.
    }
  }
  std::lock_guard<std::mutex> lock(cache_mutex());
  if (memory_cache().size() >= kMaxCachedIndexes) memory_cache().clear();
  memory_cache()[key] = {manifest, *text};
  return *text;
}

std::string_view skills_guidance() {
  return "Record non-trivial workflows as skills. After a complex task (five or more tool calls), "
         "a "
         "tricky fix, or a workflow worth repeating, save the approach with skill_manage. When a "
         "skill "
         "you use is outdated, incomplete or wrong, patch it right away with "
         "skill_manage(action='patch'), without waiting to be asked: skills nobody maintains "
         "become "
         "liabilities. Skill safety: a placeholder containing [SKILL_PRUNED] means the skill's "
         "text was "
         "lost to context compression; load it again with skill_view before acting on it.";
}

}  // namespace hermes
