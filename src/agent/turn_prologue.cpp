// Turn prologue: identity, history, the user message, the system prompt, the session row,
// and persistence of the user message before any model call.
#include <algorithm>
#include <random>

#include "agent/memory_provider_call.hpp"
#include "agent/turn_runner.hpp"
#include "common/utf8.hpp"
#include "context/system_prompt.hpp"
#include "hermes/memory.hpp"
#include "hermes/skills.hpp"
#include "safety/log.hpp"

namespace hermes::internal {
namespace {

std::string random_hex(int digits) {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < digits; ++i) out += kHex[rng() % 16];
  return out;
}

std::string uuid4() {
  std::string hex = random_hex(32);
  hex[12] = '4';
  hex[16] = "89ab"[std::random_device{}() % 4];
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20);
}

double now_seconds() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

// 0 when no message carries a time (a new conversation, or a history without times).
double seconds_since_last_message(const std::vector<Message>& messages) {
  for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
    if (it->timestamp > 0) return std::max(0.0, now_seconds() - it->timestamp);
  }
  return 0;
}

}  // namespace

void TurnRunner::prologue() {
  // The user is back: a review of the previous turn gives way to this one.
  core_.review.cancel();
  st_.cancel = core_.control.begin_turn();
  const bool was_on_fallback = core_.runtime->on_fallback();
  core_.runtime->begin_turn();
  if (was_on_fallback && !core_.runtime->on_fallback() && core_.engine) {
    core_.engine->update_model(core_.runtime->model(), core_.primary_context_length);
  }
  st_.task_id = input_.task_id.empty() ? uuid4() : input_.task_id;
  st_.turn_id = (core_.session_id.empty() ? std::string("session") : core_.session_id) + ":" +
                st_.task_id + ":" + random_hex(8);
  st_.system_message = input_.system_message;

  // The caller's history replaces the agent's; it counts as already stored.
  if (input_.history_to_move) {
    core_.transcript = std::move(*input_.history_to_move);
    core_.writer.reset(core_.session_id, core_.transcript.size());
  } else if (input_.history) {
    core_.transcript = *input_.history;
    core_.writer.reset(core_.session_id, core_.transcript.size());
  }
  st_.messages = core_.transcript;
  st_.idle_seconds = seconds_since_last_message(st_.messages);

  Message user = Message::user(sanitize_utf8(input_.user_message));
  user.timestamp = now_seconds();
  user.extra = Json{{"_hermes_turn_id", st_.turn_id}};
  st_.user_index = st_.messages.size();
  st_.messages.push_back(std::move(user));
  ++core_.user_turn_count;

  std::vector<std::string> disabled = core_.options.tool_use.disabled_toolsets;
  if (core_.options.tool_use.enabled_toolsets.empty()) {
    // Without an explicit choice the file system, the shell and sub-agents (which spend
    // model calls) stay out of reach: the host opts in to them by naming their toolsets.
    disabled.insert(disabled.end(), {"file", "terminal", "delegation"});
  }
  st_.offered_tools = core_.tools->resolve(core_.options.tool_use.enabled_toolsets, disabled);
  st_.memory_review_due = core_.nudges.begin_user_turn(offered("memory"));
  prepare_system_prompt();
  if (Status s = core_.ensure_session_row(); !s.ok()) {
    HERMES_LOG_WARN("could not create session row {}: {}", core_.session_id, s.to_string());
  }
  // Per-turn context goes into the API copy of the user message, never into the system
  // prompt; the visible content stays what the user typed.
  if (std::string context = turn_context(); !context.empty()) {
    Message& user_row = st_.messages[st_.user_index];
    user_row.api_content = user_row.content + "\n\n" + context;
  }
  // The user message reaches the store before the model is asked anything, so a crash
  // during the call never loses it.
  flush();
  idle_compaction();
  preflight_compaction();
}

bool TurnRunner::offered(std::string_view tool) const {
  return std::find(st_.offered_tools.begin(), st_.offered_tools.end(), tool) !=
         st_.offered_tools.end();
}

std::string TurnRunner::turn_context() {
  std::string context = core_.hooks.pre_llm_call(core_.session_id, input_.user_message);
  std::string recalled = call_memory_provider(
      core_.options.memory_provider.get(), "prefetch",
      [&](MemoryProvider& p) { return p.prefetch(input_.user_message, core_.session_id); });
  if (!recalled.empty()) context += (context.empty() ? "" : "\n\n") + recalled;
  return context;
}

// The start of the session's lineage root: a compaction's child session (or a resumed one)
// keeps the date its conversation began with. 0 (now) before the session row exists. A
// store without the compaction capability has no lineage: the session's own start.
double TurnRunner::conversation_started_at() const {
  if (!core_.store || !core_.session_row_created) return 0;
  SessionCompaction* compaction = core_.store->compaction_capability();
  if (compaction == nullptr) {
    auto row = core_.store->get_session(core_.session_id);
    return row.ok() ? row->started_at : 0;
  }
  auto lineage = compaction->lineage(core_.session_id);
  if (!lineage.ok() || lineage->empty()) return 0;
  return lineage->front().started_at;
}

void TurnRunner::prepare_system_prompt(bool allow_stored) {
  if (core_.rebuild_system_prompt) {
    core_.system_prompt.clear();
    core_.rebuild_system_prompt = false;
    allow_stored = false;
  }
  if (!core_.system_prompt.empty()) return;
  const auto& opts = core_.options;
  const std::string provider_name = core_.provider->info().name;
  if (allow_stored && core_.store && !core_.session_id.empty()) {
    // A resumed session reuses its stored prompt, keeping the provider's cache warm,
    // unless it was built for another model or provider.
    auto stored = core_.store->get_session(core_.session_id);
    if (stored.ok() && !stored->system_prompt.empty() &&
        system_prompt_matches_runtime(stored->system_prompt, opts.provider.model, provider_name)) {
      core_.system_prompt = stored->system_prompt;
      return;
    }
  }
  SystemPromptInputs in;
  in.home = core_.home;
  in.system_message = st_.system_message.value_or("");
  in.model = opts.provider.model;
  in.provider = provider_name;
  in.tool_names = st_.offered_tools;
  in.tool_use_enforcement = opts.tool_use.enforcement;
  in.source = opts.source;
  in.platform_hint = opts.platform_hint;
  in.started_at = conversation_started_at();
  in.on_context_notice = [this](const std::string& notice) { status("warning", notice); };
  in.context_dir = opts.context_dir;
  in.context_length =
      core_.engine ? core_.engine->context_length() : opts.compression.context_length;
  // Memory is read once per session (a frozen snapshot): writes during the session reach
  // the files at once but the prompt only at the next session or compaction.
  if (offered("memory"))
    in.memory_snapshot = render_memory_snapshot(core_.home, opts.memory_limits);
  if (offered("skills_list") || offered("skill_view")) {
    in.skills_index = build_skills_index(core_.home, opts.skills, st_.offered_tools,
                                         core_.toolsets_of(st_.offered_tools));
  }
  in.memory_provider_block =
      call_memory_provider(opts.memory_provider.get(), "system_prompt_block",
                           [](MemoryProvider& p) { return p.system_prompt_block(); });
  core_.system_prompt = build_system_prompt(in);
  if (core_.engine) {
    // After a compaction the prompt carries the engine's note about the summary.
    if (std::string note = core_.engine->system_prompt_note();
        !note.empty() && core_.system_prompt.find(note) == std::string::npos) {
      core_.system_prompt += "\n\n" + note;
    }
  }
  if (core_.compression_count == 0) core_.hooks.on_session_start(core_.session_id);
  if (core_.store && core_.session_row_created) {
    if (Status s = core_.store->set_system_prompt(core_.session_id, core_.system_prompt); !s.ok()) {
      HERMES_LOG_WARN("could not store the system prompt: {}", s.to_string());
    }
  }
}

}  // namespace hermes::internal
