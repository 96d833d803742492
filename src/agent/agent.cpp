// The public Agent: option validation, session switching, and one TurnRunner per turn.
#include "hermes/agent.hpp"

#include <set>

#include "agent/agent_core.hpp"
#include "agent/compaction.hpp"
#include "agent/memory_provider_call.hpp"
#include "agent/option_table.hpp"
#include "agent/provider_routing.hpp"
#include "agent/runtime_impl.hpp"
#include "agent/safe_callback.hpp"
#include "agent/settled_options.hpp"
#include "agent/structured_output.hpp"
#include "agent/turn_runner.hpp"
#include "common/private_files.hpp"
#include "common/tracer.hpp"
#include "hermes/builtin_tools.hpp"
#include "hermes/context_compressor.hpp"
#include "hermes/home.hpp"
#include "hermes/model_metadata.hpp"
#include "hermes/redaction.hpp"
#include "hermes/session_search_tool.hpp"
#include "hermes/todo.hpp"
#include "safety/log.hpp"

namespace hermes {

class Agent::Impl : public internal::AgentCore {};

namespace internal {

Status AgentCore::flush(const std::vector<Message>& messages) {
  if (!writer.enabled()) return {};
  ActiveSpan span;
  if (current_span() && writer.cursor() < messages.size()) {
    span = ActiveSpan(
        current_span(), "hermes.store.write", SpanKind::kInternal,
        {{"db.operation.name", std::string("append_step")},
         {"gen_ai.conversation.id", session_id},
         {"hermes.store.messages", static_cast<int64_t>(messages.size() - writer.cursor())}});
  }
  Status s = writer.flush(messages);
  if (!s.ok()) {
    HERMES_LOG_WARN("could not persist session {}: {}", session_id, s.to_string());
    span.set_error("store_error", s.message());
  }
  return s;
}

Status AgentCore::ensure_session_row() {
  if (!store || session_row_created) return {};
  SessionInfo info;
  info.id = session_id;
  info.source = options.source;
  info.model = options.provider.model;
  info.system_prompt = system_prompt;
  HERMES_RETURN_IF_ERROR(store->create_session(info));
  session_row_created = true;
  if (!system_prompt.empty()) return store->set_system_prompt(session_id, system_prompt);
  return {};
}

void AgentCore::start_new_session() {
  session_id = new_session_id();
  session_row_created = false;
  system_prompt.clear();
  transcript.clear();
  tool_state.clear();
  writer = TranscriptWriter(store, session_id, 0);
}

std::vector<std::string> AgentCore::toolsets_of(const std::vector<std::string>& tool_names) const {
  std::set<std::string> sets;
  for (const std::string& name : tool_names) {
    if (auto spec = tools->find(name)) sets.insert(spec->toolset);
  }
  return {sets.begin(), sets.end()};
}

void AgentCore::switch_memory_session(MemorySessionSwitch change) {
  if (!memory_provider_started) return;  // It learns the session from initialize().
  call_memory_provider(options.memory_provider.get(), "on_session_switch",
                       [&](MemoryProvider& p) { p.on_session_switch(change); });
}

}  // namespace internal

namespace {

// The registry of agents created without one: the built-in toolsets and session_search,
// shared by every such agent (tools keep their state per agent, so sharing is safe and
// costs nothing per agent).
std::shared_ptr<ToolRegistry> default_tool_registry() {
  static const std::shared_ptr<ToolRegistry> registry = [] {
    auto r = std::make_shared<ToolRegistry>();
    if (Status s = register_builtin_tools(*r); !s.ok()) {
      HERMES_LOG_ERROR("could not register the built-in tools: {}", s.to_string());
    }
    if (Status s = register_session_search_tool(*r); !s.ok()) {
      HERMES_LOG_ERROR("could not register session_search: {}", s.to_string());
    }
    return r;
  }();
  return registry;
}

// The registry of an agent created without one. Custom memory limits, skills settings or
// passed-through variables need their own built-ins; otherwise the shared default does.
Result<std::shared_ptr<ToolRegistry>> builtin_tool_registry(const AgentOptions& o) {
  const MemoryLimits defaults;
  const ApprovalOptions default_approvals;
  const bool custom_approvals = o.tool_use.approvals.mode != default_approvals.mode ||
                                o.tool_use.approvals.timeout != default_approvals.timeout ||
                                !o.tool_use.approvals.deny.empty() ||
                                !o.tool_use.approvals.allowed_commands.empty();
  const bool custom = o.memory_limits.memory_chars != defaults.memory_chars ||
                      o.memory_limits.user_chars != defaults.user_chars ||
                      !o.skills.external_dirs.empty() || !o.skills.disabled.empty() ||
                      !o.skills.template_vars || !o.tool_use.env_passthrough.empty() ||
                      custom_approvals;
  if (!custom) return default_tool_registry();
  auto registry = std::make_shared<ToolRegistry>();
  BuiltinToolOptions builtins;
  builtins.memory = o.memory_limits;
  builtins.skills = o.skills;
  builtins.terminal.env_passthrough = o.tool_use.env_passthrough;
  builtins.approvals = o.tool_use.approvals;
  HERMES_RETURN_IF_ERROR(register_builtin_tools(*registry, builtins));
  HERMES_RETURN_IF_ERROR(register_session_search_tool(*registry));
  return registry;
}

// Takes the memory limits and skills options from a caller's registry whose built-in
// memory and skills tools recorded them. An option set here as well must say the same.
Status adopt_registry_settings(const ToolRegistry& registry, AgentOptions& o) {
  const AgentOptions defaults;
  if (std::optional<MemoryLimits> limits = builtin_memory_limits(registry)) {
    const bool set = o.memory_limits.memory_chars != defaults.memory_limits.memory_chars ||
                     o.memory_limits.user_chars != defaults.memory_limits.user_chars;
    if (set && (o.memory_limits.memory_chars != limits->memory_chars ||
                o.memory_limits.user_chars != limits->user_chars)) {
      return Status::invalid_argument(
          "memory_limits: differ from those the registry's memory tool was registered with; "
          "set them in BuiltinToolOptions::memory only");
    }
    o.memory_limits = *limits;
  }
  if (std::optional<SkillsOptions> skills = builtin_skills_options(registry)) {
    const SkillsOptions& d = defaults.skills;
    const bool set = o.skills.external_dirs != d.external_dirs || o.skills.disabled != d.disabled ||
                     o.skills.template_vars != d.template_vars;
    if (set &&
        (o.skills.external_dirs != skills->external_dirs || o.skills.disabled != skills->disabled ||
         o.skills.template_vars != skills->template_vars)) {
      return Status::invalid_argument(
          "skills: differ from those the registry's skills tools were registered with; "
          "set them in BuiltinToolOptions::skills only");
    }
    o.skills = std::move(*skills);
  }
  return {};
}

Status validate(const AgentOptions& o) {
  if (o.provider.model.empty() && !o.provider.instance) {
    return Status::invalid_argument("provider.model: required (e.g. \"gpt-4.1-mini\")");
  }
  // Each option's own bounds, from the option table; then what ties options together.
  HERMES_RETURN_IF_ERROR(internal::check_option_bounds(o));
  const AgentOptions::RetryBackoff& b = o.failover.backoff;
  if (b.base.count() < 0 || b.max < b.base || b.invalid_response_base.count() < 0 ||
      b.invalid_response_max < b.invalid_response_base) {
    return Status::invalid_argument(
        "failover.backoff: delays must not be negative and each max must be at least its base");
  }
  HERMES_RETURN_IF_ERROR(internal::check_provider_routing(o.request.provider_routing));
  HERMES_RETURN_IF_ERROR(internal::check_output_options(o.output));
  if (o.tool_use.approvals.timeout.count() < 0) {
    return Status::invalid_argument("tool_use.approvals.timeout: must not be negative");
  }
  if (!o.tracing.traceparent.empty() && !SpanContext::from_traceparent(o.tracing.traceparent)) {
    return Status::invalid_argument(
        "tracing.traceparent: not a W3C traceparent (\"00-<32 hex>-<16 hex>-<2 hex>\"): " +
        o.tracing.traceparent);
  }
  return {};
}

Result<std::shared_ptr<Provider>> build_provider(const AgentOptions& o) {
  if (o.provider.instance) return o.provider.instance;
  return make_provider(o.provider);
}

// The model's context window: the configured one, else what the endpoint, the cache or
// the model table say. A host-supplied provider's endpoint is not probed: its base URL
// may not be a real server.
int64_t resolve_context_length(const internal::AgentCore& core) {
  const AgentOptions& o = core.options;
  if (o.compression.context_length > 0) return o.compression.context_length;
  const ProviderInfo& info = core.provider->info();
  ContextLengthOptions lookup;
  lookup.api_key = o.provider.api_key;
  lookup.home = core.home;
  lookup.probe_endpoint = o.provider.instance == nullptr;
  return get_model_context_length(o.provider.model, info.base_url, info.name, std::nullopt, lookup);
}

// The agent's context engine: the caller's, or the default compressor summarising with
// the main provider (or the configured summary provider).
Result<std::shared_ptr<ContextEngine>> make_context_engine(const internal::AgentCore& core) {
  const AgentOptions& o = core.options;
  if (o.context_engine) return o.context_engine;
  if (!o.compression.enabled) return std::shared_ptr<ContextEngine>();
  ContextCompressorOptions c;
  c.model = o.provider.model;
  c.context_length = resolve_context_length(core);
  c.max_tokens = o.request.max_tokens;
  c.threshold_percent = o.compression.threshold_percent;
  c.protect_last_n = o.compression.protect_last_n;
  c.main_provider = core.provider;
  c.main_model = o.provider.model;
  c.summary_provider =
      o.compression.summary_provider ? o.compression.summary_provider : core.provider;
  c.summary_model = o.compression.summary_provider ? o.compression.summary_model : o.provider.model;
  // The text sent to the summariser never carries secrets.
  c.redact = [](std::string_view text) { return redact_sensitive_text(text); };
  const Callbacks callbacks = o.callbacks;
  c.on_status = [callbacks](std::string_view kind, std::string_view message) {
    internal::safe_callback("status", callbacks.on_status, kind, message);
  };
  auto compressor = ContextCompressor::create(std::move(c));
  if (!compressor.ok()) {
    return Status::invalid_argument("compression: " + compressor.status().message());
  }
  return std::shared_ptr<ContextEngine>(std::move(*compressor));
}

}  // namespace

using internal::call_memory_provider;

Agent::Agent(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Agent::~Agent() {
  impl_->turn_slot.interrupt_and_wait([this] { impl_->control.interrupt(""); });
  impl_->review.cancel();
  impl_->tool_workers->wait_idle();
  MemoryProvider* memory = impl_->options.memory_provider.get();
  if (!impl_->transcript.empty()) {
    call_memory_provider(memory, "on_session_end",
                         [&](MemoryProvider& p) { p.on_session_end(impl_->transcript); });
  }
  // Only the last owner closes the provider: several agents may share it.
  if (impl_->options.memory_provider.use_count() == 1) {
    call_memory_provider(memory, "shutdown", [](MemoryProvider& p) { p.shutdown(); });
  }
}

Result<std::unique_ptr<Agent>> Agent::create(AgentOptions options) {
  HERMES_RETURN_IF_ERROR(internal::settle_options(options));
  HERMES_RETURN_IF_ERROR(validate(options));
  auto impl = std::make_unique<Impl>();
  auto provider = build_provider(options);
  if (!provider.ok()) return provider.status();
  impl->provider = std::move(*provider);
  impl->home = options.home.empty() ? default_home() : options.home;
  internal::restrict_home_permissions(impl->home);
  if (options.tools) {
    impl->tools = options.tools;
    // The prompt's memory snapshot and skills index follow the registry's own memory and
    // skills tools: taken from it, never given twice.
    HERMES_RETURN_IF_ERROR(adopt_registry_settings(*options.tools, options));
  } else {
    auto registry = builtin_tool_registry(options);
    if (!registry.ok()) return registry.status();
    impl->tools = std::move(*registry);
  }

  if (options.persistence.store) {
    impl->store = options.persistence.store;
  } else if (options.persistence.enabled) {
    SqliteStoreOptions sqlite;
    sqlite.durability = options.persistence.durability;
    auto store = open_sqlite_store(default_state_db_path(impl->home), sqlite);
    if (!store.ok()) return store.status();
    impl->store = std::move(*store);
  }
  impl->options = std::move(options);
  impl->hooks = internal::HookRunner(impl->options.hooks);
  if (impl->options.review.enabled) {
    impl->nudges.configure(impl->options.review.memory_nudge_interval,
                           impl->options.review.skill_nudge_interval);
  }
  std::vector<std::string> keys;
  if (!impl->options.provider.api_key.empty()) keys.push_back(impl->options.provider.api_key);
  keys.insert(keys.end(), impl->options.failover.extra_api_keys.begin(),
              impl->options.failover.extra_api_keys.end());
  impl->runtime = std::make_unique<internal::ProviderRuntime>(
      impl->provider, impl->options.provider.model, std::move(keys),
      impl->options.failover.fallback_providers);
  internal::AgentCore* core = impl.get();
  // After a compaction the active todo items come back as a user message, so the model
  // does not lose track of unfinished work (completed items are left out on purpose).
  impl->after_compaction_injection = [core] {
    return render_todo_snapshot(core->tool_state).value_or("");
  };
  auto engine = make_context_engine(*impl);
  if (!engine.ok()) return engine.status();
  impl->engine = std::move(*engine);

  std::unique_ptr<Agent> agent(new Agent(std::move(impl)));
  if (!agent->impl_->options.persistence.session_id.empty() && agent->impl_->store) {
    HERMES_RETURN_IF_ERROR(agent->resume(agent->impl_->options.persistence.session_id));
  } else {
    agent->impl_->start_new_session();
    // Without a store there is nothing to resume: the id names the new session.
    internal::AgentCore& core = *agent->impl_;
    if (!core.options.persistence.session_id.empty()) {
      core.session_id = core.options.persistence.session_id;
      core.writer.reset(core.session_id, 0);
    }
  }
  internal::AgentCore& started = *agent->impl_;
  call_memory_provider(started.options.memory_provider.get(), "initialize",
                       [&](MemoryProvider& p) { p.initialize(started.session_id, started.home); });
  started.memory_provider_started = true;
  return agent;
}

Result<std::string> Agent::chat(const std::string& message) {
  ConversationResult result = run_conversation(message);
  if (result.final_response && !result.failed) return *result.final_response;
  if (result.exit_reason == "agent_busy") return Status::failed_precondition(result.error);
  if (result.interrupted) return Status::cancelled("interrupted: " + result.exit_reason);
  if (!result.error.empty()) {
    return Status(StatusCode::kApiError, result.error);
  }
  return Status::unavailable("the turn ended without an answer: " + result.exit_reason);
}

namespace {

ConversationResult refused_turn(const internal::AgentCore& core, std::string exit_reason,
                                std::string error) {
  ConversationResult refused;
  refused.failed = true;
  refused.error = std::move(error);
  refused.exit_reason = std::move(exit_reason);
  refused.session_id = core.session_id;
  return refused;
}

ConversationResult busy_turn(const internal::AgentCore& core) {
  return refused_turn(core, "agent_busy", "this agent is already running a turn");
}

// `movable`: `turn` belongs to the turn, which may take its history instead of copying it.
ConversationResult run_turn(internal::AgentCore& core, const std::string& user_message,
                            const TurnOptions& turn, TurnOptions* movable = nullptr) {
  if (turn.output) {
    if (Status s = internal::check_output_options(*turn.output); !s.ok()) {
      return refused_turn(core, "invalid_output_schema", s.message());
    }
  }
  internal::TurnInput input{user_message, turn.system_message, nullptr, turn.task_id, turn.output};
  if (turn.conversation_history) {
    if (movable) {
      input.history_to_move = &*movable->conversation_history;
    } else {
      input.history = &*turn.conversation_history;
    }
  }
  internal::TurnRunner runner(core, std::move(input));
  return runner.run();
}

}  // namespace

ConversationResult Agent::run_conversation(const std::string& user_message,
                                           const std::optional<std::string>& system_message,
                                           const std::optional<std::vector<Message>>& history,
                                           const std::string& task_id) {
  const internal::TurnSlotClaim claim(impl_->turn_slot);
  if (!claim.held()) return busy_turn(*impl_);
  internal::TurnRunner runner(
      *impl_, {user_message, system_message, history ? &*history : nullptr, task_id, std::nullopt});
  return runner.run();
}

ConversationResult Agent::run_conversation(const std::string& user_message,
                                           const TurnOptions& turn) {
  const internal::TurnSlotClaim claim(impl_->turn_slot);
  if (!claim.held()) return busy_turn(*impl_);
  return run_turn(*impl_, user_message, turn);
}

Status Agent::run_conversation_async(Runtime& runtime, const std::string& user_message,
                                     TurnOptions turn,
                                     std::function<void(ConversationResult)> done) {
  if (!done) return Status::invalid_argument("run_conversation_async needs a completion callback");
  if (!impl_->turn_slot.try_claim()) {
    return Status::failed_precondition("this agent is already running a turn");
  }
  Impl* impl = impl_.get();
  Runtime::Impl& host = runtime.impl();
  host.start(
      [impl, &host, user_message, turn = std::move(turn),
       done = std::move(done)](uint64_t id) mutable {
        ConversationResult result;
        try {
          result = run_turn(*impl, user_message, turn, &turn);
        } catch (const std::exception& e) {
          // Nothing may skip the release below: the agent's destructor waits for it.
          result =
              refused_turn(*impl, "internal_error", std::string("the turn failed: ") + e.what());
        } catch (...) {
          result = refused_turn(*impl, "internal_error", "the turn failed");
        }
        host.finish(id);
        impl->turn_slot.release();  // From here the agent may be destroyed.
        try {
          done(std::move(result));
        } catch (const std::exception& e) {
          HERMES_LOG_WARN("run_conversation_async: the completion callback threw: {}", e.what());
        } catch (...) {
          HERMES_LOG_WARN("run_conversation_async: the completion callback threw");
        }
      },
      [impl] { impl->control.interrupt(""); });
  return {};
}

std::future<ConversationResult> Agent::run_conversation_async(Runtime& runtime,
                                                              const std::string& user_message,
                                                              TurnOptions turn) {
  auto promise = std::make_shared<std::promise<ConversationResult>>();
  std::future<ConversationResult> future = promise->get_future();
  Status started = run_conversation_async(
      runtime, user_message, std::move(turn),
      [promise](ConversationResult result) { promise->set_value(std::move(result)); });
  if (!started.ok()) {
    promise->set_value(refused_turn(
        *impl_,
        started.code() == StatusCode::kFailedPrecondition ? "agent_busy" : "invalid_argument",
        started.message()));
  }
  return future;
}

void Agent::interrupt(const std::string& message) {
  impl_->control.interrupt(message);
  impl_->review.cancel();
}

Status Agent::steer(const std::string& text) {
  return impl_->control.steer(text);
}

Status Agent::new_session() {
  if (impl_->store && impl_->session_row_created) {
    HERMES_RETURN_IF_ERROR(impl_->store->end_session(impl_->session_id, "new_session"));
  }
  impl_->review.cancel();
  if (!impl_->transcript.empty()) {
    call_memory_provider(impl_->options.memory_provider.get(), "on_session_end",
                         [&](MemoryProvider& p) { p.on_session_end(impl_->transcript); });
  }
  // A fresh start for the engine too: strikes, cooldowns and the compaction count of the
  // old conversation must not block or annotate the new one.
  if (impl_->engine) {
    impl_->engine->on_session_end(impl_->session_id, impl_->transcript);
    impl_->engine->on_session_reset();
  }
  impl_->compression_count = 0;
  impl_->last_compaction_tokens = 0;
  const std::string previous = impl_->session_id;
  impl_->start_new_session();
  impl_->switch_memory_session({impl_->session_id, previous, /*reset=*/true});
  if (impl_->engine) impl_->engine->on_session_start(impl_->session_id, "new_session");
  return {};
}

Status Agent::resume(const std::string& requested_id) {
  if (!impl_->store) return Status::failed_precondition("resume: the agent has no session store");
  // A session closed by compression goes on in its continuation: resume that, as a user
  // naming the session they remember expects.
  std::string session_id = requested_id;
  if (SessionCompaction* lineage = impl_->store->compaction_capability()) {
    Result<std::string> tip = lineage->resolve_resume_session_id(requested_id);
    if (tip.ok()) {
      session_id = std::move(*tip);
    } else if (tip.status().code() != StatusCode::kNotFound) {
      return tip.status();
    }
  }
  auto info = impl_->store->get_session(session_id);
  if (!info.ok()) return info.status();
  auto messages = impl_->store->load_messages(session_id);
  if (!messages.ok()) return messages.status();
  impl_->session_id = session_id;
  impl_->session_row_created = true;
  impl_->system_prompt.clear();  // Restored (or rebuilt) by the next turn's prologue.
  impl_->transcript = std::move(*messages);
  impl_->tool_state.clear();
  impl_->writer = TranscriptWriter(impl_->store, session_id, impl_->transcript.size());
  impl_->switch_memory_session({session_id, "", /*reset=*/false});
  return {};
}

Result<CompressResult> Agent::compress(const std::string& focus_topic) {
  if (!impl_->engine) return Status::failed_precondition("compress: compression is disabled");
  internal::CompactionRequest request;
  request.reason = "manual";
  request.focus_topic = focus_topic;
  request.force = true;
  internal::CompactionOutcome outcome =
      internal::compact_transcript(*impl_, impl_->transcript, request);
  CompressResult out;
  out.compacted = outcome.compacted;
  out.messages_before = outcome.messages_before;
  out.messages_after = outcome.compacted ? outcome.messages_after : outcome.messages_before;
  out.tokens_before = outcome.tokens_before;
  out.tokens_after = outcome.compacted ? outcome.tokens_after : outcome.tokens_before;
  out.session_id = impl_->session_id;
  out.note = outcome.error.empty() ? outcome.note : outcome.error;
  if (!outcome.compacted && !outcome.skipped && !outcome.error.empty()) {
    return Status::unavailable("compress: " + outcome.error);
  }
  return out;
}

std::string Agent::session_id() const {
  return impl_->session_id;
}
std::vector<Message> Agent::history() const {
  return impl_->transcript;
}
std::string Agent::system_prompt() const {
  return impl_->system_prompt;
}
std::shared_ptr<SessionStore> Agent::session_store() const {
  return impl_->store;
}
const AgentOptions& Agent::options() const {
  return impl_->options;
}

}  // namespace hermes
