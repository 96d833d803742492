#include "agent/tool_executor.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <thread>
#include <typeinfo>

#include "agent/safe_callback.hpp"
#include "agent/timed_tool_group.hpp"
#include "common/fiber.hpp"
#include "common/json_text.hpp"
#include "common/text_utils.hpp"

namespace hermes::internal {
namespace {

constexpr std::size_t kMaxErrorChars = 2000;

std::string demangled_type_name(const std::type_info& type) {
  int status = 0;
  char* name = abi::__cxa_demangle(type.name(), nullptr, nullptr, &status);
  std::string out = (status == 0 && name != nullptr) ? name : type.name();
  std::free(name);
  return out;
}

std::string error_json(std::string message) {
  if (message.size() > kMaxErrorChars)
    message = message.substr(0, kMaxErrorChars) + "\xE2\x80\xA6 [truncated]";
  return dump_json(Json{{"error", std::move(message)}});
}

std::string path_of(const ToolInvocation& inv) {
  if (!inv.spec || inv.spec->path_argument.empty() || !inv.arguments.is_object()) return "";
  auto it = inv.arguments.find(inv.spec->path_argument);
  return (it != inv.arguments.end() && it->is_string()) ? it->get<std::string>() : "";
}

// Two paths overlap when they are equal or one is a directory prefix of the other.
bool paths_overlap(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return true;  // Unknown paths are assumed to overlap.
  if (a == b) return true;
  const std::string& shorter = a.size() < b.size() ? a : b;
  const std::string& longer = a.size() < b.size() ? b : a;
  return longer.compare(0, shorter.size(), shorter) == 0 &&
         (shorter.back() == '/' || longer[shorter.size()] == '/');
}

enum class Concurrency { kAlone, kShared, kPathScoped };

Concurrency concurrency_of(const ToolInvocation& inv) {
  if (!inv.spec) return Concurrency::kShared;  // Nothing runs.
  if (inv.spec->interactive) return Concurrency::kAlone;
  if (inv.spec->parallel_safe) return Concurrency::kShared;
  if (!inv.spec->path_argument.empty()) return Concurrency::kPathScoped;
  return Concurrency::kAlone;
}

std::string preview_of(const Json& arguments) {
  return one_line_preview(dump_json(arguments), 80);
}

// The deadline of a call run on its own (0: none): the tool's own, else none for a tool
// that waits on a person, else the agent's. A result decided in advance needs none.
std::chrono::milliseconds call_deadline(const ToolInvocation& inv,
                                        std::chrono::milliseconds agent) {
  if (inv.preset_result || !inv.spec) return std::chrono::milliseconds(0);
  if (inv.spec->call_timeout) return *inv.spec->call_timeout;
  return inv.spec->interactive ? std::chrono::milliseconds(0) : agent;
}

// The deadline of a group run in parallel: the agent's, lengthened to the longest a
// member asks for; none when the agent sets none or a member wants none.
std::chrono::milliseconds group_deadline(const std::vector<ToolInvocation>& calls,
                                         const std::vector<std::size_t>& group,
                                         std::chrono::milliseconds agent) {
  std::chrono::milliseconds deadline = agent;
  for (std::size_t i : group) {
    if (deadline.count() <= 0) break;
    const auto& spec = calls[i].spec;
    if (calls[i].preset_result || !spec || !spec->call_timeout) continue;
    deadline = spec->call_timeout->count() <= 0 ? *spec->call_timeout
                                                : std::max(deadline, *spec->call_timeout);
  }
  return deadline;
}

ToolRunResult run_one(ToolInvocation& inv, const ToolBatchEnv& env) {
  if (inv.preset_result || env.context.cancel.cancelled()) return unrun_call(inv, env);
  ToolCallStart start = begin_call(inv, env);
  return finish_call(inv, start, execute_call(inv, start), env);
}

}  // namespace

ToolRunResult unrun_call(const ToolInvocation& inv, const ToolBatchEnv& env) {
  if (!inv.preset_result) return {cancelled_tool_text(inv.call.name), true, {}};
  if (env.trace)
    ToolSpan(env.trace, inv.call, inv.arguments)
        .finish(*inv.preset_result, true, "invalid_tool_call");
  return {*inv.preset_result, true, {}};
}

ToolCallStart begin_call(ToolInvocation& inv, const ToolBatchEnv& env) {
  ToolCallStart start;
  if (env.trace) start.span = std::make_shared<ToolSpan>(env.trace, inv.call, inv.arguments);
  start.context = env.context;
  start.context.tool_call_id = inv.call.id;
  start.context.tool_name = inv.call.name;
  start.context.cancel = env.context.cancel.child();

  start.progress.phase = ToolProgress::Phase::kStarted;
  start.progress.call_id = inv.call.id;
  start.progress.name = inv.call.name;
  start.progress.arguments = &inv.arguments;
  start.progress.preview = preview_of(inv.arguments);
  if (env.callbacks)
    safe_callback("tool_progress", env.callbacks->on_tool_progress, start.progress);

  start.t0 = std::chrono::steady_clock::now();
  ToolCallDecision decision;
  if (env.hooks) decision = env.hooks->pre_tool_call(inv.call.name, inv.arguments);
  if (decision.arguments) inv.arguments = std::move(*decision.arguments);
  if (decision.block) start.blocked = decision.block_message;
  return start;
}

ToolRunResult execute_call(const ToolInvocation& inv, ToolCallStart& start) {
  if (start.blocked) return {error_json(*start.blocked), true, {}};
  // What the handler does (an MCP request, a sub-agent's turn) hangs under the call.
  SpanScope scope(start.span ? start.span->parent() : SpanParent{});
  return invoke_tool(*inv.spec, inv.arguments, start.context);
}

ToolRunResult finish_call(const ToolInvocation& inv, const ToolCallStart& start,
                          ToolRunResult result, const ToolBatchEnv& env) {
  result.duration = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start.t0);
  if (env.hooks) {
    if (auto changed =
            env.hooks->transform_tool_result(inv.call.name, inv.arguments, result.content)) {
      result.content = std::move(*changed);
    }
    env.hooks->post_tool_call(inv.call.name, inv.arguments, result.content, result.duration,
                              result.is_error);
  }
  ToolProgress done = start.progress;
  done.phase = ToolProgress::Phase::kCompleted;
  done.duration = result.duration;
  done.is_error = result.is_error;
  done.result = result.content;
  if (env.callbacks) safe_callback("tool_progress", env.callbacks->on_tool_progress, done);
  if (start.span) {
    start.span->finish(result.content, result.is_error,
                       start.blocked ? "blocked_by_hook" : "tool_error");
  }
  return result;
}

std::string timed_out_tool_text(const std::string& name, std::chrono::milliseconds after) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f", static_cast<double>(after.count()) / 1000.0);
  return "Error executing tool '" + name + "': timed out after " + seconds + "s";
}

std::string cancelled_tool_text(const std::string& name) {
  return "[Tool execution cancelled \xE2\x80\x94 " + name + " was skipped due to user interrupt]";
}

ToolRunResult invoke_tool(const ToolSpec& spec, const Json& arguments, ToolContext& context) {
  try {
    Result<std::string> r = spec.handler(arguments, context);
    if (r.ok()) return {std::move(*r), false, {}};
    return {error_json(r.status().message()), true, {}};
  } catch (const std::exception& e) {
    return {error_json("[TOOL_ERROR] Tool execution failed: " + demangled_type_name(typeid(e)) +
                       ": " + e.what()),
            true,
            {}};
  } catch (...) {
    return {error_json("[TOOL_ERROR] Tool execution failed: unknown exception"), true, {}};
  }
}

std::vector<std::vector<std::size_t>> plan_tool_segments(const std::vector<ToolInvocation>& calls) {
  std::vector<std::vector<std::size_t>> segments;
  std::vector<std::string> scoped_paths;  // Paths of path-scoped calls in the open segment.
  bool open_segment_shareable = false;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const Concurrency kind = concurrency_of(calls[i]);
    bool joins = false;
    if (open_segment_shareable && kind == Concurrency::kShared) {
      joins = true;
    } else if (open_segment_shareable && kind == Concurrency::kPathScoped) {
      const std::string path = path_of(calls[i]);
      joins = std::none_of(scoped_paths.begin(), scoped_paths.end(),
                           [&](const std::string& p) { return paths_overlap(p, path); });
    }
    if (!joins) {
      segments.emplace_back();
      scoped_paths.clear();
      open_segment_shareable = kind != Concurrency::kAlone;
    }
    segments.back().push_back(i);
    if (kind == Concurrency::kPathScoped) scoped_paths.push_back(path_of(calls[i]));
  }
  return segments;
}

void run_tool_batch(std::vector<ToolInvocation>& calls, const ToolBatchEnv& env,
                    const std::function<void(std::size_t, ToolRunResult)>& deliver) {
  for (const auto& segment : plan_tool_segments(calls)) {
    const std::chrono::milliseconds deadline =
        segment.size() < 2 ? call_deadline(calls[segment[0]], env.call_timeout)
                           : group_deadline(calls, segment, env.group_timeout);
    // On a runtime's fiber the calls run on workers (spare threads for calls with a
    // deadline, the runtime's pool through run_blocking for the others), so a slow handler
    // never holds the I/O thread; deliver() stays on the turn.
    if (deadline.count() > 0 && env.workers) {
      std::vector<ToolRunResult> results = run_timed_group(calls, segment, env, deadline);
      for (std::size_t k = 0; k < segment.size(); ++k) deliver(segment[k], std::move(results[k]));
      continue;
    }
    if (segment.size() < 2) {
      for (std::size_t i : segment) {
        ToolRunResult result;
        run_blocking([&] { result = run_one(calls[i], env); });
        deliver(i, std::move(result));
      }
      continue;
    }
    std::vector<ToolRunResult> results(segment.size());
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
      for (std::size_t k = next++; k < segment.size(); k = next++) {
        results[k] = run_one(calls[segment[k]], env);
      }
    };
    const std::size_t n_workers = std::min<std::size_t>(
        segment.size(), static_cast<std::size_t>(std::max(1, env.max_workers)));
    run_blocking([&] {
      std::vector<std::thread> workers;
      workers.reserve(n_workers - 1);
      for (std::size_t w = 1; w < n_workers; ++w) workers.emplace_back(worker);
      worker();  // The calling thread works too.
      for (auto& t : workers) t.join();
    });
    for (std::size_t k = 0; k < segment.size(); ++k) deliver(segment[k], std::move(results[k]));
  }
}

}  // namespace hermes::internal
