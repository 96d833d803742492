// hermes/skills.hpp — skills: procedures the agent loads on demand.
//
// A skill is a directory holding a SKILL.md (YAML frontmatter with at least `name` and
// `description`, then Markdown instructions) and optional references/, templates/,
// scripts/ and assets/. Skills live under <home>/skills/ (optionally in category
// directories, skills/<category>/<name>/SKILL.md) and in extra read-only directories.
// Only a compact index of names and one-line descriptions goes into the system prompt;
// the model reads a skill with skill_view, and creates or repairs skills with
// skill_manage. A user can invoke a skill as a slash command, /<skill-name>.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hermes/export.hpp"
#include "hermes/status.hpp"

namespace hermes {

struct SkillsOptions {
  // More skill roots after <home>/skills (shared team skills, a project's). Read-only for
  // skill_manage. On a name collision the local skill wins, then the first root listed.
  std::vector<std::string> external_dirs;
  // Skills (by frontmatter name or directory name) hidden from the index, the listing and
  // slash commands.
  std::vector<std::string> disabled;
  // Replace ${HERMES_SKILL_DIR} and ${HERMES_SESSION_ID} in a skill's text when it is
  // loaded.
  bool template_vars = true;
};

// The skills section of the system prompt: an instruction to check the list before
// answering, then the skills grouped by category with their descriptions. Skills for
// another OS, disabled skills, skills whose `requires_tools`/`requires_toolsets` are not
// all available, and fallback skills whose `fallback_for_*` tool is available are left
// out; when both lists are empty no tool condition is applied. Empty when no skill
// qualifies.
//
// The result is cached in process and on disk (<home>/.skills_index_cache.json) and
// rebuilt when a SKILL.md or DESCRIPTION.md changes. Thread-safe.
HERMES_API std::string build_skills_index(const std::string& home, const SkillsOptions& options,
                                          const std::vector<std::string>& available_tools = {},
                                          const std::vector<std::string>& available_toolsets = {});

// The guidance added to the system prompt when skill_manage is offered: save non-trivial
// workflows as skills, and patch a skill that proved wrong as soon as that shows.
HERMES_API std::string_view skills_guidance();

// A skill reachable as a slash command.
struct SkillCommand {
  std::string command;      // "/deploy-staging"
  std::string name;         // The skill's name.
  std::string description;  // One line, for menus.
};

// The slash commands of the enabled skills, in lookup order (local skills first). Two
// skills with the same slug: the first wins. Thread-safe.
HERMES_API std::vector<SkillCommand> list_skill_commands(const std::string& home,
                                                         const SkillsOptions& options);

// The command slug of a skill name: lower case, spaces to '-', other characters than
// letters, digits, '_' and '-' dropped, repeated '-' collapsed, no '-' at the ends.
HERMES_API std::string skill_command_slug(std::string_view name);

// The user message of a `/skill-name [instruction]` turn: the skill's full text preceded
// by a line saying the user invoked it, its directory (for relative paths and scripts),
// its supporting files, and the user's instruction. `command` may be "/name", "name" or
// use '_' for '-'. NotFound names the unknown skill. Thread-safe.
HERMES_API Result<std::string> build_skill_invocation_message(const std::string& home,
                                                              const SkillsOptions& options,
                                                              std::string_view command,
                                                              std::string_view instruction,
                                                              const std::string& session_id = "");

}  // namespace hermes
