// register_builtin_tools: the built-in toolsets and their presets.
#include "hermes/builtin_tools.hpp"

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <filesystem>

#include "tools/builtin_toolsets.hpp"

namespace hermes {
namespace {

Result<std::string> resolve_root(const std::string& root) {
  std::error_code ec;
  std::filesystem::path p =
      root.empty() ? std::filesystem::current_path(ec) : std::filesystem::path(root);
  if (ec)
    return Status::invalid_argument("file.root: cannot determine the working directory: " +
                                    ec.message());
  p = std::filesystem::weakly_canonical(std::filesystem::absolute(p, ec), ec);
  if (ec || !std::filesystem::is_directory(p)) {
    return Status::invalid_argument("file.root: '" + root + "' is not a directory");
  }
  return p.string();
}

Status register_all(ToolRegistry& registry, std::vector<ToolSpec> specs) {
  for (ToolSpec& spec : specs) HERMES_RETURN_IF_ERROR(registry.register_tool(std::move(spec)));
  return {};
}

}  // namespace

std::vector<std::string> default_toolsets() {
  return {kDefaultToolsets.begin(), kDefaultToolsets.end()};
}

Status register_builtin_tools(ToolRegistry& registry, const BuiltinToolOptions& options) {
  std::vector<std::string> wanted = options.toolsets;
  if (wanted.empty()) wanted.assign(kBuiltinToolsets.begin(), kBuiltinToolsets.end());
  for (const std::string& name : wanted) {
    if (std::find(kBuiltinToolsets.begin(), kBuiltinToolsets.end(), name) ==
        kBuiltinToolsets.end()) {
      return Status::invalid_argument("toolsets: '" + name + "' is not a built-in toolset");
    }
  }
  auto want = [&](std::string_view name) {
    return std::find(wanted.begin(), wanted.end(), name) != wanted.end();
  };

  FileToolOptions file = options.file;
  if (want("file") || want("terminal")) {
    auto root = resolve_root(file.root);
    if (!root.ok()) return root.status();
    file.root = *root;
  }
  TerminalOptions terminal = options.terminal;
  if (terminal.workdir.empty()) terminal.workdir = file.root;

  if (want("todo")) HERMES_RETURN_IF_ERROR(register_all(registry, internal::todo_tools()));
  if (want("clarify")) HERMES_RETURN_IF_ERROR(register_all(registry, internal::clarify_tools()));
  if (want("delegation"))
    HERMES_RETURN_IF_ERROR(register_all(registry, internal::delegation_tools()));
  if (want("memory")) {
    HERMES_RETURN_IF_ERROR(register_all(registry, internal::memory_tools(options.memory)));
    registry.record_setting("memory", Json{{"memory_chars", options.memory.memory_chars},
                                           {"user_chars", options.memory.user_chars}});
  }
  if (want("skills")) {
    HERMES_RETURN_IF_ERROR(register_all(registry, internal::skills_tools(options.skills)));
    registry.record_setting("skills", Json{{"external_dirs", options.skills.external_dirs},
                                           {"disabled", options.skills.disabled},
                                           {"template_vars", options.skills.template_vars}});
  }
  if (want("file"))
    HERMES_RETURN_IF_ERROR(register_all(registry, internal::file_tools(file, options.approvals)));
  if (want("terminal")) {
    HERMES_RETURN_IF_ERROR(
        register_all(registry, internal::terminal_tools(terminal, options.approvals)));
  }

  registry.define_toolset("coding", {"todo", "clarify", "memory", "session_search", "skills",
                                     "file", "terminal", "delegation"});
  // Unattended runs: nobody is there to answer a clarifying question.
  registry.define_toolset(
      "headless", {"todo", "memory", "session_search", "skills", "file", "terminal", "delegation"});
  registry.define_toolset("debugging", {"terminal", "file"});
  registry.define_toolset("safe", default_toolsets());
  return {};
}

std::optional<MemoryLimits> builtin_memory_limits(const ToolRegistry& registry) {
  const std::optional<Json> recorded = registry.setting("memory");
  if (!recorded || !recorded->is_object()) return std::nullopt;
  MemoryLimits limits;
  limits.memory_chars = recorded->value("memory_chars", limits.memory_chars);
  limits.user_chars = recorded->value("user_chars", limits.user_chars);
  return limits;
}

std::optional<SkillsOptions> builtin_skills_options(const ToolRegistry& registry) {
  const std::optional<Json> recorded = registry.setting("skills");
  if (!recorded || !recorded->is_object()) return std::nullopt;
  SkillsOptions skills;
  skills.external_dirs = recorded->value("external_dirs", skills.external_dirs);
  skills.disabled = recorded->value("disabled", skills.disabled);
  skills.template_vars = recorded->value("template_vars", skills.template_vars);
  return skills;
}

}  // namespace hermes
