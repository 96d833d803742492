#include "skills/skill_files.hpp"

#include <filesystem>
#include <vector>

#include "common/utf8.hpp"
#include "skills/frontmatter.hpp"
#include "tools/tool_args.hpp"

namespace fs = std::filesystem;

namespace hermes::internal {
namespace {

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

std::vector<std::string> components(const std::string& path) {
  std::vector<std::string> out;
  for (std::size_t b = 0; b <= path.size();) {
    std::size_t e = path.find('/', b);
    if (e == std::string::npos) e = path.size();
    out.push_back(path.substr(b, e - b));
    b = e + 1;
  }
  return out;
}

}  // namespace

std::optional<std::string> skill_name_error(const std::string& name, const char* what) {
  const bool valid = !name.empty() && name.size() <= kMaxSkillNameChars && is_name_char(name[0]) &&
                     name[0] != '.' && name[0] != '_' && name[0] != '-' &&
                     std::all_of(name.begin(), name.end(), is_name_char);
  if (valid) return std::nullopt;
  return std::string("Invalid ") + what + " '" + name +
         "'. Use lowercase letters, digits, dots, hyphens and underscores, starting with a letter "
         "or digit, at "
         "most 64 characters.";
}

std::optional<std::string> skill_md_error(const std::string& content) {
  if (const std::size_t n = utf8_length(content); n > kMaxSkillMdChars) {
    return "SKILL.md content is " + std::to_string(n) +
           " characters (limit: 100,000). Keep SKILL.md short and move details into supporting "
           "files under "
           "references/ or templates/.";
  }
  auto doc = parse_skill_document(content);
  if (!doc.ok()) return doc.status().message();
  const Json& fm = doc->frontmatter;
  if (!fm.contains("name") || fm["name"].is_null())
    return "Frontmatter must include a 'name' field";
  if (!fm.contains("description") || fm["description"].is_null())
    return "Frontmatter must include a 'description' field";
  const std::string description = fm["description"].is_string()
                                      ? fm["description"].get<std::string>()
                                      : fm["description"].dump();
  if (utf8_length(description) > kMaxSkillDescriptionChars)
    return "Description exceeds 1024 characters";
  if (doc->body.find_first_not_of(" \t\r\n") == std::string::npos) {
    return "SKILL.md must have content after the frontmatter (instructions, procedures, ...)";
  }
  return std::nullopt;
}

bool strictly_inside(const std::string& path, const std::string& dir) {
  std::error_code ec;
  const fs::path p = fs::weakly_canonical(path, ec);
  const fs::path d = fs::weakly_canonical(dir, ec);
  if (ec) return false;
  const std::string ps = p.generic_string();
  const std::string ds = d.generic_string();
  return ps.size() > ds.size() + 1 && ps.compare(0, ds.size(), ds) == 0 && ps[ds.size()] == '/';
}

Result<std::string> resolve_skill_file(const Skill& skill, const std::string& file_path,
                                       bool allow_skill_md) {
  if (file_path.empty()) return Status::invalid_argument("file_path is required");
  if (file_path[0] == '/' || file_path[0] == '~') {
    return Status::invalid_argument("file_path must be relative to the skill directory");
  }
  const std::vector<std::string> parts = components(file_path);
  for (const std::string& part : parts) {
    if (part == "..") return Status::invalid_argument("file_path must not contain '..'");
  }
  if (!(allow_skill_md && file_path == "SKILL.md")) {
    const std::string& top = parts.front();
    if (top != "references" && top != "templates" && top != "scripts" && top != "assets") {
      return Status::invalid_argument(
          "file_path must start with references/, templates/, scripts/ or assets/");
    }
    if (parts.size() < 2 || parts.back().empty())
      return Status::invalid_argument("file_path must include a file name");
  }
  const std::string full = skill.dir + "/" + file_path;
  if (!strictly_inside(full, skill.dir))
    return Status::invalid_argument("file_path must stay inside the skill directory");
  return full;
}

}  // namespace hermes::internal
