// terminal: run a shell command, after the approval gate. Foreground commands return
// their output (truncated head and tail, escape codes stripped, secrets masked);
// background commands return an id for process_manage.
#include <sys/stat.h>

#include <algorithm>

#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "safety/ansi_escape.hpp"
#include "safety/approval.hpp"
#include "safety/redaction_passes.hpp"
#include "safety/shell_lexer.hpp"
#include "tools/background_processes.hpp"
#include "tools/builtin_toolsets.hpp"
#include "tools/terminal_tools.hpp"
#include "tools/tool_args.hpp"

namespace hermes::internal {
namespace {

// The shell returns right away and leaves the process running with nobody to manage it.
bool detaches(const std::string& command) {
  std::string c = strip(command);
  const bool trailing_ampersand =
      !c.empty() && c.back() == '&' && (c.size() < 2 || c[c.size() - 2] != '&');
  if (trailing_ampersand) return true;
  for (const std::string& word : command_position_words(command)) {
    if (word == "nohup" || word == "setsid" || word == "disown") return true;
  }
  return false;
}

bool safe_workdir_chars(const std::string& dir) {
  return std::all_of(dir.begin(), dir.end(), [](unsigned char c) {
    return std::isalnum(c) ||
           std::string_view("/._-+@:,%= ~").find(static_cast<char>(c)) != std::string_view::npos ||
           c >= 0x80;
  });
}

std::string program_of(const std::string& command) {
  const std::vector<std::string_view> segments = shell_segments(command);
  if (segments.empty()) return "";
  auto words = shell_words(segments.front());
  if (!words) return "";
  auto index = shell_program_index(*words);
  return index ? program_basename((*words)[*index]) : "";
}

Result<std::string> resolve_workdir(const Json& args, const TerminalOptions& options) {
  auto workdir = arg_optional_string(args, "workdir");
  if (!workdir.ok()) return workdir.status();
  if (!workdir->has_value() || (*workdir)->empty()) return options.workdir;
  const std::string& dir = **workdir;
  if (dir[0] != '/')
    return Status::invalid_argument("workdir must be an absolute path, got '" + dir + "'");
  if (!safe_workdir_chars(dir))
    return Status::invalid_argument("workdir contains characters that are not allowed");
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return Status::invalid_argument("workdir '" + dir + "' is not an existing directory");
  }
  return dir;
}

Json blocked_result(const std::string& message) {
  return {{"output", ""}, {"exit_code", -1}, {"error", message}, {"status", "blocked"}};
}

Result<std::string> run_background(const TerminalOptions& options, const ShellCommand& cmd,
                                   ToolContext& ctx) {
  if (ctx.state == nullptr)
    return Status::failed_precondition("background processes need per-agent state");
  auto registry = ctx.state->get_or_create<BackgroundProcesses>(kBackgroundProcessesKey);
  auto proc = registry->start(cmd, options.kill_grace);
  if (!proc.ok()) return proc.status();
  return dump_json({{"output", "Background process started"},
                    {"session_id", (*proc)->id()},
                    {"pid", (*proc)->pid()},
                    {"exit_code", 0},
                    {"error", nullptr}});
}

Json foreground_result(const ForegroundResult& r, const std::string& command,
                       std::chrono::seconds timeout) {
  std::string output = strip(redact_terminal_output(strip_ansi(r.output), command));
  Json result = {{"output", std::move(output)}};
  if (r.timed_out) {
    result["exit_code"] = 124;
    result["error"] =
        "Command timed out after " + std::to_string(timeout.count()) +
        "s and was stopped. Run long commands with background=true, or give a larger timeout.";
  } else if (r.cancelled) {
    result["exit_code"] = 130;
    result["error"] = "Command interrupted: the turn was cancelled.";
  } else {
    result["exit_code"] = r.exit_code;
    result["error"] =
        r.exit_code == 0 ? Json() : Json("Command exited with code " + std::to_string(r.exit_code));
    if (auto meaning = exit_code_meaning(program_of(command), r.exit_code))
      result["exit_code_meaning"] = *meaning;
  }
  return result;
}

Result<std::string> run_terminal(const TerminalOptions& options, const ApprovalGate& gate,
                                 const Json& args, ToolContext& ctx) {
  auto command = arg_string(args, "command");
  if (!command.ok()) return command.status();
  if (strip(*command).empty()) return Status::invalid_argument("command is empty");
  auto background = arg_bool(args, "background", false);
  if (!background.ok()) return background.status();
  auto timeout_arg = arg_optional_int(args, "timeout");
  if (!timeout_arg.ok()) return timeout_arg.status();
  std::chrono::seconds timeout = options.default_timeout;
  std::string note;
  if (timeout_arg->has_value()) {
    if (**timeout_arg < 1) return Status::invalid_argument("timeout must be at least 1 second");
    timeout = std::chrono::seconds(**timeout_arg);
    if (timeout > options.max_timeout) {
      timeout = options.max_timeout;
      note = "timeout capped at " + std::to_string(options.max_timeout.count()) +
             "s; use background=true for longer commands";
    }
  }
  auto workdir = resolve_workdir(args, options);
  if (!workdir.ok()) return workdir.status();
  if (!*background && detaches(*command)) {
    return Status::invalid_argument(
        "This command leaves a process running after the shell returns (trailing &, nohup, setsid "
        "or disown). "
        "Run it with background=true instead, then manage it with process_manage.");
  }
  const ApprovalOutcome approval = gate.check_command(*command, ctx);
  if (!approval.approved) return dump_json(blocked_result(approval.message));

  const ShellCommand cmd{*command, *workdir, command_environment(options)};
  if (*background) return run_background(options, cmd, ctx);
  auto run = run_foreground(cmd, timeout, ctx.cancel, options.max_output_chars, options.kill_grace);
  if (!run.ok()) return run.status();
  Json result = foreground_result(*run, *command, timeout);
  if (!approval.message.empty()) result["approval"] = approval.message;
  if (!note.empty()) result["note"] = note;
  return dump_json(result);
}

}  // namespace

std::optional<std::string> exit_code_meaning(const std::string& program, int code) {
  if (code == 1) {
    if (program == "grep" || program == "egrep" || program == "fgrep" || program == "rg" ||
        program == "ag") {
      return "No matches found (not an error)";
    }
    if (program == "diff" || program == "cmp") return "Files differ (not an error)";
    if (program == "test" || program == "[") return "Condition is false (not an error)";
  }
  switch (code) {
    case 124:
      return "Timed out (timeout utility)";
    case 126:
      return "Found but not executable";
    case 127:
      return "Command not found";
    case 130:
      return "Interrupted (SIGINT)";
    case 137:
      return "Killed (SIGKILL); possibly out of memory";
    case 139:
      return "Segmentation fault (SIGSEGV)";
    case 143:
      return "Terminated (SIGTERM)";
    default:
      return std::nullopt;
  }
}

ToolSpec terminal_tool(const TerminalOptions& options, std::shared_ptr<const ApprovalGate> gate) {
  ToolSpec spec;
  spec.name = "terminal";
  spec.toolset = "terminal";
  spec.description =
      "Run a shell command (/bin/sh -c) and get its combined output and exit code. Default timeout "
      "180s (max "
      "600s). For servers, watchers and anything long-running use background=true and manage it "
      "with "
      "process_manage. Dangerous commands need the user's approval; if one is blocked, do not "
      "retry it or work "
      "around it. Prefer read_file, patch and search_files for file work.";
  static const Json kSchema = Json::parse(R"({
    "type": "object",
    "properties": {
      "command": {"type": "string", "description": "The command to run."},
      "background": {"type": "boolean", "description": "Start it and return at once with a session_id.", "default": false},
      "timeout": {"type": "integer", "description": "Seconds before a foreground command is stopped (1-600).", "default": 180},
      "workdir": {"type": "string", "description": "Absolute directory to run in."}
    },
    "required": ["command"]
  })");
  spec.parameters = kSchema;
  spec.handler = [options, gate](const Json& args, ToolContext& ctx) {
    return run_terminal(options, *gate, args, ctx);
  };
  spec.parallel_safe = false;
  return spec;
}

namespace {

// The terminal tools bound themselves: a command (or a wait on one) stops at its own
// timeout, at most max_timeout, after an approval that may take the approval timeout. The
// agent's deadline must not cut one off first, so theirs covers all of that and the kill.
std::chrono::milliseconds terminal_call_timeout(const TerminalOptions& options,
                                                const ApprovalOptions& approvals) {
  constexpr std::chrono::seconds kMargin{30};
  return std::chrono::duration_cast<std::chrono::milliseconds>(options.max_timeout) +
         approvals.timeout + options.kill_grace + kMargin;
}

}  // namespace

std::vector<ToolSpec> terminal_tools(const TerminalOptions& options,
                                     const ApprovalOptions& approvals) {
  auto gate = std::make_shared<const ApprovalGate>(approvals, "");
  std::vector<ToolSpec> specs{terminal_tool(options, gate), process_manage_tool(options, gate)};
  for (ToolSpec& spec : specs) spec.call_timeout = terminal_call_timeout(options, approvals);
  return specs;
}

}  // namespace hermes::internal
