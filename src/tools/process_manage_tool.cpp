// process_manage: the background processes started by terminal(background=true).
#include <algorithm>

#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "safety/ansi_escape.hpp"
#include "safety/approval.hpp"
#include "safety/redaction_passes.hpp"
#include "tools/background_processes.hpp"
#include "tools/terminal_tools.hpp"
#include "tools/tool_args.hpp"

namespace hermes::internal {
namespace {

constexpr std::size_t kDefaultLogChars = 50000;

std::string clean(const std::string& text, const BackgroundProcess& p) {
  return redact_terminal_output(strip_ansi(text), p.command());
}

Json describe(const BackgroundProcess& p) {
  const auto uptime = std::chrono::duration_cast<std::chrono::seconds>(
      std::chrono::system_clock::now() - p.started());
  Json j = {{"session_id", p.id()},
            {"command", p.command()},
            {"pid", p.pid()},
            {"status", p.running() ? "running" : "exited"},
            {"uptime_seconds", uptime.count()}};
  if (auto code = p.exit_code()) j["exit_code"] = *code;
  return j;
}

Json with_new_output(BackgroundProcess& p) {
  Json j = describe(p);
  const RollingBuffer::Slice slice = p.poll();
  j["output"] = clean(slice.text, p);
  if (slice.lost) j["note"] = "Some output was dropped: only the last 200,000 characters are kept.";
  return j;
}

// Text for a process's stdin goes through the same gate as a terminal command: a shell
// (or anything else) started in the background runs what it reads, so `bash` followed by
// submit "rm -rf ~" must be refused or approved exactly like `rm -rf ~` itself. The check
// covers the unfinished line already sent, so a command split across writes is seen whole.
Result<std::string> write_to_process(const ApprovalGate& gate, BackgroundProcess& proc,
                                     const std::string& id, const std::string& data,
                                     ToolContext& ctx) {
  const std::string pending = proc.unfinished_input() + data;
  std::string approval_note;
  if (!is_blank(pending)) {
    const ApprovalOutcome approval = gate.check_command(pending, ctx);
    if (!approval.approved) {
      return dump_json({{"session_id", id},
                        {"written", false},
                        {"status", "blocked"},
                        {"error", approval.message}});
    }
    approval_note = approval.message;
  }
  if (Status s = proc.write_input(data); !s.ok()) return s;
  Json result = {{"session_id", id}, {"written", true}};
  if (!approval_note.empty()) result["approval"] = approval_note;
  return dump_json(result);
}

Result<std::string> run_manage(const TerminalOptions& options, const ApprovalGate& gate,
                               const Json& args, ToolContext& ctx) {
  if (ctx.state == nullptr)
    return Status::failed_precondition("background processes need per-agent state");
  auto registry = ctx.state->get_or_create<BackgroundProcesses>(kBackgroundProcessesKey);
  auto action = arg_string(args, "action");
  if (!action.ok()) return action.status();
  if (*action == "list") {
    Json list = Json::array();
    for (const auto& p : registry->list()) list.push_back(describe(*p));
    return dump_json({{"processes", list}, {"count", list.size()}});
  }
  auto id = arg_string(args, "session_id");
  if (!id.ok()) return id.status();
  auto proc = registry->find(*id);
  if (!proc)
    return Status::not_found("No background process '" + *id + "'. Use action='list' to see them.");
  if (*action == "poll") return dump_json(with_new_output(*proc));
  if (*action == "log") {
    auto limit = arg_optional_int(args, "limit");
    if (!limit.ok()) return limit.status();
    const auto max = static_cast<std::size_t>(std::clamp<int64_t>(
        limit->value_or(kDefaultLogChars), 1, BackgroundProcess::kOutputWindow));
    Json j = describe(*proc);
    j["output"] = clean(proc->log(max), *proc);
    return dump_json(j);
  }
  if (*action == "wait") {
    auto timeout = arg_optional_int(args, "timeout");
    if (!timeout.ok()) return timeout.status();
    const auto seconds = std::clamp<int64_t>(timeout->value_or(30), 1, options.max_timeout.count());
    const CancelToken cancel = ctx.cancel;
    const bool exited =
        proc->wait(std::chrono::seconds(seconds), [&cancel] { return cancel.cancelled(); });
    Json j = with_new_output(*proc);
    if (!exited) j["note"] = "Still running after " + std::to_string(seconds) + "s.";
    return dump_json(j);
  }
  if (*action == "kill") {
    proc->stop();
    Json j = with_new_output(*proc);
    j["killed"] = true;
    return dump_json(j);
  }
  if (*action == "write" || *action == "submit") {
    auto data = arg_string(args, "data");
    if (!data.ok()) return data.status();
    return write_to_process(gate, *proc, *id, *action == "submit" ? *data + "\n" : *data, ctx);
  }
  if (*action == "close") {
    if (Status s = proc->close_input(); !s.ok()) return s;
    return dump_json({{"session_id", *id}, {"input_closed", true}});
  }
  return Status::invalid_argument("Unknown action '" + *action +
                                  "'. Use list, poll, log, wait, kill, write, submit or close.");
}

}  // namespace

ToolSpec process_manage_tool(const TerminalOptions& options,
                             std::shared_ptr<const ApprovalGate> gate) {
  ToolSpec spec;
  spec.name = "process_manage";
  spec.toolset = "terminal";
  spec.description =
      "Manage background processes started with terminal(background=true). list: all of them. "
      "poll: status and "
      "output since the last poll. log: the recent output. wait: block until it exits (timeout "
      "seconds, default "
      "30). kill: stop it. write/submit: send data (submit adds a newline) to its input; what "
      "is sent is checked like a terminal command and may need the user's approval. close: "
      "close its input.";
  static const Json kSchema = Json::parse(R"({
    "type": "object",
    "properties": {
      "action": {"type": "string", "enum": ["list", "poll", "log", "wait", "kill", "write", "submit", "close"]},
      "session_id": {"type": "string", "description": "The id terminal returned, e.g. proc_1a2b3c4d5e6f."},
      "data": {"type": "string", "description": "write/submit: the text to send."},
      "timeout": {"type": "integer", "description": "wait: seconds to wait."},
      "limit": {"type": "integer", "description": "log: how many characters of recent output."}
    },
    "required": ["action"]
  })");
  spec.parameters = kSchema;
  spec.handler = [options, gate](const Json& args, ToolContext& ctx) {
    return run_manage(options, *gate, args, ctx);
  };
  spec.parallel_safe = false;
  return spec;
}

}  // namespace hermes::internal
