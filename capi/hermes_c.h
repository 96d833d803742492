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
 *   - hermes_agent_t: one call at a time, except hermes_agent_interrupt and
 *     hermes_agent_steer, which any thread may call at any time, also while another
 *     thread runs hermes_agent_chat/run_conversation on the same agent. Distinct agents
 *     are independent.
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
#define HERMES_C_VERSION_MINOR 1
#define HERMES_C_VERSION_PATCH 0
/* Incremented on every incompatible change of this header. */
#define HERMES_ABI_VERSION 1

/* The library version, e.g. "0.1.0". Static storage; do not free. */
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
HERMES_C_API hermes_status_t hermes_agent_options_set_source(hermes_agent_options_t *options, const char *source);
HERMES_C_API hermes_status_t hermes_agent_options_set_ephemeral_system_prompt(hermes_agent_options_t *options, const char *prompt);
HERMES_C_API hermes_status_t hermes_agent_options_set_max_iterations(hermes_agent_options_t *options, int32_t max_iterations);
HERMES_C_API hermes_status_t hermes_agent_options_set_max_tokens(hermes_agent_options_t *options, int64_t max_tokens);
HERMES_C_API hermes_status_t hermes_agent_options_set_temperature(hermes_agent_options_t *options, double temperature);
HERMES_C_API hermes_status_t hermes_agent_options_set_stream(hermes_agent_options_t *options, int stream);
/* 0: keep nothing on disk (no session store). */
HERMES_C_API hermes_status_t hermes_agent_options_set_persist_sessions(hermes_agent_options_t *options, int persist);
HERMES_C_API hermes_status_t hermes_agent_options_set_max_retries(hermes_agent_options_t *options, int32_t max_retries);

/* Timeouts in milliseconds; 0 disables a limit. */
#define HERMES_TIMEOUT_CONNECT 0
#define HERMES_TIMEOUT_FIRST_BYTE 1
#define HERMES_TIMEOUT_IDLE 2
#define HERMES_TIMEOUT_TOTAL 3
HERMES_C_API hermes_status_t hermes_agent_options_set_timeout_ms(hermes_agent_options_t *options, int32_t which, int64_t milliseconds);

/* The tools the agent may use. The options share the registry (it stays valid after
 * hermes_tool_registry_free: the last user releases it). */
HERMES_C_API hermes_status_t hermes_agent_options_set_tools(hermes_agent_options_t *options, hermes_tool_registry_t *registry);
/* Enables a toolset (all toolsets when none is enabled). */
HERMES_C_API hermes_status_t hermes_agent_options_enable_toolset(hermes_agent_options_t *options, const char *toolset);

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

/* Safe from any thread at any time. */
HERMES_C_API void hermes_agent_interrupt(hermes_agent_t *agent, const char *message);
HERMES_C_API hermes_status_t hermes_agent_steer(hermes_agent_t *agent, const char *text,
                                                hermes_error_t **out_error);

/* The current session id (free with hermes_free). */
HERMES_C_API hermes_status_t hermes_agent_session_id(hermes_agent_t *agent, char **out_session_id,
                                                     hermes_error_t **out_error);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HERMES_C_H */
