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
  if (want("memory"))
    HERMES_RETURN_IF_ERROR(register_all(registry, internal::memory_tools(options.memory)));
  if (want("skills"))
    HERMES_RETURN_IF_ERROR(register_all(registry, internal::skills_tools(options.skills)));
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

}  // namespace hermes
