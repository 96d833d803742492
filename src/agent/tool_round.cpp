// Tool round: the model asked for tools. Validate the calls (names, duplicate ids,
// argument JSON), persist the assistant row before anything runs, run the batch, append
// one result per call in call order, then deliver any pending steer.
#include <algorithm>
#include <map>

#include "agent/delegation.hpp"
#include "agent/invalid_tool_call.hpp"
#include "agent/memory_provider_call.hpp"
#include "agent/output_boost.hpp"
#include "agent/safe_callback.hpp"
#include "agent/steer.hpp"
#include "agent/structured_output.hpp"
#include "agent/tool_executor.hpp"
#include "agent/turn_runner.hpp"
#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "hermes/message_utils.hpp"
#include "safety/log.hpp"
#include "tools/argument_coercion.hpp"
#include "tools/result_budget.hpp"

namespace hermes::internal {
namespace {

constexpr int kMaxInvalidToolRounds = 3;
constexpr int kMaxInvalidJsonRetries = 3;
constexpr int kMaxTruncatedToolCallRetries = 4;

// Ids the model repeated (in this message or earlier in the turn) get a "_d<n>" suffix
// so every call is executed and answered exactly once; exact duplicate calls collapse.
void dedupe_calls(std::vector<ToolCall>& calls, std::set<std::string>& seen_ids) {
  std::vector<ToolCall> kept;
  for (auto& call : calls) {
    const bool duplicate = std::any_of(kept.begin(), kept.end(), [&](const ToolCall& k) {
      return k.name == call.name && k.arguments == call.arguments;
    });
    if (duplicate) continue;
    if (call.id.empty()) call.id = "call_" + std::to_string(seen_ids.size() + 1);
    std::string id = call.id;
    for (int n = 1; seen_ids.count(id) != 0; ++n) id = call.id + "_d" + std::to_string(n);
    call.id = id;
    seen_ids.insert(id);
    kept.push_back(std::move(call));
  }
  calls = std::move(kept);
}

// One response may start at most `max` delegate_task calls (each already runs up to
// that many sub-agents); the excess is dropped before the assistant row is stored, so no
// call is left unanswered.
void cap_delegate_calls(std::vector<ToolCall>& calls, int max) {
  std::vector<ToolCall> kept;
  int delegations = 0;
  for (auto& call : calls) {
    if (call.name == "delegate_task" && ++delegations > max) continue;
    kept.push_back(std::move(call));
  }
  if (delegations > max) {
    HERMES_LOG_WARN("dropped {} delegate_task calls beyond the limit of {} per response",
                    delegations - max, max);
  }
  calls = std::move(kept);
}

// Bookkeeping tools: text written beside only these calls is the model's answer.
bool is_housekeeping(const ToolCall& call) {
  return call.name == "memory" || call.name == "todo" || call.name == "skill_manage" ||
         call.name == "session_search";
}

// Why parsed arguments cannot be used, in the words the model reads.
std::string invalid_arguments_reason(const Result<Json>& parsed) {
  if (parsed.ok()) return "Arguments must be a JSON object";
  if (parsed.status().code() == StatusCode::kResourceExhausted) {
    return "Arguments are " + parsed.status().message();
  }
  return "Expecting a valid JSON value";
}

bool looks_truncated(const std::string& arguments) {
  std::string s = strip(arguments);
  return !s.empty() && s.back() != '}' && s.back() != ']';
}

}  // namespace

StepEnd TurnRunner::run_tool_round(Message assistant) {
  // Arguments cut off by the output limit are never executed: ask again, a few times.
  const bool truncated =
      assistant.finish_reason == "length" ||
      std::any_of(assistant.tool_calls.begin(), assistant.tool_calls.end(), [](const ToolCall& c) {
        return looks_truncated(c.arguments) && !parse_json(c.arguments);
      });
  if (truncated) {
    if (st_.truncated_tool_call_retries < kMaxTruncatedToolCallRetries) {
      ++st_.truncated_tool_call_retries;
      st_.next_max_tokens =
          boosted_output_cap(core_.options.request.max_tokens, st_.truncated_tool_call_retries);
      status("warning", "Tool call arguments were truncated by the output limit; retrying");
      return StepEnd::kNext;
    }
    st_.partial = true;
    st_.final_response = "Response truncated due to output length limit";
    st_.exit_reason = "truncated_tool_call";
    return StepEnd::kTurnOver;
  }
  // With a schema on Anthropic the answer is a call of the output tool.
  if (answers_by_tool(turn_output(), core_.runtime->provider().info().api_mode)) {
    const auto answer =
        std::find_if(assistant.tool_calls.begin(), assistant.tool_calls.end(),
                     [&](const ToolCall& c) { return c.name == turn_output().name; });
    if (answer != assistant.tool_calls.end()) {
      const ToolCall call = *answer;
      return accept_output_call(std::move(assistant), call);
    }
  }
  dedupe_calls(assistant.tool_calls, st_.executed_call_ids);
  cap_delegate_calls(assistant.tool_calls, core_.options.delegation.max_concurrent_children);
  core_.nudges.count_tool_iteration(offered("skill_manage"));

  // Invented names are repaired against what was offered; what stays unknown is
  // answered with an error the model can read. Beside valid calls, only the unknown ones
  // are refused and the rest run; a round of unknown names only counts as invalid.
  std::vector<std::string> invalid;
  for (auto& call : assistant.tool_calls) {
    if (auto fixed = coerce_tool_name(call.name, st_.offered_tools)) {
      call.name = *fixed;
    } else {
      invalid.push_back(call.name);
    }
  }
  const bool mixed_batch = !invalid.empty() && invalid.size() < assistant.tool_calls.size();
  if (!invalid.empty() && !mixed_batch) {
    const std::string preview = tool_name_preview(invalid.front());
    if (++st_.invalid_tool_rounds >= kMaxInvalidToolRounds) {
      // The round is not kept; the finalizer closes the earlier rounds' results with
      // this text as the assistant's answer.
      st_.partial = true;
      st_.final_response = "Model generated invalid tool call: " + preview;
      st_.error = *st_.final_response;
      st_.exit_reason = "invalid_tool_call";
      return StepEnd::kTurnOver;
    }
    status("warning", fmt::format("Unknown tool '{}' \xE2\x80\x94 sending error to model for "
                                  "self-correction ({}/{})",
                                  preview, st_.invalid_tool_rounds, kMaxInvalidToolRounds));
    append(assistant);
    for (const auto& call : assistant.tool_calls) {
      std::string error = invalid_tool_name_error(call.name, st_.offered_tools);
      if (current_span()) {
        ToolSpan(current_span(), call, Json::object()).finish(error, true, "invalid_tool_call");
      }
      append(Message::tool(call.id, call.name, std::move(error)));
    }
    flush();
    return StepEnd::kNext;
  }
  st_.invalid_tool_rounds = 0;
  if (mixed_batch) {
    status("warning", fmt::format("Unknown tool '{}' in batch \xE2\x80\x94 erroring that call, "
                                  "executing {} valid call(s)",
                                  tool_name_preview(invalid.front()),
                                  assistant.tool_calls.size() - invalid.size()));
  }

  // Arguments: empty means {}; JSON that does not parse is retried (not appended) a few
  // times, then answered with an error.
  std::vector<ToolInvocation> batch;
  std::vector<std::string> bad_json;
  for (auto& call : assistant.tool_calls) {
    if (is_blank(call.arguments)) call.arguments = "{}";
    ToolInvocation inv;
    inv.call = call;
    if (!offered(call.name)) {
      // Refused, never run: its arguments cannot hold the batch back.
      inv.preset_result = invalid_tool_name_error(call.name, st_.offered_tools);
      batch.push_back(std::move(inv));
      continue;
    }
    inv.spec = spec_for(call);
    Result<Json> parsed = parse_json_checked(call.arguments);
    if (!parsed.ok() || !parsed->is_object()) {
      bad_json.push_back(call.id);
      inv.preset_result = "Error: Invalid JSON arguments. " + invalid_arguments_reason(parsed) +
                          ". For tools with no required parameters, use an empty object: {}. "
                          "Please retry with valid JSON.";
    } else {
      inv.arguments = inv.spec ? coerce_tool_arguments(inv.spec->parameters, std::move(*parsed))
                               : std::move(*parsed);
    }
    batch.push_back(std::move(inv));
  }
  if (!bad_json.empty()) {
    if (st_.invalid_json_retries < kMaxInvalidJsonRetries) {
      ++st_.invalid_json_retries;
      HERMES_LOG_INFO("tool call arguments are not valid JSON; asking again ({}/{})",
                      st_.invalid_json_retries, kMaxInvalidJsonRetries);
      return StepEnd::kNext;
    }
    for (auto& inv : batch) {
      if (!inv.preset_result)
        inv.preset_result = "Skipped: other tool call in this response had invalid JSON.";
    }
  }
  st_.invalid_json_retries = 0;

  const Callbacks& cb = core_.options.callbacks;
  if (std::string text = strip_think_blocks(assistant.content); !text.empty()) {
    st_.last_content_with_tools = std::move(text);
    st_.last_content_tools_all_housekeeping =
        std::all_of(assistant.tool_calls.begin(), assistant.tool_calls.end(), is_housekeeping);
  }
  if (!is_blank(assistant.content)) {
    safe_callback("interim_assistant", cb.on_interim_assistant,
                  std::string_view(assistant.content));
  }
  safe_callback("stream_delta", cb.on_stream_delta, std::string_view());

  // The assistant row reaches the store before any tool runs: a crash mid-tool leaves a
  // transcript that already holds the call.
  append(std::move(assistant));
  if (Status s = core_.flush(st_.messages); !s.ok()) {
    fail("could not persist the tool call before running it: " + s.to_string(),
         "persistence_error");
    return StepEnd::kTurnOver;
  }

  ToolBatchEnv env;
  env.context.session_id = core_.session_id;
  env.context.task_id = st_.task_id;
  env.context.home = core_.home;
  env.context.cancel = st_.cancel;
  env.context.store = core_.store.get();
  env.context.state = &core_.tool_state;
  env.context.callbacks = &cb;
  env.max_workers = core_.options.tool_use.max_workers;
  env.group_timeout = core_.options.tool_use.batch_timeout;
  env.call_timeout = core_.options.tool_use.call_timeout;
  env.workers = core_.tool_workers;
  env.callbacks = &cb;
  env.hooks = &core_.hooks;
  env.trace = current_span();
  // Oversized results are spilled to a file under <home> and replaced by a preview; the
  // batch as a whole stays within the per-turn budget (results are appended as they come,
  // so each takes what is left of it).
  const ResultBudget budget =
      ResultBudget::for_context(core_.engine ? core_.engine->context_length() : int64_t{256000});
  std::size_t batch_chars = 0;
  run_tool_batch(batch, env, [&](std::size_t i, ToolRunResult result) {
    const ToolInvocation& inv = batch[i];
    const std::size_t own_limit =
        result_threshold(budget, inv.call.name, inv.spec ? inv.spec->max_result_chars : 0);
    const std::size_t turn_left = budget.per_turn_chars > batch_chars
                                      ? budget.per_turn_chars - batch_chars
                                      : budget.preview_chars;
    result.content = apply_result_budget(
        result.content, inv.call.id, core_.home,
        std::min(own_limit, std::max(turn_left, budget.preview_chars)), budget.preview_chars);
    batch_chars += result.content.size();
    note_tool_result(inv.call, result.content);
    st_.previous_tools.push_back({inv.call.name, inv.call.arguments, result.content});
    append(Message::tool(inv.call.id, inv.call.name, std::move(result.content)));
  });

  if (st_.cancel.cancelled()) {
    st_.interrupted = true;
    st_.exit_reason = "interrupted_by_user";
    return StepEnd::kTurnOver;
  }
  deliver_steer_after_tools();
  flush();  // The step's results, and any steer, in one transaction.
  post_tool_compaction();
  return StepEnd::kNext;
}

std::shared_ptr<const ToolSpec> TurnRunner::spec_for(const ToolCall& call) {
  std::shared_ptr<const ToolSpec> spec = core_.tools->find(call.name);
  // delegate_task needs this agent (its provider, tools and interrupt); a host's own tool
  // of that name in another toolset is left alone.
  if (!spec || spec->name != "delegate_task" || spec->toolset != "delegation") return spec;
  DelegationHost host;
  host.core = &core_;
  host.offered_tools = st_.offered_tools;
  // delegate_task is not parallel-safe, so its handler runs on this turn's thread.
  host.on_child_done = [this](const SubagentOutcome& child) {
    record_subagent_usage(child.usage, child.api_calls, child.model);
  };
  return bind_delegate_task(*spec, std::move(host));
}

void TurnRunner::note_tool_result(const ToolCall& call, const std::string& result) {
  core_.nudges.tool_used(call.name);
  MemoryProvider* provider = core_.options.memory_provider.get();
  if (call.name != "memory" || provider == nullptr) return;
  // A memory write that took reaches the external provider too, so both stay in step.
  auto outcome = parse_json(result);
  if (!outcome || !outcome->is_object() || !outcome->value("success", false)) return;
  auto args = parse_json(call.arguments);
  if (!args || !args->is_object()) return;
  const std::string action = args->value("action", "");
  const std::string target = args->value("target", "memory");
  const std::string content = args->value("content", args->value("old_text", ""));
  call_memory_provider(provider, "on_memory_write",
                       [&](MemoryProvider& p) { p.on_memory_write(action, target, content); });
}

void TurnRunner::deliver_steer_after_tools() {
  if (std::string steer = core_.control.take_steer(); !steer.empty()) {
    append(steer_message(steer));
  }
}

// The answer given as a call of the output tool: checked like a text answer. Every call of
// the reply is answered, so that the transcript stays valid; the others are not run.
StepEnd TurnRunner::accept_output_call(Message assistant, const ToolCall& call) {
  const AgentOptions::Output& output = turn_output();
  CheckedAnswer checked = check_answer(call.arguments, output.schema);
  const bool repair = !checked.value && st_.output_repairs < output.max_repairs;
  append(assistant);
  for (const ToolCall& c : assistant.tool_calls) {
    std::string result;
    if (c.id != call.id) {
      result = "Not run: " + output.name + " ends the turn; call other tools before it.";
    } else if (checked.value) {
      result = "Answer recorded.";
    } else {
      result = "Error: " + repair_prompt(checked.problem);
    }
    append(Message::tool(c.id, c.name, result));
  }
  flush();
  if (checked.value) {
    st_.final_response = checked.value->dump();
    st_.output = std::move(checked.value);
    st_.exit_reason = "structured_output(" + output.name + ")";
    return StepEnd::kTurnOver;
  }
  if (repair) {
    ++st_.output_repairs;
    status("warning",
           "The answer does not match the output schema (" + checked.problem + "); asking again");
    return StepEnd::kNext;
  }
  st_.final_response = call.arguments;
  fail("output_schema_mismatch: " + checked.problem, "output_schema_mismatch");
  return StepEnd::kTurnOver;
}

}  // namespace hermes::internal
