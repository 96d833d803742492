// Skills as slash commands: /<skill-name> [instruction] becomes a user message that
// carries the skill's full text.
#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "common/text_utils.hpp"
#include "hermes/skills.hpp"
#include "skills/skill_catalog.hpp"
#include "tools/tool_args.hpp"

namespace hermes::internal {
namespace {

bool usable(const Skill& s, const SkillsOptions& options) {
  return s.error.empty() && !skill_disabled(s, options) && skill_supports_this_platform(s);
}

// The description, or the first line of the body that is not a heading (for menus).
std::string menu_description(const Skill& s) {
  if (!s.description.empty()) return s.description;
  for (std::size_t b = 0; b < s.body.size();) {
    std::size_t e = s.body.find('\n', b);
    if (e == std::string::npos) e = s.body.size();
    std::string line = s.body.substr(b, e - b);
    line.erase(0, line.find_first_not_of(" \t"));
    line.erase(line.find_last_not_of(" \t\r") + 1);
    if (!line.empty() && line[0] != '#') return std::string(utf8_head(line, 80));
    b = e + 1;
  }
  return "";
}

std::string normalize_command(std::string_view command) {
  std::string c(command);
  c.erase(0, c.find_first_not_of(" \t/"));
  c.erase(c.find_last_not_of(" \t") + 1);
  std::replace(c.begin(), c.end(), '_', '-');
  return skill_command_slug(c);
}

std::vector<std::string> missing_environment(const Skill& s) {
  std::vector<std::string> missing;
  for (const char* key : {"required_environment_variables", "prerequisites"}) {
    auto it = s.frontmatter.find(key);
    if (it == s.frontmatter.end()) continue;
    const Json& list = (it->is_object() && it->contains("env_vars")) ? (*it)["env_vars"] : *it;
    if (!list.is_array()) continue;
    for (const Json& v : list) {
      const std::string name =
          v.is_string() ? v.get<std::string>() : (v.is_object() ? v.value("name", "") : "");
      const bool optional = v.is_object() && v.value("optional", false);
      if (!name.empty() && !optional && std::getenv(name.c_str()) == nullptr)
        missing.push_back(name);
    }
  }
  return missing;
}

std::string config_block(const Skill& s, const std::string& home) {
  const Json& fm = s.frontmatter;
  if (!fm.contains("metadata") || !fm["metadata"].is_object() || !fm["metadata"].contains("hermes"))
    return "";
  const Json& hermes = fm["metadata"]["hermes"];
  if (!hermes.is_object() || !hermes.contains("config") || !hermes["config"].is_array()) return "";
  std::string out;
  for (const Json& entry : hermes["config"]) {
    if (!entry.is_object() || !entry.contains("key")) continue;
    const Json& def = entry.contains("default") ? entry["default"] : Json();
    const std::string value =
        def.is_null() ? "(not set)" : (def.is_string() ? def.get<std::string>() : def.dump());
    out += "  " + entry.value("key", "") + " = " + value + "\n";
  }
  return out.empty() ? "" : "[Skill config (from " + home + "/config.yaml):\n" + out + "]\n\n";
}

}  // namespace
}  // namespace hermes::internal

namespace hermes {

std::string skill_command_slug(std::string_view name) {
  std::string out;
  for (unsigned char c : name) {
    if (c == ' ') {
      out += '-';
    } else if (std::isalnum(c) || c == '_' || c == '-' ||
               c >= 0x80) {  // Non-ASCII letters are kept.
      out += internal::lower_ascii(static_cast<char>(c));
    }
  }
  std::string collapsed;
  for (char c : out) {
    if (!(c == '-' && !collapsed.empty() && collapsed.back() == '-')) collapsed += c;
  }
  const std::size_t b = collapsed.find_first_not_of('-');
  if (b == std::string::npos) return "";
  return collapsed.substr(b, collapsed.find_last_not_of('-') - b + 1);
}

std::vector<SkillCommand> list_skill_commands(const std::string& home,
                                              const SkillsOptions& options) {
  std::vector<SkillCommand> out;
  for (const internal::Skill& s : internal::discover_skills(home, options)) {
    if (!internal::usable(s, options)) continue;
    const std::string slug = skill_command_slug(s.name);
    if (slug.empty()) continue;
    const std::string command = "/" + slug;
    if (std::any_of(out.begin(), out.end(),
                    [&](const SkillCommand& c) { return c.command == command; }))
      continue;
    out.push_back({command, s.name, internal::menu_description(s)});
  }
  return out;
}

Result<std::string> build_skill_invocation_message(const std::string& home,
                                                   const SkillsOptions& options,
                                                   std::string_view command,
                                                   std::string_view instruction,
                                                   const std::string& session_id) {
  using namespace internal;
  const std::string wanted = normalize_command(command);
  std::optional<Skill> skill;
  for (Skill& s : discover_skills(home, options)) {
    if (usable(s, options) && skill_command_slug(s.name) == wanted) {
      skill = std::move(s);
      break;
    }
  }
  if (!skill) return Status::not_found("no enabled skill answers to /" + wanted);
  const std::string body = options.template_vars
                               ? substitute_skill_templates(skill->body, *skill, session_id)
                               : skill->body;
  std::string out =
      "[IMPORTANT: The user has invoked the \"" + skill->name +
      "\" skill, indicating they want you to follow its instructions. The full skill content is "
      "loaded below.]\n\n";
  out += body;
  if (!out.empty() && out.back() != '\n') out += '\n';
  out += "\n[Skill directory: " + skill->dir + "]\n";
  out +=
      "Resolve relative paths in this skill against that directory, and run its scripts with the "
      "terminal "
      "tool by their absolute path.\n\n";
  out += config_block(*skill, home);
  if (const std::vector<std::string> missing = missing_environment(*skill); !missing.empty()) {
    std::string names;
    for (const std::string& m : missing) names += (names.empty() ? "" : ", ") + m;
    out +=
        "[Skill setup note: this skill expects environment variables that are not set: " + names +
        ". Ask the user to provide them before relying on the steps that need them.]\n\n";
  }
  if (const std::vector<std::string> files = skill_supporting_files(*skill); !files.empty()) {
    out += "[This skill has supporting files (paths relative to the skill directory above):]\n";
    for (const std::string& f : files) out += "- " + f + "\n";
    out += "Load one with skill_view(name=\"" + skill->name +
           "\", file_path=\"<path>\"), or run a script by its absolute path.\n\n";
  }
  const std::string text(instruction);
  if (text.find_first_not_of(" \t\r\n") != std::string::npos) {
    out +=
        "The user has provided the following instruction alongside the skill invocation: " + text;
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

}  // namespace hermes
