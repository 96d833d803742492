/* hermes_c.h — the C ABI of hermes, for C programs and foreign-function interfaces
 * (Rust, Go, Python ctypes, ...).
 *
 * Conventions
 *   - C99. Opaque handles hermes_<x>_t, created by hermes_<x>_new and released by
 *     hermes_<x>_free; every free function accepts NULL. The hermes_<x>_freep(&p) forms
 *     also set the pointer to NULL, so freeing the same handle twice through them is
 *     harmless. Using a handle after it was freed is undefined.
 *   - Every fallible call returns a hermes_status_t: HERMES_OK (0) or a negative code.
 *     The codes are frozen. When `out_error` is not NULL and the call fails, *out_error
 *     receives an error object the caller releases with hermes_error_free. There is no
 *     thread-local "last error".
 *   - Text is UTF-8, NUL-terminated. Structured data (messages, results, tool arguments)
 *     crosses as JSON text. Strings the library returns through `char **out` parameters
 *     are owned by the caller and released with hermes_free.
 *   - Callbacks are a function pointer, a `void *user_data`, and an optional destructor
 *     the library calls with user_data when it no longer needs it.
 *
 * Thread-safety
 *   - hermes_agent_options_t, hermes_tool_registry_t being populated: one thread at a time.
 *   - hermes_tool_registry_t: once given to an agent, safe to share between agents and
 *     threads; tools may still be added from any thread.
 *   - hermes_agent_t: one call at a time, except hermes_agent_interrupt,
 *     hermes_agent_cancel and hermes_agent_steer, which any thread may call at any time,
 *     also while another thread runs a turn on the same agent. Distinct agents are
 *     independent.
 *   - hermes_stream_t: one thread at a time; hermes_stream_free may be called while the
 *     turn still runs (it interrupts the turn and waits for it to end).
 *   - hermes_runtime_t: safe to share between any number of agents and threads. A turn
 *     started with hermes_agent_run_turn_async runs on a runtime thread, and so do the
 *     agent's callbacks and the done callback; until done is called the agent takes only
 *     hermes_agent_interrupt, hermes_agent_cancel, hermes_agent_steer and hermes_agent_free.
 *   - hermes_store_t: safe for concurrent use from any number of threads, and by several
 *     processes sharing one database file.
 *   - The utility functions (hermes_classify_api_error, hermes_redact_text, ...) are
 *     pure and thread-safe.
 *   - hermes_error_t and returned strings: owned by the caller; not shared.
 */
#ifndef HERMES_C_H
#define HERMES_C_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#  if defined(HERMES_C_BUILDING)
#    define HERMES_C_API __declspec(dllexport)
#  else
#    define HERMES_C_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__) || defined(__clang__)
#  define HERMES_C_API __attribute__((visibility("default")))
#else
#  define HERMES_C_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ versions ---- */

#define HERMES_C_VERSION_MAJOR 0
#define HERMES_C_VERSION_MINOR 2
#define HERMES_C_VERSION_PATCH 0
/* Incremented on every incompatible change of this header. */
#define HERMES_ABI_VERSION 1

/* The library version, e.g. "0.2.0". Static storage; do not free. */
HERMES_C_API const char *hermes_version(void);
/* The ABI version the library was built with. */
HERMES_C_API uint32_t hermes_abi_version(void);
/* Nonzero when a program compiled against ABI `header_abi_version` can use this library.
 * Call as hermes_abi_compatible(HERMES_ABI_VERSION) at start-up. */
HERMES_C_API int hermes_abi_compatible(uint32_t header_abi_version);

/* ---------------------------------------------------------- status and errors ---- */

typedef int32_t hermes_status_t;

#define HERMES_OK 0
#define HERMES_ERR_INVALID_ARGUMENT (-1)
#define HERMES_ERR_NOT_FOUND (-2)
#define HERMES_ERR_ALREADY_EXISTS (-3)
#define HERMES_ERR_FAILED_PRECONDITION (-4)
#define HERMES_ERR_UNAVAILABLE (-5)
#define HERMES_ERR_DEADLINE_EXCEEDED (-6)
#define HERMES_ERR_CANCELLED (-7)
#define HERMES_ERR_API (-8)
#define HERMES_ERR_IO (-9)
#define HERMES_ERR_DATA_LOSS (-10)
#define HERMES_ERR_UNIMPLEMENTED (-11)
#define HERMES_ERR_RESOURCE_EXHAUSTED (-12)
#define HERMES_ERR_PERMISSION_DENIED (-13)
#define HERMES_ERR_INTERNAL (-14)

typedef struct hermes_error_t hermes_error_t;

/* The status code of `error` (HERMES_ERR_INVALID_ARGUMENT for NULL). */
HERMES_C_API hermes_status_t hermes_error_code(const hermes_error_t *error);
/* The message; valid until the error is freed. "" for NULL. */
HERMES_C_API const char *hermes_error_message(const hermes_error_t *error);
HERMES_C_API void hermes_error_free(hermes_error_t *error);
/* The stable name of a status code, e.g. "invalid_argument". Static storage. */
HERMES_C_API const char *hermes_status_name(hermes_status_t status);

/* Releases a string or buffer returned by the library. NULL is fine. */
HERMES_C_API void hermes_free(void *ptr);

/* --------------------------------------------------------------------- tools ---- */

typedef struct hermes_tool_registry_t hermes_tool_registry_t;
/* One running tool call, valid only during the handler. */
typedef struct hermes_tool_call_t hermes_tool_call_t;

/* A tool handler. Read the call with the hermes_tool_call_* accessors, set the result
 * with hermes_tool_call_set_result and return HERMES_OK. Returning another status makes
 * the result an error for the model: {"error": <message set with
 * hermes_tool_call_set_error, or the status name>}. Handlers of parallel-safe tools may
 * run on several threads at once. */
typedef hermes_status_t (*hermes_tool_handler_fn)(hermes_tool_call_t *call, void *user_data);
typedef void (*hermes_destroy_fn)(void *user_data);

/* Tool flags. */
#define HERMES_TOOL_PARALLEL_SAFE 1u /* May run at the same time as other calls. */
#define HERMES_TOOL_INTERACTIVE 2u   /* Needs the user: always runs alone. */

HERMES_C_API hermes_tool_registry_t *hermes_tool_registry_new(void);
HERMES_C_API void hermes_tool_registry_free(hermes_tool_registry_t *registry);
HERMES_C_API void hermes_tool_registry_freep(hermes_tool_registry_t **registry);

/* Adds a tool. `toolset` may be NULL ("custom"); `parameters_json` is a JSON Schema
 * object (NULL: no arguments). On success the registry owns user_data and calls
 * `destroy` (if not NULL) when the tool is removed or the registry freed; on failure
 * ownership stays with the caller. */
HERMES_C_API hermes_status_t hermes_tool_registry_add(
    hermes_tool_registry_t *registry, const char *name, const char *toolset,
    const char *description, const char *parameters_json, uint32_t flags,
    hermes_tool_handler_fn handler, void *user_data, hermes_destroy_fn destroy,
    hermes_error_t **out_error);

HERMES_C_API const char *hermes_tool_call_name(const hermes_tool_call_t *call);
HERMES_C_API const char *hermes_tool_call_id(const hermes_tool_call_t *call);
/* The arguments as JSON text (an object). */
HERMES_C_API const char *hermes_tool_call_arguments(const hermes_tool_call_t *call);
HERMES_C_API const char *hermes_tool_call_session_id(const hermes_tool_call_t *call);
/* Nonzero once the turn was interrupted: stop and return promptly. */
HERMES_C_API int hermes_tool_call_cancelled(const hermes_tool_call_t *call);
/* Sets the result text (normally JSON). The text is copied. */
HERMES_C_API hermes_status_t hermes_tool_call_set_result(hermes_tool_call_t *call, const char *text);
/* Sets the error message used when the handler returns a non-OK status. */
HERMES_C_API hermes_status_t hermes_tool_call_set_error(hermes_tool_call_t *call, const char *message);

/* ------------------------------------------------------------- agent options ---- */

typedef struct hermes_agent_options_t hermes_agent_options_t;

HERMES_C_API hermes_agent_options_t *hermes_agent_options_new(void);
HERMES_C_API void hermes_agent_options_free(hermes_agent_options_t *options);
HERMES_C_API void hermes_agent_options_freep(hermes_agent_options_t **options);

/* Every plain-data option as one JSON document, nested as the C++ AgentOptions are
 * (hermes/agent_options_json.hpp): {"model": "gpt-4.1-mini", "timeouts": {"idle": 30},
 * "compression": {"threshold_percent": 0.7}}. Durations are seconds. Sets what the document
 * names after checking all of it: an unknown key, a wrong type or a value out of bounds is
 * HERMES_ERR_INVALID_ARGUMENT naming the option, and then nothing changes. */
HERMES_C_API hermes_status_t hermes_agent_options_set_json(hermes_agent_options_t *options, const char *json,
                                                           hermes_error_t **out_error);
/* The document with every option's current value (API keys included: a secret). Free
 * *out_json with hermes_free. */
HERMES_C_API hermes_status_t hermes_agent_options_get_json(const hermes_agent_options_t *options, char **out_json,
                                                           hermes_error_t **out_error);
/* The options the document takes, as a JSON array of {"name": "compression.enabled",
 * "type": "boolean", "default": true, "doc": "..."} (with "minimum", "maximum" and
 * "values" where they apply). Free *out_json with hermes_free. */
HERMES_C_API hermes_status_t hermes_agent_options_describe(char **out_json, hermes_error_t **out_error);
/* A JSON Schema the final answer must match (see AgentOptions::output in hermes/agent.hpp):
 * the result JSON's "output" then holds the parsed answer. `name` is the schema's name on
 * the wire (NULL: "final_answer"). A NULL or "null" schema turns structured output off. A
 * schema that is not JSON is HERMES_ERR_INVALID_ARGUMENT here; one the checker cannot use
 * (not an object schema, an unknown type, an unresolvable $ref) is refused by
 * hermes_agent_new. */
HERMES_C_API hermes_status_t hermes_agent_options_set_output_schema(hermes_agent_options_t *options,
                                                                    const char *schema_json, const char *name,
                                                                    hermes_error_t **out_error);

/* String setters copy their argument; NULL resets to the default. */
HERMES_C_API hermes_status_t hermes_agent_options_set_model(hermes_agent_options_t *options, const char *model);
HERMES_C_API hermes_status_t hermes_agent_options_set_provider(hermes_agent_options_t *options, const char *provider);
HERMES_C_API hermes_status_t hermes_agent_options_set_api_mode(hermes_agent_options_t *options, const char *api_mode);
HERMES_C_API hermes_status_t hermes_agent_options_set_base_url(hermes_agent_options_t *options, const char *base_url);
HERMES_C_API hermes_status_t hermes_agent_options_set_api_key(hermes_agent_options_t *options, const char *api_key);
/* Adds a further key for rotation on rate limits and auth failures. */
HERMES_C_API hermes_status_t hermes_agent_options_add_api_key(hermes_agent_options_t *options, const char *api_key);
HERMES_C_API hermes_status_t hermes_agent_options_set_home(hermes_agent_options_t *options, const char *home);
/* Resume this stored session. */
HERMES_C_API hermes_status_t hermes_agent_options_set_session_id(hermes_agent_options_t *options, const char *session_id);
/* Where the conversation takes place ("cli" by default, "telegram", "email", "sms", "cron",
 * ...): recorded on the session row, and it picks the system prompt's hint on what
 * renders there. */
HERMES_C_API hermes_status_t hermes_agent_options_set_source(hermes_agent_options_t *options, const char *source);
/* The application's own hint on how answers are shown, in place of the source's; "" for no
 * hint at all, NULL (the default) for the source's. */
HERMES_C_API hermes_status_t hermes_agent_options_set_platform_hint(hermes_agent_options_t *options, const char *hint);
/* The project directory whose context files (AGENTS.md and the like) join the system
 * prompt; NULL or "" (the default) loads none. */
HERMES_C_API hermes_status_t hermes_agent_options_set_context_dir(hermes_agent_options_t *options, const char *dir);
HERMES_C_API hermes_status_t hermes_agent_options_set_ephemeral_system_prompt(hermes_agent_options_t *options, const char *prompt);
HERMES_C_API hermes_status_t hermes_agent_options_set_max_iterations(hermes_agent_options_t *options, int32_t max_iterations);
HERMES_C_API hermes_status_t hermes_agent_options_set_max_tokens(hermes_agent_options_t *options, int64_t max_tokens);
HERMES_C_API hermes_status_t hermes_agent_options_set_temperature(hermes_agent_options_t *options, double temperature);
HERMES_C_API hermes_status_t hermes_agent_options_set_stream(hermes_agent_options_t *options, int stream);
/* 0: keep nothing on disk (no session store). */
HERMES_C_API hermes_status_t hermes_agent_options_set_persist_sessions(hermes_agent_options_t *options, int persist);
/* When the commits of <home>/state.db reach the disk: "full" (the default) waits for the
 * disk at every commit; "normal" survives a crash of the process, but a power loss may take
 * the last commits back. NULL resets to "full"; another name is HERMES_ERR_INVALID_ARGUMENT. */
HERMES_C_API hermes_status_t hermes_agent_options_set_durability(hermes_agent_options_t *options, const char *durability);
HERMES_C_API hermes_status_t hermes_agent_options_set_max_retries(hermes_agent_options_t *options, int32_t max_retries);

/* Timeouts in milliseconds; 0 disables a limit. */
#define HERMES_TIMEOUT_CONNECT 0
#define HERMES_TIMEOUT_FIRST_BYTE 1
#define HERMES_TIMEOUT_IDLE 2
#define HERMES_TIMEOUT_TOTAL 3
/* A stream that sends only keep-alives (no real event) for this long is given up. */
#define HERMES_TIMEOUT_STALE_STREAM 4
/* Tool calls: a group run in parallel as a whole (420000), and a call run on its own
 * (420000; the terminal tools have a longer one of their own, clarify, delegation and MCP
 * tools none). A call still running then is told to stop and answered with a timeout
 * error. */
#define HERMES_TIMEOUT_TOOL_BATCH 5
#define HERMES_TIMEOUT_TOOL_CALL 6
HERMES_C_API hermes_status_t hermes_agent_options_set_timeout_ms(hermes_agent_options_t *options, int32_t which, int64_t milliseconds);

/* The waits between retries of a model call when the server names none (Retry-After), in
 * milliseconds: from BASE (2000), doubling per retry up to MAX (60000), plus up to half
 * again at random. A response of the wrong shape (an error body with HTTP 200) waits on
 * the INVALID_RESPONSE schedule (5000 up to 120000). */
#define HERMES_BACKOFF_BASE 0
#define HERMES_BACKOFF_MAX 1
#define HERMES_BACKOFF_INVALID_RESPONSE_BASE 2
#define HERMES_BACKOFF_INVALID_RESPONSE_MAX 3
HERMES_C_API hermes_status_t hermes_agent_options_set_retry_backoff_ms(hermes_agent_options_t *options, int32_t which, int64_t milliseconds);

/* The tools the agent may use. The options share the registry (it stays valid after
 * hermes_tool_registry_free: the last user releases it). */
HERMES_C_API hermes_status_t hermes_agent_options_set_tools(hermes_agent_options_t *options, hermes_tool_registry_t *registry);
/* Enables a toolset (all toolsets when none is enabled). */
HERMES_C_API hermes_status_t hermes_agent_options_enable_toolset(hermes_agent_options_t *options, const char *toolset);

/* Disables a toolset (applied after the enabled ones). */
HERMES_C_API hermes_status_t hermes_agent_options_disable_toolset(hermes_agent_options_t *options, const char *toolset);
/* Terminal commands do not inherit the environment variables that name secrets
 * (*_API_KEY, *_TOKEN, *SECRET*, *PASSWORD*, AWS_ACCESS_KEY_ID, AZURE_*, ...). This passes
 * the variable `name` to them all the same (once per variable), e.g. "GH_TOKEN" for the gh
 * CLI. Applies to the built-in tools when no registry is set with
 * hermes_agent_options_set_tools. */
HERMES_C_API hermes_status_t hermes_agent_options_pass_env(hermes_agent_options_t *options, const char *name);
/* "", "none", "minimal", "low", "medium", "high", "xhigh" or "max". */
HERMES_C_API hermes_status_t hermes_agent_options_set_reasoning_effort(hermes_agent_options_t *options, const char *effort);
/* Appends a fallback provider, used in order when the primary keeps failing; the agent
 * returns to the primary on the next turn. `model` is required; the others may be NULL
 * (api_key NULL: none; api_mode NULL: resolved from provider and base_url). */
HERMES_C_API hermes_status_t hermes_agent_options_add_fallback(
    hermes_agent_options_t *options, const char *provider, const char *model,
    const char *base_url, const char *api_key, const char *api_mode);
/* Context compression: on (1, the default) or off (0). */
HERMES_C_API hermes_status_t hermes_agent_options_set_compression(hermes_agent_options_t *options, int enabled);
/* The model's context window in tokens; 0 (the default) resolves it from the model. */
HERMES_C_API hermes_status_t hermes_agent_options_set_context_length(hermes_agent_options_t *options, int64_t tokens);
/* Compress when the prompt exceeds this fraction of the window (0 < fraction <= 1;
 * default 0.5), keeping the last `protect_last_n` messages verbatim (default 20). */
HERMES_C_API hermes_status_t hermes_agent_options_set_compression_threshold(
    hermes_agent_options_t *options, double fraction, int32_t protect_last_n);
/* Compact the session in place (same id) instead of continuing in a child session. */
HERMES_C_API hermes_status_t hermes_agent_options_set_compress_in_place(hermes_agent_options_t *options, int in_place);
/* Compact at turn start when this many seconds have passed since the conversation's last
 * message and it has grown by a fifth of the threshold since the last compaction; 0 (the
 * default) never. */
HERMES_C_API hermes_status_t hermes_agent_options_set_idle_compaction(hermes_agent_options_t *options, double seconds);
/* Tools of one batch run at most this many at once (default 8, at least 1). */
HERMES_C_API hermes_status_t hermes_agent_options_set_max_tool_workers(hermes_agent_options_t *options, int32_t workers);
/* The character limits of MEMORY.md (default 2200) and USER.md (default 1375), at least 1. */
HERMES_C_API hermes_status_t hermes_agent_options_set_memory_limits(hermes_agent_options_t *options,
                                                                   int64_t memory_chars, int64_t user_chars);

/* The background review (on by default): after a turn that ended with an answer, the
 * agent reviews the conversation on its own thread with the same model and saves
 * memories every `memory_interval` user turns and skills every `skill_interval`
 * tool-calling iterations (0 disables one; defaults 10 and 10). What it changed is
 * reported to the status callback with kind "review". */
HERMES_C_API hermes_status_t hermes_agent_options_set_background_review(
    hermes_agent_options_t *options, int enabled, int32_t memory_interval, int32_t skill_interval);
/* The review's own budget of model calls (default 8, at least 1). */
HERMES_C_API hermes_status_t hermes_agent_options_set_review_max_iterations(hermes_agent_options_t *options,
                                                                           int32_t max_iterations);

/* Sub-agents (the delegate_task tool of the "delegation" toolset, which must be enabled):
 * one call runs at most `max_concurrent_children` tasks at once (default 3; a larger batch
 * is refused), each with up to `max_iterations` model calls (default 50). Both must be at
 * least 1: HERMES_ERR_INVALID_ARGUMENT names the one that is not. */
HERMES_C_API hermes_status_t hermes_agent_options_set_delegation(hermes_agent_options_t *options,
                                                                int32_t max_iterations,
                                                                int32_t max_concurrent_children,
                                                                hermes_error_t **out_error);

/* The system prompt's "act, do not narrate" block: HERMES_TOOL_USE_ENFORCEMENT_AUTO (the
 * default) gives it to the model families known to describe tool calls instead of making
 * them; _ON and _OFF decide for every model. */
#define HERMES_TOOL_USE_ENFORCEMENT_AUTO (-1)
#define HERMES_TOOL_USE_ENFORCEMENT_OFF 0
#define HERMES_TOOL_USE_ENFORCEMENT_ON 1
HERMES_C_API hermes_status_t hermes_agent_options_set_tool_use_enforcement(hermes_agent_options_t *options,
                                                                          int mode);

/* Streamed text: `delta` is `length` bytes, not NUL-terminated; length 0 closes a block. */
typedef void (*hermes_stream_fn)(const char *delta, size_t length, void *user_data);
HERMES_C_API hermes_status_t hermes_agent_options_set_stream_callback(
    hermes_agent_options_t *options, hermes_stream_fn callback, void *user_data, hermes_destroy_fn destroy);

/* Tool progress: `event_json` is {"phase":"started"|"completed","call_id","name",
 * "preview", and when completed "duration_ms","is_error","result"}. */
typedef void (*hermes_event_fn)(const char *event_json, void *user_data);
HERMES_C_API hermes_status_t hermes_agent_options_set_tool_progress_callback(
    hermes_agent_options_t *options, hermes_event_fn callback, void *user_data, hermes_destroy_fn destroy);
/* Status notices: `event_json` is {"kind","message"}. */
HERMES_C_API hermes_status_t hermes_agent_options_set_status_callback(
    hermes_agent_options_t *options, hermes_event_fn callback, void *user_data, hermes_destroy_fn destroy);

/* Streamed reasoning text, as hermes_stream_fn. */
HERMES_C_API hermes_status_t hermes_agent_options_set_reasoning_callback(
    hermes_agent_options_t *options, hermes_stream_fn callback, void *user_data, hermes_destroy_fn destroy);
/* The start of every model call: `event_json` is {"api_call_count", "previous": [{"name",
 * "arguments", "result"}, ...]} with the tools run since the previous call. */
HERMES_C_API hermes_status_t hermes_agent_options_set_step_callback(
    hermes_agent_options_t *options, hermes_event_fn callback, void *user_data, hermes_destroy_fn destroy);

/* Spans and metrics of every turn (see hermes/tracing.hpp for the span tree and the
 * attributes). `event_json` is {"event": "span_start"|"span_end", "span": {"trace_id",
 * "span_id", "parent_span_id", "name", "kind", "start_time_unix_nano",
 * "end_time_unix_nano", "status", "status_message", "attributes": {...}}} or {"event":
 * "metric", "metric": {"name", "kind": "counter"|"histogram", "unit", "value",
 * "time_unix_nano", "attributes": {...}}}. Called from the turn's thread and from tool
 * workers, possibly at once: keep it thread-safe and quick. `span_start` is only sent
 * when `with_span_start` is non-zero. Message text is on spans only with the option
 * tracing.capture_content (see hermes_agent_options_set_json). */
HERMES_C_API hermes_status_t hermes_agent_options_set_trace_callback(
    hermes_agent_options_t *options, hermes_event_fn callback, int with_span_start, void *user_data,
    hermes_destroy_fn destroy);

/* The answer to a question the model asked (clarify tool), valid during the callback. */
typedef struct hermes_answer_t hermes_answer_t;
/* Sets the answer (copied). Not calling it means nobody answered. */
HERMES_C_API hermes_status_t hermes_answer_set(hermes_answer_t *answer, const char *text);
/* The clarify tool asks the user: `choices_json` is a JSON list of strings (maybe empty). */
typedef void (*hermes_clarify_fn)(const char *question, const char *choices_json,
                                  hermes_answer_t *answer, void *user_data);
HERMES_C_API hermes_status_t hermes_agent_options_set_clarify_callback(
    hermes_agent_options_t *options, hermes_clarify_fn callback, void *user_data, hermes_destroy_fn destroy);

/* Decisions on a dangerous command. */
#define HERMES_APPROVAL_DENY 0
#define HERMES_APPROVAL_ONCE 1
#define HERMES_APPROVAL_SESSION 2 /* This pattern for the rest of the session. */
#define HERMES_APPROVAL_ALWAYS 3  /* This pattern permanently. */
/* A dangerous command needs approval: `request_json` is {"command", "description",
 * "pattern_key", "tool_name"}. Return one of HERMES_APPROVAL_*; anything else denies.
 * Without this callback dangerous commands are denied. */
typedef int32_t (*hermes_approval_fn)(const char *request_json, void *user_data);
HERMES_C_API hermes_status_t hermes_agent_options_set_approval_callback(
    hermes_agent_options_t *options, hermes_approval_fn callback, void *user_data, hermes_destroy_fn destroy);

/* How commands of the built-in terminal tools, and text written to the stdin of their
 * background processes, are approved. The guard is a best-effort check of command text,
 * not a sandbox: run tools in a container or as a separate user where a mistake would be
 * costly (see hermes/safety.hpp). Hardline commands (root wipe, mkfs, ...) never run. */
#define HERMES_APPROVAL_MODE_MANUAL 0    /* Ask about dangerous commands (the default). */
#define HERMES_APPROVAL_MODE_SMART 1     /* As manual, for now. */
#define HERMES_APPROVAL_MODE_OFF 2       /* Run dangerous commands without asking. */
#define HERMES_APPROVAL_MODE_ASK 3       /* Ask about every command. */
#define HERMES_APPROVAL_MODE_ALLOWLIST 4 /* Ask unless every program run is allowed and
                                          * nothing is dangerous. */
/* Applies to the built-ins the agent registers itself (no registry set with
 * hermes_agent_options_set_tools). An unknown mode is HERMES_ERR_INVALID_ARGUMENT. */
HERMES_C_API hermes_status_t hermes_agent_options_set_approval_mode(hermes_agent_options_t *options, int32_t mode);
/* Adds a program (a base name such as "ls" or "git") that HERMES_APPROVAL_MODE_ALLOWLIST
 * lets run without asking. */
HERMES_C_API hermes_status_t hermes_agent_options_add_allowed_command(hermes_agent_options_t *options,
                                                                      const char *program);
/* How long to wait for the approval callback (default 300000); silence denies. */
HERMES_C_API hermes_status_t hermes_agent_options_set_approval_timeout_ms(hermes_agent_options_t *options,
                                                                          int64_t milliseconds);
/* The provider rejected the credential (401, or a 403 not about billing): `request_json` is
 * {"provider", "base_url", "model", "http_status", "message"}. Set a fresh credential with
 * hermes_answer_set and the call is retried with it; set nothing and the agent rotates keys
 * or falls back. Asked at most once per model call. */
typedef void (*hermes_auth_refresh_fn)(const char *request_json, hermes_answer_t *answer,
                                       void *user_data);
HERMES_C_API hermes_status_t hermes_agent_options_set_auth_refresh_callback(
    hermes_agent_options_t *options, hermes_auth_refresh_fn callback, void *user_data,
    hermes_destroy_fn destroy);

/* ------------------------------------------------------------ provider in C ---- */

/* A model call the host answers itself, e.g. through its own HTTP stack. */
typedef struct hermes_provider_call_t hermes_provider_call_t;

/* The request as JSON: {"model", "messages" (OpenAI chat format), "tools" (OpenAI
 * function definitions), "stream", and when set "max_tokens", "temperature",
 * "reasoning_effort", and "extra_body": what the request adds at the top of the wire body
 * (the structured-output "response_format", OpenRouter's "provider" routing)}. Valid
 * during the call. */
HERMES_C_API const char *hermes_provider_call_request(const hermes_provider_call_t *call);
/* The API key to use ("" for the provider's own). */
HERMES_C_API const char *hermes_provider_call_api_key(const hermes_provider_call_t *call);
/* Nonzero once the turn was interrupted: return HERMES_ERR_CANCELLED promptly. */
HERMES_C_API int hermes_provider_call_cancelled(const hermes_provider_call_t *call);
/* Streams a piece of visible text to the agent's stream callbacks (optional). */
HERMES_C_API hermes_status_t hermes_provider_call_emit_text(hermes_provider_call_t *call,
                                                           const char *delta, size_t length);
/* The answer: {"message": {an OpenAI assistant message: content, tool_calls, ...},
 * "usage": {"prompt_tokens", "completion_tokens", ...}, "finish_reason", "model"}.
 * Only "message" is required. */
HERMES_C_API hermes_status_t hermes_provider_call_set_response(hermes_provider_call_t *call,
                                                              const char *response_json);
/* The call failed: the HTTP status (0 if none), the provider's message and body (may be
 * NULL) and Retry-After in seconds (negative: none). The agent classifies it and retries,
 * rotates keys, compresses or falls back as for its own providers. */
HERMES_C_API hermes_status_t hermes_provider_call_set_error(hermes_provider_call_t *call,
                                                           int32_t http_status, const char *message,
                                                           const char *body, double retry_after_seconds);
/* Return HERMES_OK after set_response, or an error status after set_error (any other
 * non-OK status fails the call with that status's name as the message). */
typedef hermes_status_t (*hermes_provider_fn)(hermes_provider_call_t *call, void *user_data);
/* Routes the agent's model calls through `callback` instead of a built-in provider.
 * `name` (e.g. "my-gateway") and `model` describe it; the callback may run on several
 * threads at once when several agents share these options. */
HERMES_C_API hermes_status_t hermes_agent_options_set_provider_callback(
    hermes_agent_options_t *options, const char *name, const char *model,
    hermes_provider_fn callback, void *user_data, hermes_destroy_fn destroy);

/* ------------------------------------------------------ memory provider in C ---- */

/* An external memory backend (a vector store, a hosted service) the agent calls around
 * each turn. Every callback may be NULL (that point does nothing). Strings passed in are
 * valid during the call; transcripts are JSON lists of messages. A callback that gives
 * text back sets it with hermes_answer_set; setting nothing means no text. The agent calls
 * its provider from the thread running its turn (and from hermes_agent_free); a provider
 * shared by several agents must synchronise itself. The provider's own tools are not part
 * of this table: register them with hermes_tool_registry_add like any tool. */
typedef struct hermes_memory_provider_callbacks_t {
  /* sizeof(hermes_memory_provider_callbacks_t): callbacks a later version appends are
   * read only from tables large enough to hold them. */
  size_t struct_size;
  /* Once, when the agent starts its first session in `home`. */
  void (*initialize)(const char *session_id, const char *home, void *user_data);
  /* Static text for the system prompt (instructions, status). */
  void (*system_prompt_block)(hermes_answer_t *answer, void *user_data);
  /* Context recalled for the coming turn; it is given to the model with the user message. */
  void (*prefetch)(const char *query, const char *session_id, hermes_answer_t *answer,
                   void *user_data);
  /* A turn that ended with an answer, to persist; `messages_json` is the transcript. */
  void (*sync_turn)(const char *user_content, const char *assistant_content, const char *session_id,
                    const char *messages_json, void *user_data);
  /* The session changed (resume, new session, compression): `change_json` is
   * {"new_session_id", "parent_session_id", "reset"}. */
  void (*on_session_switch)(const char *change_json, void *user_data);
  /* Messages about to be compressed away; the text set is kept in the summary. */
  void (*on_compaction)(const char *discarded_json, hermes_answer_t *answer, void *user_data);
  /* The built-in memory tool wrote: `action` add/replace/remove, `target` memory/user. */
  void (*on_memory_write)(const char *action, const char *target, const char *content,
                          void *user_data);
  /* The session ended (new session, resume elsewhere, agent freed), not after every turn. */
  void (*on_session_end)(const char *messages_json, void *user_data);
  /* Once, when the last agent using the provider goes and the options have been freed
   * (whichever happens last): flush queues, close connections. */
  void (*shutdown)(void *user_data);
} hermes_memory_provider_callbacks_t;

/* Makes the table of `callbacks` (copied) the agent's memory provider, `name` (required,
 * e.g. "my-vector-store") its identifier. The options own user_data from a successful call
 * on, and call `destroy` when no agent needs it any more; on failure it stays the
 * caller's. NULL `callbacks` removes the provider (and takes nothing).
 * HERMES_ERR_INVALID_ARGUMENT names a missing name or a struct_size smaller than the first
 * version of the table. */
HERMES_C_API hermes_status_t hermes_agent_options_set_memory_provider(
    hermes_agent_options_t *options, const char *name,
    const hermes_memory_provider_callbacks_t *callbacks, void *user_data, hermes_destroy_fn destroy,
    hermes_error_t **out_error);

/* --------------------------------------------------------------------- agent ---- */

typedef struct hermes_agent_t hermes_agent_t;

/* Creates an agent. HERMES_ERR_INVALID_ARGUMENT names a missing or malformed option. */
HERMES_C_API hermes_status_t hermes_agent_new(const hermes_agent_options_t *options,
                                              hermes_agent_t **out_agent,
                                              hermes_error_t **out_error);
HERMES_C_API void hermes_agent_free(hermes_agent_t *agent);
HERMES_C_API void hermes_agent_freep(hermes_agent_t **agent);

/* Runs one turn; *out_text receives the answer (free with hermes_free). */
HERMES_C_API hermes_status_t hermes_agent_chat(hermes_agent_t *agent, const char *message,
                                               char **out_text, hermes_error_t **out_error);

/* Runs one turn; *out_result_json receives the result object (final_response, messages,
 * api_calls, completed, exit_reason, session_id, usage keys, error, ...). A turn that
 * failed still returns HERMES_OK with "completed": false and "error" set; a non-OK status
 * means the call itself was invalid. `system_message`, `history_json` (a JSON list of
 * messages replacing the agent's history) and `task_id` may be NULL. */
HERMES_C_API hermes_status_t hermes_agent_run_conversation(
    hermes_agent_t *agent, const char *user_message, const char *system_message,
    const char *history_json, const char *task_id, char **out_result_json,
    hermes_error_t **out_error);

/* Runs one turn described by `turn_json`: {"user_message": "...", and optionally
 * "system_message", "history" (a list of messages replacing the agent's history),
 * "task_id", and "output": {"schema": {...} or null, "name", "max_repairs"}, this turn's
 * answer schema in place of the agent's}. An unknown key or a value of the wrong type is
 * HERMES_ERR_INVALID_ARGUMENT; otherwise as hermes_agent_run_conversation. */
HERMES_C_API hermes_status_t hermes_agent_run_turn(hermes_agent_t *agent, const char *turn_json,
                                                   char **out_result_json, hermes_error_t **out_error);

/* Safe from any thread at any time. */
HERMES_C_API void hermes_agent_interrupt(hermes_agent_t *agent, const char *message);
HERMES_C_API hermes_status_t hermes_agent_steer(hermes_agent_t *agent, const char *text,
                                                hermes_error_t **out_error);

/* Interrupts the running turn without a message: hermes_agent_interrupt(agent, NULL).
 * Safe from any thread at any time. */
HERMES_C_API void hermes_agent_cancel(hermes_agent_t *agent);

/* Compacts the conversation now, giving `focus` (may be NULL) most of the summary.
 * *out_result_json: {"compacted", "messages_before", "messages_after", "tokens_before",
 * "tokens_after", "session_id"}. HERMES_ERR_FAILED_PRECONDITION when compression is off. */
HERMES_C_API hermes_status_t hermes_agent_compress(hermes_agent_t *agent, const char *focus,
                                                   char **out_result_json, hermes_error_t **out_error);
/* The transcript (without the system prompt) as a JSON list of messages. */
HERMES_C_API hermes_status_t hermes_agent_history(hermes_agent_t *agent, char **out_messages_json,
                                                  hermes_error_t **out_error);
/* Ends the current session and starts an empty one. */
HERMES_C_API hermes_status_t hermes_agent_new_session(hermes_agent_t *agent, hermes_error_t **out_error);
/* Switches to a stored session (its latest continuation after compression). */
HERMES_C_API hermes_status_t hermes_agent_resume(hermes_agent_t *agent, const char *session_id,
                                                 hermes_error_t **out_error);

/* The current session id (free with hermes_free). */
HERMES_C_API hermes_status_t hermes_agent_session_id(hermes_agent_t *agent, char **out_session_id,
                                                     hermes_error_t **out_error);

/* ------------------------------------------------------------ pull streaming ---- */

/* A turn running in the background whose events the caller pulls. */
typedef struct hermes_stream_t hermes_stream_t;

/* Starts a turn on `user_message` on a library thread. The agent must not be used for
 * anything else (except interrupt, cancel and steer) until the stream reported "done" or
 * was freed. Callbacks set in the options still run. */
HERMES_C_API hermes_status_t hermes_agent_stream(hermes_agent_t *agent, const char *user_message,
                                                 hermes_stream_t **out_stream, hermes_error_t **out_error);
/* Waits up to `timeout_ms` (negative: without limit) for the next event and stores it in
 * *out_event_json: {"type": "text"|"reasoning", "text"}, {"type": "tool", ...as the tool
 * progress callback...}, {"type": "status", "kind", "message"}, and last {"type":
 * "done", "result": {...as hermes_agent_run_conversation...}}. After "done" it returns
 * HERMES_OK with *out_event_json NULL. HERMES_ERR_DEADLINE_EXCEEDED when the time ran out
 * (the stream stays usable). */
HERMES_C_API hermes_status_t hermes_stream_next(hermes_stream_t *stream, int64_t timeout_ms,
                                                char **out_event_json, hermes_error_t **out_error);
/* Interrupts the turn if it still runs, waits for it, and releases the stream. */
HERMES_C_API void hermes_stream_free(hermes_stream_t *stream);
HERMES_C_API void hermes_stream_freep(hermes_stream_t **stream);

/* ------------------------------------------------------------------ runtime ---- */

/* Threads that run many agents' turns at once (see hermes/runtime.hpp). A turn started
 * with hermes_agent_run_turn_async runs on one of the runtime's I/O threads, which
 * multiplexes the model calls of all its turns; tool handlers run on worker threads. The
 * agent's callbacks (stream, status, approval, provider, memory provider,
 * ...) and the done callback run on those threads: keep them short, and never block one
 * waiting for another turn of the same runtime. The synchronous calls above need no
 * runtime. */
typedef struct hermes_runtime_t hermes_runtime_t;

/* Creates a runtime and starts its threads. `options_json` (NULL: all defaults) is
 * {"io_threads": 1 (1 to 4), "tool_workers": 16 (1 to 1024), "stack_bytes": 1048576 (the
 * address space each running turn reserves, 65536 to 67108864)}, every key optional. An
 * unknown key, a value of the wrong type or out of range is HERMES_ERR_INVALID_ARGUMENT
 * naming the key; HERMES_ERR_UNAVAILABLE when a thread cannot start. */
HERMES_C_API hermes_status_t hermes_runtime_new(const char *options_json, hermes_runtime_t **out_runtime,
                                                hermes_error_t **out_error);
/* Interrupts the turns still running (their done callbacks run, with "interrupted": true),
 * waits for them and for running tool handlers, then stops the threads. Never call it
 * from a runtime thread (a done or agent callback): it would wait for itself. */
HERMES_C_API void hermes_runtime_free(hermes_runtime_t *runtime);
HERMES_C_API void hermes_runtime_freep(hermes_runtime_t **runtime);
/* What the runtime is doing: {"turns_running", "transfers" (HTTP transfers in flight),
 * "tool_jobs" (work queued or running on the tool workers), "turns_started" (since it was
 * created), "io_threads", "tool_workers", "stack_bytes"}. Free *out_json with hermes_free.
 * Any thread, any time. */
HERMES_C_API hermes_status_t hermes_runtime_stats_json(const hermes_runtime_t *runtime, char **out_json,
                                                       hermes_error_t **out_error);

/* A turn ended: `result_json` is the result hermes_agent_run_turn returns (also for a turn
 * that failed or was interrupted), valid during the call. Runs on a runtime thread. It
 * may start the agent's next turn, but must not free the agent or the runtime. */
typedef void (*hermes_turn_done_fn)(const char *result_json, void *user_data);

/* Starts the turn `turn_json` describes (as hermes_agent_run_turn) on `runtime` and
 * returns at once. When it returns HERMES_OK, `done` is called exactly once, on a runtime
 * thread, when the turn ends, with `user_data`; the caller keeps ownership of user_data.
 * A refusal returns at once and never calls `done`: HERMES_ERR_INVALID_ARGUMENT for a NULL
 * agent, runtime or done, or a turn_json hermes_agent_run_turn would refuse;
 * HERMES_ERR_FAILED_PRECONDITION when the agent already runs a turn (of its own, a
 * stream's, or another thread's synchronous call). The runtime must outlive the turn
 * (hermes_runtime_free ends it early). hermes_agent_free with the turn still running
 * interrupts it and waits for it to end and for done to be called. */
HERMES_C_API hermes_status_t hermes_agent_run_turn_async(hermes_agent_t *agent, hermes_runtime_t *runtime,
                                                         const char *turn_json, hermes_turn_done_fn done,
                                                         void *user_data, hermes_error_t **out_error);

/* ------------------------------------------------------------ session store ---- */

typedef struct hermes_store_t hermes_store_t;

/* Opens (creating if needed) the SQLite session store at `path`; NULL or "" opens
 * <home>/state.db with home = $HERMES_HOME or ~/.hermes. */
HERMES_C_API hermes_status_t hermes_store_open(const char *path, hermes_store_t **out_store,
                                               hermes_error_t **out_error);
HERMES_C_API void hermes_store_free(hermes_store_t *store);
HERMES_C_API void hermes_store_freep(hermes_store_t **store);
/* The agent keeps its sessions in `store` (shared; the last user closes it). */
HERMES_C_API hermes_status_t hermes_agent_options_set_store(hermes_agent_options_t *options, hermes_store_t *store);
/* The newest sessions first (limit <= 0: 50), as a JSON list of {"id", "source",
 * "model", "title", "parent_session_id", "started_at", "ended_at", "end_reason",
 * "message_count", "tool_call_count", "api_call_count"}. */
HERMES_C_API hermes_status_t hermes_store_list(hermes_store_t *store, int32_t limit,
                                               char **out_sessions_json, hermes_error_t **out_error);
/* Full-text search (limit <= 0: 20): a JSON list of {"session_id", "message_id", "role",
 * "snippet", "timestamp", "source", "model", "tool_name"}; the match is marked >>> <<<. */
HERMES_C_API hermes_status_t hermes_store_search(hermes_store_t *store, const char *query, int32_t limit,
                                                 char **out_hits_json, hermes_error_t **out_error);
/* A session's messages as a JSON list. HERMES_ERR_NOT_FOUND for an unknown id. */
HERMES_C_API hermes_status_t hermes_store_load(hermes_store_t *store, const char *session_id,
                                               char **out_messages_json, hermes_error_t **out_error);
/* Deletes a session and its messages. HERMES_ERR_NOT_FOUND for an unknown id. */
HERMES_C_API hermes_status_t hermes_store_delete(hermes_store_t *store, const char *session_id,
                                                 hermes_error_t **out_error);

/* --------------------------------------------------------------- MCP servers ---- */

typedef struct hermes_mcp_servers_t hermes_mcp_servers_t;

/* Connects the MCP servers of a configuration document and registers their tools in
 * `registry` (give the registry to the agent with hermes_agent_options_set_tools). The
 * document is the mcp.json format:
 *   {"mcpServers": {"files": {"command": "npx", "args": ["-y", "pkg"], "env": {"K": "V"}},
 *                   "search": {"url": "https://host/mcp",
 *                              "headers": {"Authorization": "Bearer ..."}}}}
 * (see hermes/mcp.hpp for every key). A server that fails to connect does not fail the
 * call: it is retried in the background and hermes_mcp_servers_status says why. Only a
 * bad document is an error (HERMES_ERR_INVALID_ARGUMENT naming the key). *out_servers
 * keeps the servers connected until hermes_mcp_servers_free; safe to use from any thread. */
HERMES_C_API hermes_status_t hermes_mcp_servers_connect(const char *config_json,
                                                        hermes_tool_registry_t *registry,
                                                        hermes_mcp_servers_t **out_servers,
                                                        hermes_error_t **out_error);
/* A JSON list with one object per server: {"name", "connected", "protocol_version",
 * "server_name", "server_version", "tools" (registered names), "skipped_tools",
 * "restarts", "last_error" ("" when none)}. */
/* A remote MCP server asks for OAuth authorization: `request_json` is {"server",
 * "authorization_url"}. Show the URL to the user (open a browser), wait until the browser
 * lands on the configured redirect URI (oauth.redirect_uri), and set that URL, or the bare
 * code, with hermes_answer_set. Setting nothing refuses, and that server's connection
 * fails. Runs on a connection thread; calls for different servers may overlap. */
typedef void (*hermes_mcp_authorize_fn)(const char *request_json, hermes_answer_t *answer,
                                        void *user_data);
/* hermes_mcp_servers_connect, with `authorize` answering the servers' OAuth authorization
 * requests (NULL: none can be answered; stored tokens and the client credentials grant
 * still work). `destroy` (may be NULL) is called on `user_data` once the servers are freed,
 * or at once when the call fails. */
HERMES_C_API hermes_status_t hermes_mcp_servers_connect_authorized(
    const char *config_json, hermes_tool_registry_t *registry, hermes_mcp_authorize_fn authorize,
    void *user_data, hermes_destroy_fn destroy, hermes_mcp_servers_t **out_servers,
    hermes_error_t **out_error);
HERMES_C_API hermes_status_t hermes_mcp_servers_status(const hermes_mcp_servers_t *servers,
                                                       char **out_json, hermes_error_t **out_error);
/* Disconnects every server and removes its tools from the registry. */
HERMES_C_API void hermes_mcp_servers_free(hermes_mcp_servers_t *servers);
HERMES_C_API void hermes_mcp_servers_freep(hermes_mcp_servers_t **servers);

/* ----------------------------------------------------------------- utilities ---- */

/* Classifies a failed model call as the agent does. `facts_json`: {"status_code",
 * "message", "body" (text or JSON), "transport" ("", "timeout", "connect", "ssl",
 * "disconnect"), "provider", "model", "approx_tokens", "context_length",
 * "num_messages", "retry_after" (the response's Retry-After in seconds)}, every key
 * optional. *out_json: {"reason", "retryable", "should_compress",
 * "should_rotate_credential", "should_fallback", "message", "error_code",
 * "error_context" (an object: "upstream_provider", "billing_unverified", ...),
 * "billing_unverified", "retry_after"}. */
HERMES_C_API hermes_status_t hermes_classify_api_error(const char *facts_json, char **out_json,
                                                       hermes_error_t **out_error);
/* The context window an error message states; HERMES_ERR_NOT_FOUND when it states none. */
HERMES_C_API hermes_status_t hermes_parse_context_limit(const char *message, int64_t *out_tokens);
/* The context window of `model` in tokens: `config_override` when positive, else the cache
 * in `home` (NULL: the default home), the endpoint at `base_url` (NULL: none; its /models
 * list, llama.cpp's /props, Ollama's /api/show), the built-in model table, then 256000.
 * `provider` and `api_key` may be NULL. Never fails for an unknown model or a dead
 * endpoint; only NULL `model` or `out_tokens` are invalid. */
HERMES_C_API hermes_status_t hermes_get_model_context_length(const char *model, const char *base_url,
                                                             const char *provider, int64_t config_override,
                                                             const char *api_key, const char *home,
                                                             int64_t *out_tokens);
/* {"dangerous": bool, "description", "hardline": bool} for a shell command. Hardline
 * commands are refused whatever the approval. */
HERMES_C_API hermes_status_t hermes_detect_dangerous_command(const char *command, char **out_json,
                                                             hermes_error_t **out_error);
/* `text` with API keys, tokens and other secrets masked. */
HERMES_C_API hermes_status_t hermes_redact_text(const char *text, char **out_text, hermes_error_t **out_error);
/* Prepares a JSON message list for sending: orphaned tool results dropped, missing ones
 * stubbed, thinking-only turns dropped, invalid UTF-8 replaced. */
HERMES_C_API hermes_status_t hermes_sanitize_messages(const char *messages_json, char **out_json,
                                                      hermes_error_t **out_error);
/* A rough token count of text (about four characters per token); 0 for NULL. */
HERMES_C_API int64_t hermes_estimate_tokens(const char *text);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HERMES_C_H */
