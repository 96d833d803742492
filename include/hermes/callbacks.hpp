// hermes/callbacks.hpp — how a running turn talks to its host: streamed text, tool
// progress, status notices, and the questions only a human can answer (clarify,
// approval of a dangerous command).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/export.hpp"
#include "hermes/json.hpp"

namespace hermes {

// A tool starting or finishing, for progress displays.
struct ToolProgress {
  enum class Phase { kStarted, kCompleted };
  Phase phase = Phase::kStarted;
  std::string call_id;
  std::string name;
  const Json* arguments = nullptr;  // Parsed arguments; valid during the callback.
  std::string preview;              // A short one-line rendering of the arguments.
  // Completed only:
  std::chrono::milliseconds duration{0};
  bool is_error = false;
  std::string_view result;  // Valid during the callback.
};

// One tool outcome of the previous iteration, as step callbacks see it.
struct ToolOutcome {
  std::string name;
  std::string arguments;
  std::string result;
};

// A command waiting for a human decision: a terminal command, or text for the stdin of a
// background process (tool_name "process_manage"; `command` then holds the unfinished line
// already sent with the new text after it).
struct ApprovalRequest {
  std::string command;
  std::string description;  // Why it needs approval, e.g. "recursive delete".
  // What a session/always approval covers: "<description>: <command>". It approves this
  // exact command (trimmed) for this reason again, nothing broader: approving
  // `rm -r build` never approves `rm -r /home/x`.
  std::string pattern_key;
  std::string tool_name;
};

// A provider rejected its credential (HTTP 401, or a 403 that is not about billing).
struct AuthRefreshRequest {
  std::string provider;  // The provider's name, e.g. "openai", "anthropic", "custom".
  std::string base_url;
  std::string model;
  int http_status = 0;
  std::string message;  // The provider's error text.
};

enum class ApprovalDecision {
  kDeny,
  kOnce,     // Run this one command.
  kSession,  // Allow this command (its pattern_key) for the rest of the session.
  kAlways,   // Allow this command permanently (<home>/command_allowlist.json).
};

// The callbacks of a turn. Every member may be empty. Callbacks run on the thread of the
// call (tool progress of parallel tools: on the tool's worker thread; on_approval: on a
// helper thread, so that an unanswered approval can time out and count as a denial), must
// not call back into the same Agent except interrupt()/steer(), and should return
// quickly. An exception thrown by a callback is caught and logged; it never breaks the
// turn.
struct Callbacks {
  // Visible text as it streams. An empty view closes the current block (tools follow).
  std::function<void(std::string_view delta)> on_stream_delta;
  // Reasoning text as it streams.
  std::function<void(std::string_view delta)> on_reasoning_delta;
  // Waiting for the model starts (true) and stops (false), for spinners.
  std::function<void(bool thinking)> on_thinking;
  // The stream shows the model started a tool call; arguments are not complete yet.
  std::function<void(std::string_view tool_name)> on_tool_generation;
  // A tool started or completed.
  std::function<void(const ToolProgress& progress)> on_tool_progress;
  // The start of every outer iteration, with the tools run in the previous one.
  std::function<void(int api_call_count, const std::vector<ToolOutcome>& previous)> on_step;
  // Lifecycle and warning notices, one kind each so a host can word or act on them (the
  // message is English for a person and names no command of any host):
  //   "lifecycle", "warning", "retry", "fallback", "review", "tool_progress";
  //   "compacted": the transcript was compacted;
  //   "compression_blocked": the context is over the threshold but compaction may not run;
  //   "compression_failed": a compaction failed and the transcript is unchanged;
  //   "compression_repeated": the session has been compacted twice or more;
  //   "compression_ineffective": compaction is paused after passes that saved little;
  //   "store_cannot_compact": the session store has no compaction capability, so compacted
  //   transcripts live in memory only (said once per agent);
  //   "compression_aborted", "summary_model_fallback", "static_summary": how the summary
  //   of a compaction was made (see ContextCompressor).
  std::function<void(std::string_view kind, std::string_view message)> on_status;
  // Visible text that accompanies tool calls.
  std::function<void(std::string_view text)> on_interim_assistant;
  // The clarify tool asks the user; return the answer, or nullopt if nobody answered.
  std::function<std::optional<std::string>(const std::string& question,
                                           const std::vector<std::string>& choices)>
      on_clarify;
  // A command needs approval (see ApprovalMode). Without this callback it is denied.
  std::function<ApprovalDecision(const ApprovalRequest& request)> on_approval;
  // The provider rejected the credential. Return a fresh one (an OAuth token just
  // refreshed, a key re-read from a vault) and the call is retried with it at once; return
  // nullopt (or an empty string) and the agent goes on to rotate keys or fall back. Asked
  // at most once per model call, before any key rotation or fallback.
  std::function<std::optional<std::string>(const AuthRefreshRequest& request)> on_auth_refresh;
};

}  // namespace hermes
