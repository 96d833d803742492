// Rules for what skill_manage may write: names, SKILL.md contents, supporting-file paths.
#pragma once

#include <optional>
#include <string>

#include "skills/skill_catalog.hpp"

namespace hermes::internal {

constexpr std::size_t kMaxSkillNameChars = 64;
constexpr std::size_t kMaxSkillDescriptionChars = 1024;
constexpr std::size_t kMaxSkillMdChars = 100000;
constexpr std::size_t kMaxSupportingFileBytes = 1048576;

// Skill and category names: [a-z0-9][a-z0-9._-]*, at most 64 characters. nullopt when
// valid, else the error for the model.
std::optional<std::string> skill_name_error(const std::string& name, const char* what);

// A SKILL.md must have frontmatter with name and description (at most 1,024 characters),
// a non-empty body, and at most 100,000 characters in all.
std::optional<std::string> skill_md_error(const std::string& content);

// A supporting file path: relative, no "..", under references/, templates/, scripts/ or
// assets/ (or SKILL.md itself when `allow_skill_md`), with a file name, and resolving
// inside the skill directory even through symlinks. Returns the absolute path.
Result<std::string> resolve_skill_file(const Skill& skill, const std::string& file_path,
                                       bool allow_skill_md);

// Whether `path` lies strictly inside `dir` once both are resolved.
bool strictly_inside(const std::string& path, const std::string& dir);

}  // namespace hermes::internal
