// Finding skills: every SKILL.md under <home>/skills and the external skill roots,
// parsed, with the conditions that decide whether the index shows them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "hermes/json.hpp"
#include "hermes/skills.hpp"

namespace hermes::internal {

struct SkillRoot {
  std::string path;
  bool local = false;  // <home>/skills: the only root skill_manage writes to.
};

struct Skill {
  std::string name;         // The frontmatter name (the directory name when missing).
  std::string dir_name;     // The identity lookups use.
  std::string description;  // Empty when missing.
  std::string category;     // The directories between the root and the skill; may be empty.
  std::string dir;          // Absolute skill directory.
  std::string path;         // Absolute path of SKILL.md.
  std::string root;
  bool local = false;
  Json frontmatter = Json::object();
  std::string body;
  std::string error;  // Why the frontmatter is unusable; such skills stay out of indexes.
};

// <home>/skills first, then the external directories, without duplicates.
std::vector<SkillRoot> skill_roots(const std::string& home, const SkillsOptions& options);

// Every skill, in precedence order (local before external, then path order); the first
// skill with a given directory name hides later ones.
std::vector<Skill> discover_skills(const std::string& home, const SkillsOptions& options);

// The skill whose directory name (or, failing that, frontmatter name) is `name`.
std::optional<Skill> find_skill(const std::string& home, const SkillsOptions& options,
                                const std::string& name);

bool skill_disabled(const Skill& skill, const SkillsOptions& options);
// Whether the skill's `platforms` list (if any) includes this OS.
bool skill_supports_this_platform(const Skill& skill);
// Whether the index shows the skill given what is available (see build_skills_index).
bool skill_conditions_met(const Skill& skill, const std::vector<std::string>& tools,
                          const std::vector<std::string>& toolsets);

// metadata.hermes.<key> as a list of strings.
std::vector<std::string> skill_metadata_list(const Skill& skill, const std::string& key);

// The files of a skill besides SKILL.md, relative to its directory, sorted.
std::vector<std::string> skill_supporting_files(const Skill& skill);

// The skill's text with ${HERMES_SKILL_DIR} and ${HERMES_SESSION_ID} replaced (the
// session id only when known).
std::string substitute_skill_templates(const std::string& text, const Skill& skill,
                                       const std::string& session_id);

}  // namespace hermes::internal
