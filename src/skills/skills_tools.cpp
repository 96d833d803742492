// skills_list and skill_view: progressive disclosure. The index names the skills; the
// model lists them, loads one SKILL.md, then a supporting file when it needs it.
#include "skills/skills_tools.hpp"

#include <cstdlib>

#include "common/atomic_file.hpp"
#include "common/json_text.hpp"
#include "skills/skill_catalog.hpp"
#include "skills/skill_files.hpp"
#include "tools/builtin_toolsets.hpp"
#include "tools/tool_args.hpp"

namespace hermes::internal {
namespace {

bool visible(const Skill& s, const SkillsOptions& options) {
  return !skill_disabled(s, options) && skill_supports_this_platform(s);
}

std::string display_category(const Skill& s) {
  if (s.dir == s.root) return "general";
  return s.category.empty() ? s.dir_name : s.category;
}

Json run_list(const std::string& home, const SkillsOptions& options, const Json& args) {
  // A category of the wrong type must not list every skill as if none was given.
  if (Status s = check_string_args(args, {"category"}); !s.ok()) return tool_failure(s.message());
  const std::string category = args.contains("category") && args["category"].is_string()
                                   ? args["category"].get<std::string>()
                                   : "";
  Json skills = Json::array();
  for (const Skill& s : discover_skills(home, options)) {
    if (!s.error.empty() || !visible(s, options)) continue;
    const std::string cat = display_category(s);
    if (!category.empty() && cat != category && cat.rfind(category + "/", 0) != 0) continue;
    skills.push_back({{"name", s.dir_name}, {"description", s.description}, {"category", cat}});
  }
  return {{"success", true},
          {"skills", skills},
          {"count", skills.size()},
          {"hint",
           "Load a skill's instructions with skill_view(name); its supporting files with "
           "skill_view(name, file_path)."}};
}

Json env_requirements(const Skill& s, Json& missing) {
  Json required = Json::array();
  for (const char* key : {"required_environment_variables", "prerequisites"}) {
    auto it = s.frontmatter.find(key);
    if (it == s.frontmatter.end()) continue;
    const Json& list = (it->is_object() && it->contains("env_vars")) ? (*it)["env_vars"] : *it;
    if (!list.is_array()) continue;
    for (const Json& v : list) {
      const std::string name =
          v.is_string() ? v.get<std::string>() : (v.is_object() ? v.value("name", "") : "");
      if (name.empty()) continue;
      required.push_back(v.is_object() ? v : Json{{"name", name}});
      const bool optional = v.is_object() && v.contains("optional") && v["optional"].is_boolean() &&
                            v["optional"].get<bool>();
      if (!optional && std::getenv(name.c_str()) == nullptr) missing.push_back(name);
    }
  }
  return required;
}

Json linked_files(const Skill& s) {
  Json groups = Json::object();
  for (const std::string& f : skill_supporting_files(s)) {
    const std::size_t slash = f.find('/');
    groups[slash == std::string::npos ? "other" : f.substr(0, slash)].push_back(f);
  }
  return groups;
}

Json view_file(const Skill& s, const std::string& file_path) {
  auto path = resolve_skill_file(s, file_path, true);
  if (!path.ok()) return tool_failure(path.status().message());
  auto text = read_whole_file(*path, kMaxSupportingFileBytes);
  if (!text.ok())
    return tool_failure("Cannot read " + file_path + " of skill '" + s.dir_name +
                        "': " + text.status().message());
  if (text->find('\0') != std::string::npos) {
    return tool_failure(file_path +
                        " is a binary file; run or inspect it with the terminal tool instead.");
  }
  return {{"success", true},
          {"name", s.dir_name},
          {"file_path", file_path},
          {"path", *path},
          {"content", *text}};
}

Json run_view(const std::string& home, const SkillsOptions& options, const Json& args,
              const std::string& session_id) {
  if (Status s = check_string_args(args, {"name", "file_path"}); !s.ok())
    return tool_failure(s.message());
  const std::string name =
      args.contains("name") && args["name"].is_string() ? args["name"].get<std::string>() : "";
  if (name.empty()) return tool_failure("skill_view requires 'name'.");
  auto skill = find_skill(home, options, name);
  if (!skill || !visible(*skill, options)) {
    return tool_failure("Skill '" + name +
                        "' not found. Use skills_list to see the available skills.");
  }
  if (args.contains("file_path") && args["file_path"].is_string() &&
      !args["file_path"].get<std::string>().empty()) {
    return view_file(*skill, args["file_path"].get<std::string>());
  }
  auto text = read_whole_file(skill->path, kMaxSupportingFileBytes);
  if (!text.ok())
    return tool_failure("Cannot read " + skill->path + ": " + text.status().message());
  Json missing = Json::array();
  Json out = {
      {"success", true},
      {"name", skill->name},
      {"description", skill->description},
      {"content",
       options.template_vars ? substitute_skill_templates(*text, *skill, session_id) : *text},
      {"path", skill->path},
      {"skill_dir", skill->dir},
      {"linked_files", linked_files(*skill)},
      {"tags", skill_metadata_list(*skill, "tags")},
      {"related_skills", skill_metadata_list(*skill, "related_skills")},
      {"required_environment_variables", env_requirements(*skill, missing)},
      {"missing_required_environment_variables", missing}};
  if (!missing.empty()) {
    out["setup_note"] =
        "Some environment variables this skill needs are not set; the steps that use them will "
        "fail until the user provides them.";
  }
  if (!skill->error.empty())
    out["frontmatter_error"] = skill->error + " (fix it with skill_manage)";
  return out;
}

ToolSpec list_tool(const SkillsOptions& options) {
  ToolSpec spec;
  spec.name = "skills_list";
  spec.toolset = "skills";
  spec.description =
      "List the available skills (name, description, category), optionally of one category.";
  static const Json kSchema =
      Json::parse(R"({"type": "object", "properties": {"category": {"type": "string"}}})");
  spec.parameters = kSchema;
  spec.handler = [options](const Json& args, ToolContext& ctx) -> Result<std::string> {
    return dump_json(run_list(ctx.home, options, args.is_object() ? args : Json::object()));
  };
  return spec;
}

ToolSpec view_tool(const SkillsOptions& options) {
  ToolSpec spec;
  spec.name = "skill_view";
  spec.toolset = "skills";
  spec.description =
      "Load a skill: its full SKILL.md instructions, or with file_path one of its supporting files "
      "(references/, templates/, scripts/, assets/). Follow a loaded skill's instructions.";
  static const Json kSchema = Json::parse(R"({
    "type": "object",
    "properties": {
      "name": {"type": "string", "description": "The skill's name."},
      "file_path": {"type": "string", "description": "A supporting file, relative to the skill directory."}
    },
    "required": ["name"]
  })");
  spec.parameters = kSchema;
  spec.handler = [options](const Json& args, ToolContext& ctx) -> Result<std::string> {
    return dump_json(
        run_view(ctx.home, options, args.is_object() ? args : Json::object(), ctx.session_id));
  };
  return spec;
}

}  // namespace

std::vector<ToolSpec> skills_tools(const SkillsOptions& options) {
  return {list_tool(options), view_tool(options), skill_manage_tool(options)};
}

}  // namespace hermes::internal
