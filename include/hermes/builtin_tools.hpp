// hermes/builtin_tools.hpp — the tools hermes ships: a task list, clarifying questions,
// persistent memory, skills, file access and a shell.
//
//   auto tools = std::make_shared<hermes::ToolRegistry>();
//   hermes::BuiltinToolOptions builtins;
//   builtins.file.root = "/srv/project";     // The file tools stay inside it.
//   hermes::register_builtin_tools(*tools, builtins);
//   options.tools = tools;
//   options.tool_use.enabled_toolsets = hermes::default_toolsets();  // No file or shell...
//   options.tool_use.enabled_toolsets.push_back("file");             // ...unless enabled.
//
// The built-ins register through ToolRegistry::register_tool like any user tool and keep
// their per-agent state in ToolContext::state.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/export.hpp"
#include "hermes/memory.hpp"
#include "hermes/safety.hpp"
#include "hermes/skills.hpp"
#include "hermes/status.hpp"
#include "hermes/tool.hpp"

namespace hermes {

// The toolsets register_builtin_tools can register, and their tools:
//   todo      todo_list                  clarify   clarify
//   memory    memory                     skills    skills_list, skill_view, skill_manage
//   file      read_file, write_file, patch, search_files
//   terminal  terminal, process_manage
//   delegation  delegate_task (sub-agents; run by the Agent, see AgentOptions::delegation)
inline constexpr std::array<std::string_view, 7> kBuiltinToolsets = {
    "todo", "clarify", "memory", "skills", "file", "terminal", "delegation"};

// The toolsets an agent should enable by default: no file or shell access and no
// sub-agents (each costs model calls), which embedders opt into. (session_search is
// registered by the session store.)
inline constexpr std::array<std::string_view, 5> kDefaultToolsets = {
    "todo", "memory", "session_search", "skills", "clarify"};

// kDefaultToolsets as AgentOptions::ToolUse::enabled_toolsets wants them.
HERMES_API std::vector<std::string> default_toolsets();

// Toolset presets defined by register_builtin_tools:
//   "coding"     todo, clarify, memory, session_search, skills, file, terminal, delegation
//   "headless"   coding without clarify, for runs nobody watches
//   "debugging"  terminal and file
//   "safe"       the defaults: nothing that touches files or runs commands

struct FileToolOptions {
  // Relative paths resolve against this directory, and the file tools stay inside it:
  // `..`, absolute paths and symlinks cannot lead out. Empty: the working directory of
  // the process when the tools are registered.
  std::string root;
  // More directories the file tools may read and write (absolute).
  std::vector<std::string> allowed_roots;
  // A read_file page larger than this many characters is refused (ask for fewer lines).
  std::size_t max_read_chars = 100000;
};

struct TerminalOptions {
  // Where commands run unless the call names a workdir. Empty: the file tools' root.
  std::string workdir;
  std::chrono::seconds default_timeout{180};
  // Longer foreground timeouts are clamped to this (background processes have none).
  std::chrono::seconds max_timeout{600};
  // Output beyond this keeps its first 40% and last 60% around a truncation notice.
  std::size_t max_output_chars = 50000;
  // Variables set (or overridden) for every command, on top of the inherited environment.
  std::map<std::string, std::string> environment;
  // Start from the process's environment (true) or from `environment` alone. Inherited
  // variables that hold secrets are left out: names with a word TOKEN, KEY, APIKEY,
  // SECRET, PASSWORD, PASSWD, CREDENTIAL(S) or PWD (OPENAI_API_KEY, GITHUB_TOKEN,
  // AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), AZURE_*,
  // GOOGLE_APPLICATION_CREDENTIALS, and *_URL/*_URI/*_DSN values with a password in them.
  bool inherit_environment = true;
  // Inherited variables passed to commands despite such a name, e.g. {"GH_TOKEN"} for a
  // model that is to use the gh CLI. (Variables in `environment` are always passed.)
  std::vector<std::string> env_passthrough;
  // After an interrupt, how long a command gets to exit on SIGTERM before SIGKILL.
  std::chrono::milliseconds kill_grace{2000};
};

struct BuiltinToolOptions {
  // The toolsets to register; empty: all of kBuiltinToolsets.
  std::vector<std::string> toolsets;
  FileToolOptions file;
  TerminalOptions terminal;
  ApprovalOptions approvals;
  MemoryLimits memory;
  SkillsOptions skills;
};

// Registers the built-in tools (and the presets above) in `registry`. InvalidArgument for
// an unknown toolset name or an unusable root directory. Tools already registered under
// the same names by the same toolsets are replaced.
HERMES_API Status register_builtin_tools(ToolRegistry& registry,
                                         const BuiltinToolOptions& options = {});

// What register_builtin_tools gave `registry`'s memory and skills tools, or nullopt when
// it registered none there.
HERMES_API std::optional<MemoryLimits> builtin_memory_limits(const ToolRegistry& registry);
HERMES_API std::optional<SkillsOptions> builtin_skills_options(const ToolRegistry& registry);

}  // namespace hermes
