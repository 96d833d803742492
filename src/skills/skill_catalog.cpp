#include "skills/skill_catalog.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include "common/atomic_file.hpp"
#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "safety/log.hpp"
#include "skills/frontmatter.hpp"

namespace fs = std::filesystem;

namespace hermes::internal {
namespace {

constexpr std::size_t kMaxSkillFileBytes = 1u << 20;
constexpr int kMaxScanDepth = 8;

bool skipped_directory(const fs::path& p) {
  const std::string name = p.filename().string();
  return name == ".git" || name == ".github" || name == ".hub" || name == ".archive" ||
         name == ".locks";
}

std::string text_field(const Json& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return "";
  return it->is_string() ? it->get<std::string>() : dump_json(*it);
}

Skill load_skill(const fs::path& skill_md, const SkillRoot& root) {
  Skill s;
  s.path = skill_md.string();
  s.dir = skill_md.parent_path().string();
  s.dir_name = skill_md.parent_path().filename().string();
  s.root = root.path;
  s.local = root.local;
  std::error_code ec;
  const fs::path rel = fs::relative(skill_md.parent_path(), root.path, ec);
  s.category = (ec || rel.empty() || rel == ".") ? "" : rel.parent_path().generic_string();
  s.name = s.dir_name;
  auto text = read_whole_file(s.path, kMaxSkillFileBytes);
  if (!text.ok()) {
    s.error = text.status().message();
    return s;
  }
  auto doc = parse_skill_document(*text);
  if (!doc.ok()) {
    s.error = doc.status().message();
    s.body = *text;
    return s;
  }
  s.frontmatter = std::move(doc->frontmatter);
  s.body = std::move(doc->body);
  if (std::string name = text_field(s.frontmatter, "name"); !name.empty()) s.name = name;
  s.description = text_field(s.frontmatter, "description");
  return s;
}

std::string this_platform() {
#if defined(__APPLE__)
  return "macos";
#elif defined(_WIN32)
  return "windows";
#else
  return "linux";
#endif
}

}  // namespace

std::vector<SkillRoot> skill_roots(const std::string& home, const SkillsOptions& options) {
  std::vector<SkillRoot> roots;
  std::set<std::string> seen;
  auto add = [&](const std::string& dir, bool local) {
    std::error_code ec;
    const std::string canonical = fs::weakly_canonical(dir, ec).string();
    if (!dir.empty() && seen.insert(ec ? dir : canonical).second)
      roots.push_back({ec ? dir : canonical, local});
  };
  if (!home.empty()) add(home + "/skills", true);
  for (const std::string& dir : options.external_dirs) add(dir, false);
  return roots;
}

std::vector<Skill> discover_skills(const std::string& home, const SkillsOptions& options) {
  std::vector<Skill> out;
  std::set<std::string> seen;
  for (const SkillRoot& root : skill_roots(home, options)) {
    std::error_code ec;
    if (!fs::is_directory(root.path, ec)) continue;
    std::vector<fs::path> found;
    // Symlinked skill directories are followed (people link skills in from elsewhere);
    // the depth cap keeps a symlink cycle from running forever.
    fs::recursive_directory_iterator it(root.path,
                                        fs::directory_options::skip_permission_denied |
                                            fs::directory_options::follow_directory_symlink,
                                        ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_directory(ec) && (skipped_directory(it->path()) || it.depth() >= kMaxScanDepth)) {
        it.disable_recursion_pending();
      } else if (it->path().filename() == "SKILL.md" && it->is_regular_file(ec)) {
        found.push_back(it->path());
      }
    }
    if (ec) HERMES_LOG_WARN("skills: stopped scanning {}: {}", root.path, ec.message());
    std::sort(found.begin(), found.end());
    for (const fs::path& p : found) {
      Skill s = load_skill(p, root);
      if (!seen.insert(s.dir_name).second) continue;  // Hidden by an earlier root.
      if (!s.error.empty()) HERMES_LOG_WARN("skills: {} is unusable: {}", s.path, s.error);
      out.push_back(std::move(s));
    }
  }
  return out;
}

std::optional<Skill> find_skill(const std::string& home, const SkillsOptions& options,
                                const std::string& name) {
  std::vector<Skill> skills = discover_skills(home, options);
  for (Skill& s : skills) {
    if (s.dir_name == name) return std::move(s);
  }
  for (Skill& s : skills) {
    if (s.name == name) return std::move(s);
  }
  return std::nullopt;
}

bool skill_disabled(const Skill& skill, const SkillsOptions& options) {
  return list_contains(options.disabled, skill.name) ||
         list_contains(options.disabled, skill.dir_name);
}

bool skill_supports_this_platform(const Skill& skill) {
  auto it = skill.frontmatter.find("platforms");
  if (it == skill.frontmatter.end() || it->is_null()) return true;
  std::vector<std::string> platforms;
  if (it->is_string()) platforms.push_back(it->get<std::string>());
  if (it->is_array()) {
    for (const Json& p : *it) {
      if (p.is_string()) platforms.push_back(p.get<std::string>());
    }
  }
  if (platforms.empty()) return true;
  const std::string here = this_platform();
  return std::any_of(platforms.begin(), platforms.end(), [&](const std::string& platform) {
    const std::string p = internal::lower_ascii(platform);
    return p == here || (here == "macos" && p == "darwin");
  });
}

std::vector<std::string> skill_metadata_list(const Skill& skill, const std::string& key) {
  std::vector<std::string> out;
  const Json& fm = skill.frontmatter;
  if (!fm.contains("metadata") || !fm["metadata"].is_object()) return out;
  const Json& meta = fm["metadata"];
  if (!meta.contains("hermes") || !meta["hermes"].is_object()) return out;
  auto it = meta["hermes"].find(key);
  if (it == meta["hermes"].end()) return out;
  if (it->is_string()) out.push_back(it->get<std::string>());
  if (it->is_array()) {
    for (const Json& v : *it) {
      if (v.is_string()) out.push_back(v.get<std::string>());
    }
  }
  return out;
}

bool skill_conditions_met(const Skill& skill, const std::vector<std::string>& tools,
                          const std::vector<std::string>& toolsets) {
  if (tools.empty() && toolsets.empty()) return true;  // Nothing known: show everything.
  auto any_of = [](const std::vector<std::string>& wanted, const std::vector<std::string>& have) {
    return std::any_of(wanted.begin(), wanted.end(),
                       [&](const std::string& w) { return list_contains(have, w); });
  };
  auto all_of = [](const std::vector<std::string>& wanted, const std::vector<std::string>& have) {
    return std::all_of(wanted.begin(), wanted.end(),
                       [&](const std::string& w) { return list_contains(have, w); });
  };
  // A fallback skill stands in for a tool; it hides when the real thing is there.
  if (any_of(skill_metadata_list(skill, "fallback_for_toolsets"), toolsets)) return false;
  if (any_of(skill_metadata_list(skill, "fallback_for_tools"), tools)) return false;
  return all_of(skill_metadata_list(skill, "requires_toolsets"), toolsets) &&
         all_of(skill_metadata_list(skill, "requires_tools"), tools);
}

std::vector<std::string> skill_supporting_files(const Skill& skill) {
  std::vector<std::string> out;
  std::error_code ec;
  fs::recursive_directory_iterator it(skill.dir, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_directory(ec) && skipped_directory(it->path())) {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(ec)) continue;
    const std::string rel = fs::relative(it->path(), skill.dir, ec).generic_string();
    if (!ec && rel != "SKILL.md") out.push_back(rel);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string substitute_skill_templates(const std::string& text, const Skill& skill,
                                       const std::string& session_id) {
  std::string out = text;
  auto replace_all = [&](const std::string& from, const std::string& to) {
    for (std::size_t p = out.find(from); p != std::string::npos;
         p = out.find(from, p + to.size())) {
      out.replace(p, from.size(), to);
    }
  };
  replace_all("${HERMES_SKILL_DIR}", skill.dir);
  if (!session_id.empty()) replace_all("${HERMES_SESSION_ID}", session_id);
  return out;
}

}  // namespace hermes::internal
