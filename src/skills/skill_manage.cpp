// skill_manage: the agent creates, edits, patches and deletes its own skills under
// <home>/skills. External skill directories are read-only.
#include <algorithm>
#include <filesystem>

#include "common/atomic_file.hpp"
#include "common/json_text.hpp"
#include "skills/skill_files.hpp"
#include "skills/skills_tools.hpp"
#include "tools/fuzzy_match.hpp"
#include "tools/tool_args.hpp"

namespace fs = std::filesystem;

namespace hermes::internal {
namespace {

constexpr const char* kSkillManageDescription =
    "Create and maintain skills: reusable procedures stored under the skills directory. "
    "create: name, content (a full SKILL.md with name and description frontmatter), optional "
    "category. "
    "edit: name, content (rewrites SKILL.md). patch: name, old_string, new_string, optional "
    "file_path and "
    "replace_all (fuzzy find-and-replace; preferred for small fixes). delete: name. write_file: "
    "name, "
    "file_path under references/, templates/, scripts/ or assets/, file_content. remove_file: "
    "name, file_path. "
    "Save a skill after a complex task or a tricky fix; patch a skill as soon as it proves wrong.";

Json ok(const std::string& message, const std::string& path) {
  return {{"success", true}, {"message", message}, {"path", path}};
}

std::string text_arg(const Json& args, const char* key) {
  return args.contains(key) && args[key].is_string() ? args[key].get<std::string>() : "";
}

struct Manage {
  std::string home;
  const SkillsOptions& options;
  const Json& args;

  std::string local_root() const { return home + "/skills"; }

  // The skill to change: it must exist and live in the writable local root.
  Result<Skill> writable_skill(const std::string& name) const {
    auto skill = find_skill(home, options, name);
    if (!skill)
      return Status::not_found("Skill '" + name +
                               "' not found. Use skills_list to see the available skills.");
    if (!skill->local) {
      return Status::permission_denied("Skill '" + name +
                                       "' lives in a read-only skills directory (" + skill->root +
                                       "). Create a local copy with action='create' to change it.");
    }
    return std::move(*skill);
  }

  Json create(const std::string& name) const {
    const std::string content = text_arg(args, "content");
    const std::string category = text_arg(args, "category");
    if (content.empty()) return tool_failure("create requires 'content' (the full SKILL.md).");
    if (!category.empty()) {
      if (auto e = skill_name_error(category, "category")) return tool_failure(*e);
    }
    if (auto e = skill_md_error(content)) return tool_failure(*e);
    if (auto existing = find_skill(home, options, name); existing && existing->dir_name == name) {
      return tool_failure("A skill named '" + name + "' already exists at " + existing->path +
                          ". Use edit or patch to change it.");
    }
    const std::string dir = local_root() + (category.empty() ? "" : "/" + category) + "/" + name;
    const std::string path = dir + "/SKILL.md";
    if (Status s = write_file_atomically(path, content); !s.ok()) return tool_failure(s.message());
    return ok("Skill '" + name + "' created.", path);
  }

  Json edit(const Skill& skill) const {
    const std::string content = text_arg(args, "content");
    if (content.empty()) return tool_failure("edit requires 'content' (the full new SKILL.md).");
    if (auto e = skill_md_error(content)) return tool_failure(*e);
    if (Status s = write_file_atomically(skill.path, content); !s.ok())
      return tool_failure(s.message());
    return ok("Skill '" + skill.dir_name + "' updated.", skill.path);
  }

  Json patch(const Skill& skill) const {
    const std::string old_string = text_arg(args, "old_string");
    const std::string new_string = text_arg(args, "new_string");
    const std::string file_path = text_arg(args, "file_path");
    if (old_string.empty()) return tool_failure("patch requires 'old_string'.");
    if (!args.contains("new_string") || !args["new_string"].is_string())
      return tool_failure("patch requires 'new_string'.");
    auto target = file_path.empty() ? Result<std::string>(skill.path)
                                    : resolve_skill_file(skill, file_path, true);
    if (!target.ok()) return tool_failure(target.status().message());
    auto current = read_whole_file(*target, kMaxSupportingFileBytes);
    if (!current.ok()) return tool_failure(current.status().message());
    auto replace_all = arg_bool(args, "replace_all", false);
    if (!replace_all.ok()) return tool_failure(replace_all.status().message());
    FuzzyReplaceResult r = fuzzy_find_and_replace(*current, old_string, new_string, *replace_all);
    if (!r.error.empty()) {
      if (edit_already_applied(*current, old_string, new_string)) {
        return {{"success", true},
                {"message", "The change is already in place; nothing to do."},
                {"path", *target}};
      }
      std::string hint = closest_lines_hint(old_string, *current);
      return tool_failure(r.error + (hint.empty() ? "" : "\n\nDid you mean:\n" + hint) +
                          "\nView the skill with skill_view to see its current text.");
    }
    const bool is_skill_md = *target == skill.path;
    if (is_skill_md) {
      if (auto e = skill_md_error(r.content))
        return tool_failure("The patched SKILL.md would be invalid: " + *e);
    }
    if (Status s = write_file_atomically(*target, r.content); !s.ok())
      return tool_failure(s.message());
    Json out = ok("Patched " + (is_skill_md ? std::string("SKILL.md") : file_path) + " of skill '" +
                      skill.dir_name + "' (" + std::to_string(r.replacements) +
                      " replacement(s), " + r.strategy + " match).",
                  *target);
    return out;
  }

  Json remove_skill(const Skill& skill) const {
    std::error_code ec;
    // Never a symlink (it could point anywhere), never a root, only inside the local root.
    if (fs::is_symlink(skill.dir, ec))
      return tool_failure("Refusing to delete '" + skill.dir_name + "': it is a symbolic link.");
    if (!strictly_inside(skill.dir, local_root())) {
      return tool_failure("Refusing to delete '" + skill.dir_name +
                          "': it is not inside the local skills directory.");
    }
    fs::remove_all(skill.dir, ec);
    if (ec) return tool_failure("Could not delete " + skill.dir + ": " + ec.message());
    return ok("Skill '" + skill.dir_name + "' deleted.", skill.dir);
  }

  Json write_supporting(const Skill& skill) const {
    const std::string file_path = text_arg(args, "file_path");
    if (!args.contains("file_content") || !args["file_content"].is_string()) {
      return tool_failure("write_file requires 'file_content'.");
    }
    const std::string content = args["file_content"].get<std::string>();
    auto target = resolve_skill_file(skill, file_path, true);
    if (!target.ok()) return tool_failure(target.status().message());
    if (content.size() > kMaxSupportingFileBytes) {
      return tool_failure("file_content is " + std::to_string(content.size()) +
                          " bytes; the limit is 1,048,576.");
    }
    if (*target == skill.path) {
      if (auto e = skill_md_error(content)) return tool_failure(*e);
    }
    if (Status s = write_file_atomically(*target, content); !s.ok())
      return tool_failure(s.message());
    return ok("Wrote " + file_path + " in skill '" + skill.dir_name + "'.", *target);
  }

  Json remove_supporting(const Skill& skill) const {
    const std::string file_path = text_arg(args, "file_path");
    auto target = resolve_skill_file(skill, file_path, false);
    if (!target.ok()) return tool_failure(target.status().message());
    std::error_code ec;
    if (!fs::is_regular_file(*target, ec))
      return tool_failure("No file " + file_path + " in skill '" + skill.dir_name + "'.");
    fs::remove(*target, ec);
    if (ec) return tool_failure("Could not remove " + file_path + ": " + ec.message());
    return ok("Removed " + file_path + " from skill '" + skill.dir_name + "'.", *target);
  }

  Json run() const {
    if (Status s = check_string_args(args, {"action", "name", "content", "category", "old_string",
                                            "new_string", "file_path", "file_content"});
        !s.ok()) {
      return tool_failure(s.message());
    }
    const std::string action = text_arg(args, "action");
    const std::string name = text_arg(args, "name");
    static const char* kActions[] = {"create", "edit",       "patch",
                                     "delete", "write_file", "remove_file"};
    if (std::none_of(std::begin(kActions), std::end(kActions),
                     [&](const char* a) { return action == a; })) {
      return tool_failure("Unknown action '" + action +
                          "'. Use create, edit, patch, delete, write_file or remove_file.");
    }
    if (name.empty()) return tool_failure(action + " requires 'name'.");
    if (auto e = skill_name_error(name, "skill name")) return tool_failure(*e);
    if (action == "create") return create(name);
    auto skill = writable_skill(name);
    if (!skill.ok()) return tool_failure(skill.status().message());
    if (action == "edit") return edit(*skill);
    if (action == "patch") return patch(*skill);
    if (action == "delete") return remove_skill(*skill);
    if (action == "write_file") return write_supporting(*skill);
    return remove_supporting(*skill);
  }
};

Json skill_manage_schema() {
  static const Json kSchema = Json::parse(R"({
    "type": "object",
    "properties": {
      "action": {"type": "string", "enum": ["create", "edit", "patch", "delete", "write_file", "remove_file"]},
      "name": {"type": "string", "description": "The skill's directory name: lowercase, digits, '.', '_', '-'."},
      "content": {"type": "string", "description": "create/edit: the full SKILL.md, frontmatter included."},
      "category": {"type": "string", "description": "create: an optional category directory."},
      "old_string": {"type": "string", "description": "patch: the text to replace."},
      "new_string": {"type": "string", "description": "patch: the replacement (empty deletes)."},
      "replace_all": {"type": "boolean", "description": "patch: replace every occurrence."},
      "file_path": {"type": "string", "description": "patch/write_file/remove_file: a path inside the skill, e.g. references/api.md."},
      "file_content": {"type": "string", "description": "write_file: the file's content."}
    },
    "required": ["action", "name"]
  })");
  return kSchema;
}

}  // namespace

ToolSpec skill_manage_tool(const SkillsOptions& options) {
  ToolSpec spec;
  spec.name = "skill_manage";
  spec.toolset = "skills";
  spec.description = kSkillManageDescription;
  spec.parameters = skill_manage_schema();
  spec.parallel_safe = false;
  spec.handler = [options](const Json& args, ToolContext& ctx) -> Result<std::string> {
    if (ctx.home.empty())
      return dump_json(tool_failure("Skills are not available: no hermes home is set."));
    const Json object = args.is_object() ? args : Json::object();
    return dump_json(Manage{ctx.home, options, object}.run());
  };
  return spec;
}

}  // namespace hermes::internal
