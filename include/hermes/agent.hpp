// hermes/agent.hpp — the agent: one conversation with a model that can call tools.
//
//   hermes::AgentOptions options;
//   options.provider.model = "gpt-4.1-mini";
//   options.provider.api_key = std::getenv("OPENAI_API_KEY");
//   auto agent = hermes::Agent::create(options);
//   if (!agent.ok()) { /* agent.status().message() names the bad option */ }
//   auto answer = (*agent)->chat("What is in this directory?");
//
// A turn (run_conversation) appends the user message, then loops: ask the model, run the
// tools it calls (several at once when they allow it), feed the results back, until the
// model answers in text or the iteration budget is spent. Every message is persisted to
// the session store as it is accepted, so a crash never loses a turn's progress.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hermes/callbacks.hpp"
#include "hermes/context_engine.hpp"
#include "hermes/export.hpp"
#include "hermes/hooks.hpp"
#include "hermes/json.hpp"
#include "hermes/memory.hpp"
#include "hermes/message.hpp"
#include "hermes/provider.hpp"
#include "hermes/runtime.hpp"
#include "hermes/safety.hpp"
#include "hermes/session_store.hpp"
#include "hermes/skills.hpp"
#include "hermes/status.hpp"
#include "hermes/tool.hpp"
#include "hermes/tracing.hpp"

namespace hermes {

// Marks the 0.1 option names AgentOptions keeps for one release.
#define HERMES_DEPRECATED_OPTION(advice) [[deprecated(advice)]]

// Configuration of an Agent, composed of one group per part of the agent. Only
// `provider.model` is required. docs/options.md lists every option with its default.
struct HERMES_API AgentOptions {
  // Declared here and defined in the library, so that copying options does not warn about
  // the deprecated names below; only code that names them does.
  AgentOptions();
  AgentOptions(const AgentOptions&);
  AgentOptions(AgentOptions&&) noexcept;
  AgentOptions& operator=(const AgentOptions&);
  AgentOptions& operator=(AgentOptions&&) noexcept;
  ~AgentOptions();

  // --- The model service ---
  // The primary provider: model (required), provider name ("openai", "openrouter",
  // "anthropic", "custom", ...), api_mode (empty: from the name and base_url), base_url
  // (empty: https://api.openai.com/v1), api_key, timeouts, extra headers, or a ready
  // instance to use instead of building one.
  ProviderConfig provider;

  // Which of OpenRouter's upstream providers may serve the requests, sent as the request's
  // "provider" object whenever the model service in use is OpenRouter (by provider name
  // or base URL, fallbacks included) and never to any other service. Empty fields are
  // left out; all empty sends nothing.
  struct ProviderRouting {
    std::vector<std::string> only;    // Only these providers (OpenRouter's slugs).
    std::vector<std::string> ignore;  // Never these.
    std::vector<std::string> order;   // These first, in this order.
    std::string sort;                 // "price", "throughput" or "latency".
    bool require_parameters = false;  // Only providers that support every parameter sent.
    std::string data_collection;      // "allow" or "deny".
  };
  // What every model request asks for.
  struct Request {
    std::optional<int64_t> max_tokens;
    std::optional<double> temperature;
    std::string reasoning_effort;
    bool stream = true;  // Stream responses (text arrives as it is generated).
    ProviderRouting provider_routing;
  } request;

  // The waits between retries when the server sends no Retry-After: from `base`,
  // doubling per retry up to `max`, plus up to half again at random so that agents which
  // failed together do not retry together. A response of the wrong shape (an error body
  // with HTTP 200) waits on the slower schedule.
  struct RetryBackoff {
    std::chrono::milliseconds base{2'000};
    std::chrono::milliseconds max{60'000};
    std::chrono::milliseconds invalid_response_base{5'000};
    std::chrono::milliseconds invalid_response_max{120'000};
  };
  // What happens when a model call fails.
  struct Failover {
    int max_retries = 3;  // Attempts of one model call on transient failures.
    RetryBackoff backoff;
    // More keys for the same provider; rotated on rate limits and auth failures.
    std::vector<std::string> extra_api_keys;
    // Tried in order when the primary fails for good; the primary returns next turn.
    std::vector<ProviderConfig> fallback_providers;
  } failover;

  // --- The answer ---
  // A JSON Schema the final answer must match (an object schema; null: a text answer).
  // It is sent the native way of each wire format: Chat Completions' response_format
  // (json_schema, strict), Responses' text.format, and for Anthropic a tool named `name`
  // the model must call to answer. The answer is checked on return; one that does not
  // match is sent back with what is wrong, at most `max_repairs` times, after which the
  // turn fails with exit_reason "output_schema_mismatch" and the raw text as the answer.
  // The parsed answer is ConversationResult::output.
  struct Output {
    Json schema;
    std::string name = "final_answer";  // The schema's name on the wire: [A-Za-z0-9_-]{1,64}.
    int max_repairs = 2;
  } output;

  // --- The loop ---
  int max_iterations = 90;  // Model calls per turn before the summary call.
  // Appended to the system prompt on every request; never stored.
  std::string ephemeral_system_prompt;

  // --- Tools ---
  // The registry to take tools from. When null, the built-in toolsets
  // (register_builtin_tools with default options).
  std::shared_ptr<ToolRegistry> tools;
  // Which tools the model is offered and how their calls run.
  struct ToolUse {
    // The toolsets offered to the model. Empty: every toolset of the registry except the
    // opt-in "file", "terminal" and "delegation" toolsets, which must be named to be
    // enabled.
    std::vector<std::string> enabled_toolsets;
    std::vector<std::string> disabled_toolsets;
    int max_workers = 8;  // Tools of one batch run at most this many at once.
    // How long tool calls may run (0: no limit). A group of calls run in parallel gets
    // batch_timeout as a whole; a call run on its own gets call_timeout, the same seven
    // minutes by default, so that no call waits longer alone than in a group. A tool may
    // set its own deadline (ToolSpec::call_timeout), which also lengthens a group's: the
    // terminal's covers its longest allowed command (TerminalOptions::max_timeout) plus an
    // approval wait. Interactive tools (clarify), delegate_task and MCP tools (their
    // server's call timeout restarts with each progress report) have none. A call still
    // running at its deadline is told to stop through its cancel token and answered
    // "Error executing tool '<name>': timed out after <s>s"; the turn goes on. A handler
    // that ignores its token keeps its thread until it returns, and the agent's destructor
    // waits for it.
    std::chrono::milliseconds batch_timeout{420'000};
    std::chrono::milliseconds call_timeout{420'000};
    // The system prompt's "act, do not narrate" block: nullopt gives it to the model
    // families known to describe tool calls instead of making them (GPT, Codex, Gemini,
    // Gemma, Grok, GLM, Qwen, DeepSeek); true or false for every model.
    std::optional<bool> enforcement;
    // Environment variables the terminal passes to commands although their names mark
    // them as secrets (TerminalOptions::env_passthrough), e.g. {"GH_TOKEN"}. Applies to
    // the built-in tools the agent registers when `tools` is null; a registry of the
    // caller's carries its own TerminalOptions.
    std::vector<std::string> env_passthrough;
    // How the terminal tools' commands (and what is written to background processes) are
    // approved: manual by default; kAsk and kAllowlist for a default-deny posture. Like
    // env_passthrough, it configures the built-ins the agent registers when `tools` is
    // null; a registry you build passes BuiltinToolOptions::approvals instead. The guard
    // is a best-effort check, not a sandbox: see hermes/safety.hpp.
    ApprovalOptions approvals;
  } tool_use;

  // --- Sub-agents (the delegate_task tool of the "delegation" toolset) ---
  // Each task of a delegate_task call runs in a fresh agent with the same provider and
  // model, no history, and the caller's tools minus delegate_task, clarify and memory; it
  // runs quiet and unpersisted, dangerous commands are denied, and only its final summary
  // returns. One call runs at most `max_concurrent_children` tasks, all at once (a larger
  // batch is refused), each with `max_iterations` model calls. interrupt() stops them.
  struct Delegation {
    int max_iterations = 50;
    int max_concurrent_children = 3;
  } delegation;

  // --- Memory and skills ---
  // The settings of the built-in memory and skills tools, which the system prompt's
  // memory snapshot and skills index follow. When `tools` is null the agent registers the
  // built-ins with them. A registry of the caller's whose built-ins register_builtin_tools
  // added carries its own (BuiltinToolOptions::memory and ::skills): the agent takes them
  // from it, and refuses values set here that differ.
  MemoryLimits memory_limits;
  SkillsOptions skills;
  // An external memory backend, called around each turn (see MemoryProvider).
  std::shared_ptr<MemoryProvider> memory_provider;
  // After a turn that ended with an answer, the agent may review the conversation in the
  // background and save what is worth keeping: memories about the user every
  // `memory_nudge_interval` user turns (counted while the memory tool is offered, reset
  // when it is used), and skills after `skill_nudge_interval` tool-calling iterations
  // (counted across turns while skill_manage is offered, reset when it is used). 0
  // disables that review. The review runs on its own thread with the same model, may use
  // only the memory and skills tools, stores nothing in the session store, and reports
  // what it changed through on_status (kind "review"). A new turn, interrupt() and the
  // destructor cancel it.
  struct Review {
    bool enabled = true;
    int memory_nudge_interval = 10;
    int skill_nudge_interval = 10;
    int max_iterations = 8;  // Model calls of one review.
  } review;

  // --- Persistence ---
  // The hermes home (memories, skills, state.db). Empty: default_home().
  std::string home;
  struct Persistence {
    bool enabled = true;  // Keep sessions in a store.
    // Where sessions are kept. When null and `enabled`, the SQLite store at
    // <home>/state.db is opened.
    std::shared_ptr<SessionStore> store;
    // Resume this session (see Agent::resume): its messages become the history of the
    // next turn. Without a store (not enabled and none given) the new session takes this
    // id.
    std::string session_id;
    // When the commits of the SQLite store opened at <home>/state.db reach the disk (see
    // Durability; a given `store` keeps its own setting). Either way the agent commits
    // once per point a step must be durable: the user message before the first model call,
    // a step's tool calls before they run, its results (or its answer) once it ends.
    // kFull waits for the disk at each; kNormal does not, and on a power loss (never on a
    // crash of the process) may lose the last steps.
    Durability durability = Durability::kFull;
  } persistence;
  // Where the conversation takes place: recorded on the session row, and it picks the
  // platform hint of the system prompt ("telegram", "slack", "email", "sms", "cron", ...
  // say what renders there; "cli" and unknown sources get none).
  std::string source = "cli";
  // The application's own word on how answers are shown ("Markdown renders, tables
  // included."), in place of the hint for `source`; an empty string for no hint at all.
  std::optional<std::string> platform_hint;

  // --- Context ---
  // The project directory the agent works in. Its context files (.hermes.md or HERMES.md,
  // else AGENTS.md, else CLAUDE.md, else .cursorrules) are read once per session into the
  // system prompt, after the system message; a file that looks like a prompt injection is
  // replaced by a notice saying so. Empty: no project files are read. A missing or
  // unreadable directory is not an error.
  std::string context_dir;

  // Decides when and how to compress. When null and compression is enabled, the default
  // ContextCompressor is used, summarising with the main provider.
  std::shared_ptr<ContextEngine> context_engine;
  struct Compression {
    bool enabled = true;
    // Compact the session in place (same id, old rows archived) instead of continuing in a
    // child session linked by parent_session_id.
    bool in_place = false;
    // The model's context window; 0: resolved from the model's metadata.
    int64_t context_length = 0;
    double threshold_percent = 0.50;
    int protect_last_n = 20;
    // Summarise with this provider (and model) instead of the main one.
    std::shared_ptr<Provider> summary_provider;
    std::string summary_model;
    // Compact at turn start when this many seconds have passed since the conversation's
    // last message (the provider's prompt cache has expired by then) and it has grown by
    // a fifth of the threshold since the last compaction; 0: never.
    double idle_compact_after_seconds = 0;
    // The session's compression lease expires this long after it was last renewed, so a
    // crashed compactor does not block others for ever; it is renewed every
    // min(60, ttl/2) seconds while the summary call runs.
    double lease_ttl_seconds = 300;
  } compression;

  Callbacks callbacks;
  // Plugin hooks, run in this order at their points of the turn.
  std::vector<std::shared_ptr<Hooks>> hooks;
  // Spans and metrics of every turn, for OpenTelemetry or another tracing system
  // (hermes/tracing.hpp; OtlpExporter in hermes/otlp_exporter.hpp sends them over OTLP).
  TracingOptions tracing;

  // --- Deprecated: the names of the flat options of 0.1, kept for one release ---
  // Agent::create moves a value set here to its new place (an error when both are set
  // and differ); docs/options.md maps every 0.1 name to its new place.
  HERMES_DEPRECATED_OPTION("use provider.model") std::string model;
  HERMES_DEPRECATED_OPTION("use provider.base_url") std::string base_url;
  HERMES_DEPRECATED_OPTION("use provider.api_key") std::string api_key;
  HERMES_DEPRECATED_OPTION("use persistence.enabled") std::optional<bool> persist_sessions;
};

// Everything a turn produced. to_json() gives the upstream runtime's result keys.
struct HERMES_API ConversationResult {
  std::optional<std::string> final_response;  // The answer; nullopt when there is none.
  std::string last_reasoning;
  std::vector<Message> messages;  // The whole transcript after the turn.
  int api_calls = 0;
  bool completed = false;  // The model answered and nothing failed.
  bool failed = false;
  bool partial = false;
  bool interrupted = false;
  std::string exit_reason;     // e.g. "text_response(finish_reason=stop)".
  std::string error;           // Set when the turn failed.
  std::string failure_reason;  // The FailoverReason name when a provider failed.
  std::string interrupt_message;
  std::string pending_steer;  // Guidance that arrived too late to be delivered.
  std::string session_id;
  std::string turn_id;
  std::string model;
  std::string provider;
  std::string base_url;
  Usage usage;  // Summed over the turn's model calls.
  int64_t last_prompt_tokens = 0;
  double estimated_cost_usd = 0;
  // The answer parsed as JSON when AgentOptions::output.schema is set and it matched.
  std::optional<Json> output;

  Json to_json() const;
};

// What a manual compaction (Agent::compress) did.
struct CompressResult {
  bool compacted = false;  // False: nothing to compress, or another process was at it.
  std::size_t messages_before = 0;
  std::size_t messages_after = 0;
  int64_t tokens_before = 0;  // Rough estimates.
  int64_t tokens_after = 0;
  std::string session_id;  // The session the conversation continues in.
  // Why nothing happened, when nothing did; when the compaction happened but the session
  // store cannot keep it (no compaction capability), says so: the compacted transcript
  // lives in memory only.
  std::string note;
};

// What one turn may set beyond the agent's options (Agent::run_conversation).
struct TurnOptions {
  // Added to the system prompt when the session's prompt is first built.
  std::optional<std::string> system_message;
  // Replaces the agent's history for this turn (the caller's list is not modified).
  std::optional<std::vector<Message>> conversation_history;
  std::string task_id;
  // This turn's answer schema (with its name and max_repairs) in place of
  // AgentOptions::output; a null schema asks this turn for a text answer. nullopt: the
  // agent's. A schema the checker cannot use fails the turn before any call, with
  // exit_reason "invalid_output_schema".
  std::optional<AgentOptions::Output> output;
};

// An agent.
//
// Thread-safety: one call at a time per Agent (chat, run_conversation, new_session,
// resume), and none of them while a turn started with run_conversation_async runs. A turn
// started while another runs, from any thread and in either form, is refused:
// run_conversation's result has exit_reason "agent_busy", chat and run_conversation_async
// return FailedPrecondition.
// interrupt() and steer() may be called from any thread at any time, also while a turn
// runs. Destroying an Agent whose asynchronous turn still runs interrupts the turn and
// waits for it to end (not from a runtime thread: that thread is the one running it). Distinct
// Agents are independent and may share a SessionStore, a ToolRegistry and a Provider.
class HERMES_API Agent {
 public:
  // Validates `options` (InvalidArgument names the bad field), opens the store and, when
  // options.persistence.session_id is set, loads that session.
  static Result<std::unique_ptr<Agent>> create(AgentOptions options);

  ~Agent();
  Agent(const Agent&) = delete;
  Agent& operator=(const Agent&) = delete;

  // Runs one turn and returns the answer, or the turn's error.
  Result<std::string> chat(const std::string& message);

  // Runs one turn. `system_message` is added to the system prompt when the session's
  // prompt is first built. `conversation_history`, when given, replaces the agent's
  // history (the caller's list is not modified); otherwise the turn continues the
  // agent's own history. Never throws; failures are in the result.
  ConversationResult run_conversation(
      const std::string& user_message,
      const std::optional<std::string>& system_message = std::nullopt,
      const std::optional<std::vector<Message>>& conversation_history = std::nullopt,
      const std::string& task_id = "");
  // The same with every per-turn setting, the answer schema included.
  ConversationResult run_conversation(const std::string& user_message, const TurnOptions& turn);

  // Starts a turn on `runtime` and returns at once; `done` gets the result on a runtime
  // thread when the turn ends (also when it fails or is interrupted). The turn behaves
  // exactly as run_conversation(user_message, turn), with its streaming and tool
  // callbacks on runtime threads. FailedPrecondition, without calling `done`, when this
  // agent already runs a turn; InvalidArgument when `done` is empty.
  Status run_conversation_async(Runtime& runtime, const std::string& user_message, TurnOptions turn,
                                std::function<void(ConversationResult)> done);
  // The same with a future; a refused start gives a ready future whose result has
  // failed set and the reason in error.
  std::future<ConversationResult> run_conversation_async(Runtime& runtime,
                                                         const std::string& user_message,
                                                         TurnOptions turn = {});

  // Asks the running turn to stop as soon as possible (streaming stops within 100 ms,
  // running tools are signalled). `message` is reported as interrupt_message.
  void interrupt(const std::string& message = "");

  // Queues guidance for the running turn, delivered at its next delivery point (after a
  // tool batch, or before the next model call). InvalidArgument for blank text.
  Status steer(const std::string& text);

  // Ends the current session ("new_session") and starts an empty one.
  Status new_session();

  // Switches to a stored session and loads its history. A session that compression
  // closed is resumed in its continuation (the store's resolve_resume_session_id, when the
  // store can compact), so session_id() may then name a later session than the one given.
  Status resume(const std::string& session_id);

  // Compacts the conversation now (the /compress command), giving `focus_topic` most of
  // the summary. Ignores the automatic guards. FailedPrecondition when compression is off.
  Result<CompressResult> compress(const std::string& focus_topic = "");

  // The current session id (it changes on new_session, resume and compression).
  std::string session_id() const;

  // The current transcript (without the system prompt).
  std::vector<Message> history() const;

  // The system prompt of the session, built on the first turn.
  std::string system_prompt() const;

  // The store the agent persists to, or nullptr.
  std::shared_ptr<SessionStore> session_store() const;

  const AgentOptions& options() const;

 private:
  class Impl;
  explicit Agent(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace hermes
