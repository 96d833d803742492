package hermes

// #include <stdlib.h>
// #include "callbacks.h"
import "C"

import (
	"math"
	"time"
	"unsafe"
)

// Option configures NewAgent. An option the library refuses makes NewAgent fail with an
// error naming it.
type Option func(o *options) error

// options is the C options object NewAgent builds and applies Options to.
type options struct {
	ptr *C.hermes_agent_options_t
}

type stringSetter func(*C.hermes_agent_options_t, *C.char) C.hermes_status_t

func stringOption(field string, value string, set stringSetter) Option {
	return func(o *options) error {
		text, err := cString(field, value)
		if err != nil {
			return err
		}
		defer C.free(unsafe.Pointer(text))
		return checkSetter(set(o.ptr, text), field)
	}
}

// WithModel sets the model name, e.g. "gpt-4.1-mini". Required.
func WithModel(model string) Option {
	return stringOption("model", model, func(o *C.hermes_agent_options_t, v *C.char) C.hermes_status_t {
		return C.hermes_agent_options_set_model(o, v)
	})
}

// WithProvider sets the provider name (e.g. "openrouter"); by default it is derived
// from the base URL.
func WithProvider(provider string) Option {
	return stringOption("provider", provider, func(o *C.hermes_agent_options_t, v *C.char) C.hermes_status_t {
		return C.hermes_agent_options_set_provider(o, v)
	})
}

// WithAPIMode sets the wire format: "chat_completions", "codex_responses" or
// "anthropic_messages".
func WithAPIMode(mode string) Option {
	return stringOption("api_mode", mode, func(o *C.hermes_agent_options_t, v *C.char) C.hermes_status_t {
		return C.hermes_agent_options_set_api_mode(o, v)
	})
}

// WithBaseURL sets the API's base URL, e.g. "http://localhost:8000/v1".
func WithBaseURL(url string) Option {
	return stringOption("base_url", url, func(o *C.hermes_agent_options_t, v *C.char) C.hermes_status_t {
		return C.hermes_agent_options_set_base_url(o, v)
	})
}

// WithAPIKey sets the API key.
func WithAPIKey(key string) Option {
	return stringOption("api_key", key, func(o *C.hermes_agent_options_t, v *C.char) C.hermes_status_t {
		return C.hermes_agent_options_set_api_key(o, v)
	})
}

// WithExtraAPIKey adds a key rotated to on rate limits and authentication failures.
func WithExtraAPIKey(key string) Option {
	return stringOption("api_key", key, func(o *C.hermes_agent_options_t, v *C.char) C.hermes_status_t {
		return C.hermes_agent_options_add_api_key(o, v)
	})
}

// WithHome sets the hermes home directory (sessions, memory); by default $HERMES_HOME
// or ~/.hermes.
func WithHome(dir string) Option {
	return stringOption("home", dir, func(o *C.hermes_agent_options_t, v *C.char) C.hermes_status_t {
		return C.hermes_agent_options_set_home(o, v)
	})
}

// WithContextDir names the project directory whose context files (AGENTS.md,
// .cursorrules, ...) join the system prompt; none are loaded by default.
func WithContextDir(dir string) Option {
	return stringOption("context_dir", dir, func(o *C.hermes_agent_options_t, v *C.char) C.hermes_status_t {
		return C.hermes_agent_options_set_context_dir(o, v)
	})
}

// WithSessionID resumes a stored session.
func WithSessionID(id string) Option {
	return stringOption("session_id", id, func(o *C.hermes_agent_options_t, v *C.char) C.hermes_status_t {
		return C.hermes_agent_options_set_session_id(o, v)
	})
}

// WithSource records where the conversation comes from on the session, e.g. "cli".
func WithSource(source string) Option {
	return stringOption("source", source, func(o *C.hermes_agent_options_t, v *C.char) C.hermes_status_t {
		return C.hermes_agent_options_set_source(o, v)
	})
}

// WithPlatformHint states the application's own hint on how answers are shown, in place
// of the one for the source ("telegram", "email", ...); "" for no hint at all.
func WithPlatformHint(hint string) Option {
	return stringOption("platform_hint", hint, func(o *C.hermes_agent_options_t, v *C.char) C.hermes_status_t {
		return C.hermes_agent_options_set_platform_hint(o, v)
	})
}

// WithEphemeralSystemPrompt adds a system prompt to every request without storing it.
func WithEphemeralSystemPrompt(prompt string) Option {
	return stringOption("ephemeral_system_prompt", prompt, func(o *C.hermes_agent_options_t, v *C.char) C.hermes_status_t {
		return C.hermes_agent_options_set_ephemeral_system_prompt(o, v)
	})
}

// WithToolset enables a toolset; when none is enabled, all are.
func WithToolset(toolset string) Option {
	return stringOption("toolset", toolset, func(o *C.hermes_agent_options_t, v *C.char) C.hermes_status_t {
		return C.hermes_agent_options_enable_toolset(o, v)
	})
}

// WithMaxIterations limits model calls per turn before the agent asks for a final
// summary (at least 1).
func WithMaxIterations(n int) Option {
	return func(o *options) error {
		if n < 1 || n > math.MaxInt32 {
			return checkSetter(C.HERMES_ERR_INVALID_ARGUMENT, "max_iterations")
		}
		return checkSetter(C.hermes_agent_options_set_max_iterations(o.ptr, C.int32_t(n)), "max_iterations")
	}
}

// WithMaxTokens limits generated tokens per model call; 0 leaves it to the provider.
func WithMaxTokens(n int64) Option {
	return func(o *options) error {
		return checkSetter(C.hermes_agent_options_set_max_tokens(o.ptr, C.int64_t(n)), "max_tokens")
	}
}

// WithTemperature sets the sampling temperature (finite, not negative).
func WithTemperature(t float64) Option {
	return func(o *options) error {
		return checkSetter(C.hermes_agent_options_set_temperature(o.ptr, C.double(t)), "temperature")
	}
}

// WithStream turns streamed answers on or off (on by default).
func WithStream(on bool) Option {
	return func(o *options) error {
		return checkSetter(C.hermes_agent_options_set_stream(o.ptr, cBool(on)), "stream")
	}
}

// WithPersistSessions turns the on-disk session store on or off (on by default).
func WithPersistSessions(on bool) Option {
	return func(o *options) error {
		return checkSetter(C.hermes_agent_options_set_persist_sessions(o.ptr, cBool(on)), "persist_sessions")
	}
}

// WithDurability sets when the commits of <home>/state.db reach the disk: "full" (the
// default) waits for the disk at every commit; "normal" survives a crash of the process,
// but a power loss may take the last commits back.
func WithDurability(durability string) Option {
	return stringOption("durability", durability, func(o *C.hermes_agent_options_t, v *C.char) C.hermes_status_t {
		return C.hermes_agent_options_set_durability(o, v)
	})
}

// WithMaxRetries sets the attempts per model call on retryable failures (at least 1).
func WithMaxRetries(n int) Option {
	return func(o *options) error {
		if n < 1 || n > math.MaxInt32 {
			return checkSetter(C.HERMES_ERR_INVALID_ARGUMENT, "max_retries")
		}
		return checkSetter(C.hermes_agent_options_set_max_retries(o.ptr, C.int32_t(n)), "max_retries")
	}
}

// Timeout names one of the network timeouts WithTimeout sets.
type Timeout int32

const (
	TimeoutConnect   Timeout = C.HERMES_TIMEOUT_CONNECT    // Establishing the connection.
	TimeoutFirstByte Timeout = C.HERMES_TIMEOUT_FIRST_BYTE // Request sent to first byte of the answer.
	TimeoutIdle      Timeout = C.HERMES_TIMEOUT_IDLE       // Between two chunks of a streamed answer.
	TimeoutTotal     Timeout = C.HERMES_TIMEOUT_TOTAL      // The whole request.
	// A stream sending only keep-alives, no real event, for this long.
	TimeoutStaleStream Timeout = C.HERMES_TIMEOUT_STALE_STREAM
)

// WithTimeout sets one network timeout; 0 disables that limit.
func WithTimeout(which Timeout, limit time.Duration) Option {
	return func(o *options) error {
		ms := limit.Milliseconds()
		return checkSetter(C.hermes_agent_options_set_timeout_ms(o.ptr, C.int32_t(which), C.int64_t(ms)), "timeout")
	}
}

// Backoff names one of the waits between retries of a model call that WithRetryBackoff
// sets. Without a Retry-After from the server the wait starts at BackoffBase and doubles
// per retry up to BackoffMax, plus up to half again at random; a response of the wrong
// shape (an error body with HTTP 200) uses the InvalidResponse pair instead.
type Backoff int32

const (
	BackoffBase                Backoff = C.HERMES_BACKOFF_BASE                  // 2 s.
	BackoffMax                 Backoff = C.HERMES_BACKOFF_MAX                   // 60 s.
	BackoffInvalidResponseBase Backoff = C.HERMES_BACKOFF_INVALID_RESPONSE_BASE // 5 s.
	BackoffInvalidResponseMax  Backoff = C.HERMES_BACKOFF_INVALID_RESPONSE_MAX  // 120 s.
)

// WithRetryBackoff sets one wait between retries; 0 retries at once.
func WithRetryBackoff(which Backoff, wait time.Duration) Option {
	return func(o *options) error {
		ms := wait.Milliseconds()
		return checkSetter(C.hermes_agent_options_set_retry_backoff_ms(o.ptr, C.int32_t(which), C.int64_t(ms)), "retry_backoff")
	}
}

// WithDelegation limits the sub-agents the delegate_task tool starts (enable the
// "delegation" toolset to offer it): each runs at most maxIterations model calls (default
// 50), and one call starts at most maxConcurrentChildren (default 3). Both at least 1.
func WithDelegation(maxIterations, maxConcurrentChildren int) Option {
	return func(o *options) error {
		for _, n := range []int{maxIterations, maxConcurrentChildren} {
			if n < math.MinInt32 || n > math.MaxInt32 {
				return &Error{Code: StatusInvalidArgument, Message: "delegation: limits must fit in 32 bits"}
			}
		}
		var cerr *C.hermes_error_t
		status := C.hermes_agent_options_set_delegation(o.ptr, C.int32_t(maxIterations),
			C.int32_t(maxConcurrentChildren), &cerr)
		return errorFrom(status, cerr)
	}
}

// ToolUseEnforcement says whether the system prompt tells the model to act with its
// tools instead of describing what it would do (WithToolUseEnforcement).
type ToolUseEnforcement int32

const (
	// For the model families known to narrate instead of calling tools (the default).
	ToolUseEnforcementAuto ToolUseEnforcement = C.HERMES_TOOL_USE_ENFORCEMENT_AUTO
	ToolUseEnforcementOff  ToolUseEnforcement = C.HERMES_TOOL_USE_ENFORCEMENT_OFF // For no model.
	ToolUseEnforcementOn   ToolUseEnforcement = C.HERMES_TOOL_USE_ENFORCEMENT_ON  // For every model.
)

// WithToolUseEnforcement sets whether the system prompt carries the "act, do not
// narrate" block.
func WithToolUseEnforcement(mode ToolUseEnforcement) Option {
	return func(o *options) error {
		return checkSetter(C.hermes_agent_options_set_tool_use_enforcement(o.ptr, C.int(mode)), "tool_use_enforcement")
	}
}

// WithTools gives the agent a registry's tools. The agent shares the registry, which
// may be closed afterwards.
func WithTools(tools *ToolRegistry) Option {
	return func(o *options) error {
		if tools == nil {
			return &Error{Code: StatusInvalidArgument, Message: "tools: nil"}
		}
		return tools.use(func(r *C.hermes_tool_registry_t) error {
			return checkSetter(C.hermes_agent_options_set_tools(o.ptr, r), "tools")
		})
	}
}

// WithStreamCallback calls f with each piece of streamed answer text as it arrives, and
// with "" when a block of text ends, on the goroutine of the Chat call.
func WithStreamCallback(f func(delta string)) Option {
	return func(o *options) error {
		if f == nil {
			return checkSetter(C.hermes_agent_options_set_stream_callback(o.ptr, nil, nil, nil), "stream_callback")
		}
		userData := newUserData(f)
		status := C.hermes_agent_options_set_stream_callback(o.ptr,
			C.hermes_stream_fn(C.hermes_go_stream), userData, C.hermes_destroy_fn(C.hermes_go_release))
		return adopted(status, userData, "stream_callback")
	}
}

// WithToolProgressCallback calls f with a JSON event when a tool call starts and when it
// completes: {"phase":"started"|"completed","call_id","name","preview",...}. f may run
// on several threads at once when tools run in parallel.
func WithToolProgressCallback(f func(eventJSON string)) Option {
	return eventOption(f, "tool_progress_callback", func(o *C.hermes_agent_options_t, fn C.hermes_event_fn, data unsafe.Pointer) C.hermes_status_t {
		return C.hermes_agent_options_set_tool_progress_callback(o, fn, data, C.hermes_destroy_fn(C.hermes_go_release))
	})
}

// WithStatusCallback calls f with status notices as JSON, {"kind","message"} (retries,
// compression, ...).
func WithStatusCallback(f func(eventJSON string)) Option {
	return eventOption(f, "status_callback", func(o *C.hermes_agent_options_t, fn C.hermes_event_fn, data unsafe.Pointer) C.hermes_status_t {
		return C.hermes_agent_options_set_status_callback(o, fn, data, C.hermes_destroy_fn(C.hermes_go_release))
	})
}

// AuthRefreshFunc receives the request of a rejected credential as JSON,
// {"provider","base_url","model","http_status","message"}, and returns a fresh API key
// with ok true, or ok false to let the agent rotate keys or fall back.
type AuthRefreshFunc func(requestJSON string) (apiKey string, ok bool)

// WithAuthRefreshCallback calls f when the provider rejects the credential (a 401, or a
// 403 not about billing); the call is retried with the key f returns. Asked at most once
// per model call; a panic in f counts as no answer.
func WithAuthRefreshCallback(f AuthRefreshFunc) Option {
	return func(o *options) error {
		if f == nil {
			return checkSetter(C.hermes_agent_options_set_auth_refresh_callback(o.ptr, nil, nil, nil), "auth_refresh_callback")
		}
		userData := newUserData(f)
		status := C.hermes_agent_options_set_auth_refresh_callback(o.ptr,
			C.hermes_auth_refresh_fn(C.hermes_go_auth_refresh), userData, C.hermes_destroy_fn(C.hermes_go_release))
		return adopted(status, userData, "auth_refresh_callback")
	}
}

type eventSetter func(*C.hermes_agent_options_t, C.hermes_event_fn, unsafe.Pointer) C.hermes_status_t

func eventOption(f func(string), what string, set eventSetter) Option {
	return func(o *options) error {
		if f == nil {
			return checkSetter(set(o.ptr, nil, nil), what)
		}
		userData := newUserData(f)
		return adopted(set(o.ptr, C.hermes_event_fn(C.hermes_go_event), userData), userData, what)
	}
}

// adopted finishes a callback setter: on failure the options did not take user_data.
func adopted(status C.hermes_status_t, userData unsafe.Pointer, what string) error {
	if status != C.HERMES_OK {
		releaseUserData(userData)
	}
	return checkSetter(status, what)
}

func cBool(on bool) C.int {
	if on {
		return 1
	}
	return 0
}
