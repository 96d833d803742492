// The skills toolset: skills_list, skill_view and skill_manage.
#pragma once

#include "hermes/skills.hpp"
#include "hermes/tool.hpp"

namespace hermes::internal {

ToolSpec skill_manage_tool(const SkillsOptions& options);

}  // namespace hermes::internal
