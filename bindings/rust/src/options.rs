//! Agent options: what model to call, where, with which tools and callbacks.

use std::fmt;
use std::os::raw::{c_char, c_int, c_void};
use std::slice;
use std::time::Duration;

use crate::callback;
use crate::error::{self, check, Error, ErrorCode, Result};
use crate::ffi;
use crate::text;
use crate::tools::ToolRegistry;

type TextCallback = Box<dyn Fn(&str) + Send + Sync>;
type AuthRefreshCallback = Box<dyn Fn(&str) -> Option<String> + Send + Sync>;

/// Which network timeout [`AgentOptions::set_timeout`] sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timeout {
    /// Establishing the connection.
    Connect,
    /// From sending the request to the first byte of the answer.
    FirstByte,
    /// Between two chunks of a streamed answer.
    Idle,
    /// The whole request.
    Total,
    /// A stream sending only keep-alives, no real event, for this long.
    StaleStream,
}

/// Which wait between retries [`AgentOptions::set_retry_backoff`] sets. Without a
/// Retry-After from the server, the wait starts at `Base` and doubles per retry up to
/// `Max`, plus up to half again at random; a response of the wrong shape (an error body
/// with HTTP 200) uses the `InvalidResponse` pair instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backoff {
    /// The first wait (2 s).
    Base,
    /// The longest wait (60 s).
    Max,
    /// The first wait after a response of the wrong shape (5 s).
    InvalidResponseBase,
    /// The longest wait after responses of the wrong shape (120 s).
    InvalidResponseMax,
}

/// Whether the system prompt tells the model to act with its tools instead of describing
/// what it would do ([`AgentOptions::set_tool_use_enforcement`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolUseEnforcement {
    /// For the model families known to narrate instead of calling tools (the default).
    Auto,
    /// For no model.
    Off,
    /// For every model.
    On,
}

/// The settings an [`Agent`](crate::Agent) is created from. Setters return
/// `Result<&mut Self>`, so they chain with `?`:
///
/// ```no_run
/// # fn main() -> hermes::Result<()> {
/// let mut options = hermes::AgentOptions::new()?;
/// options.set_model("gpt-4.1-mini")?.set_api_key("sk-...")?;
/// # Ok(()) }
/// ```
///
/// An agent copies what it needs: the options may be changed or dropped afterwards.
pub struct AgentOptions {
    raw: *mut ffi::hermes_agent_options_t,
}

// SAFETY: the C options may move between threads; they are changed through `&mut self`
// only, and the callbacks they hold are Send + Sync.
unsafe impl Send for AgentOptions {}
unsafe impl Sync for AgentOptions {}

// A setter of a string option: `$name(value)` calls `$c` and names `$field` in errors.
macro_rules! string_setters {
    ($($(#[$doc:meta])* $name:ident => $c:ident, $field:literal;)*) => {$(
        $(#[$doc])*
        pub fn $name(&mut self, value: &str) -> Result<&mut Self> {
            let value = text::to_c($field, value)?;
            // SAFETY: both pointers are valid for the call; the setter copies the text.
            check(unsafe { ffi::$c(self.raw, value.as_ptr()) }, $field)?;
            Ok(self)
        }
    )*};
}

impl AgentOptions {
    /// Options with the library's defaults (OpenAI's API, sessions kept on disk).
    pub fn new() -> Result<AgentOptions> {
        crate::ensure_abi_compatible()?;
        // SAFETY: no preconditions; NULL only when out of memory.
        let raw = unsafe { ffi::hermes_agent_options_new() };
        if raw.is_null() {
            return Err(Error::new(
                ErrorCode::ResourceExhausted,
                "agent options: out of memory",
            ));
        }
        Ok(AgentOptions { raw })
    }

    /// Sets the options an options document names, e.g.
    /// `{"provider": {"model": "gpt-4.1-mini"}, "compression": {"threshold_percent": 0.7}}` (nested as
    /// [`describe_options`] lists them; durations in seconds). The whole document is
    /// checked first: an unknown key or a bad value is an InvalidArgument error naming
    /// the option, and then nothing changes.
    pub fn apply_json(&mut self, document: &str) -> Result<&mut Self> {
        let document = text::to_c("options", document)?;
        error::call(|out_error| unsafe {
            // SAFETY: `raw` is ours; the text is valid for the call.
            ffi::hermes_agent_options_set_json(self.raw, document.as_ptr(), out_error)
        })?;
        Ok(self)
    }

    /// Every option of the options document with its current value, as JSON text (API
    /// keys included: treat it as a secret).
    pub fn to_json(&self) -> Result<String> {
        let mut out: *mut c_char = std::ptr::null_mut();
        error::call(|out_error| unsafe {
            // SAFETY: `raw` is ours and `out` receives a string we own.
            ffi::hermes_agent_options_get_json(self.raw, &mut out, out_error)
        })?;
        // SAFETY: the library allocated `out` for us.
        Ok(unsafe { text::take(out) })
    }

    string_setters! {
        /// The model name, e.g. "gpt-4.1-mini". Required.
        set_model => hermes_agent_options_set_model, "model";
        /// The provider name (e.g. "openrouter"); by default derived from the base URL.
        set_provider => hermes_agent_options_set_provider, "provider";
        /// The wire format: "chat_completions", "codex_responses" or "anthropic_messages".
        set_api_mode => hermes_agent_options_set_api_mode, "api_mode";
        /// The API's base URL, e.g. "http://localhost:8000/v1".
        set_base_url => hermes_agent_options_set_base_url, "base_url";
        /// The API key.
        set_api_key => hermes_agent_options_set_api_key, "api_key";
        /// A further key, rotated to on rate limits and authentication failures.
        add_api_key => hermes_agent_options_add_api_key, "api_key";
        /// The hermes home directory (sessions, memory); by default $HERMES_HOME or ~/.hermes.
        set_home => hermes_agent_options_set_home, "home";
        /// The project directory whose context files (AGENTS.md, .cursorrules, ...) join the
        /// system prompt; none are loaded by default.
        set_context_dir => hermes_agent_options_set_context_dir, "context_dir";
        /// Resume this stored session.
        set_session_id => hermes_agent_options_set_session_id, "session_id";
        /// When the commits of <home>/state.db reach the disk: "full" (the default) waits
        /// for the disk at every commit; "normal" survives a crash of the process, but a
        /// power loss may take the last commits back.
        set_durability => hermes_agent_options_set_durability, "durability";
        /// Where the conversation takes place (stored with the session), e.g. "cli",
        /// "telegram", "email": it also picks the system prompt's hint on what renders there.
        set_source => hermes_agent_options_set_source, "source";
        /// The application's own hint on how answers are shown, in place of the source's;
        /// "" for no hint at all.
        set_platform_hint => hermes_agent_options_set_platform_hint, "platform_hint";
        /// A system prompt added to every request but never stored.
        set_ephemeral_system_prompt => hermes_agent_options_set_ephemeral_system_prompt, "ephemeral_system_prompt";
        /// Enables a toolset; when none is enabled, all are.
        enable_toolset => hermes_agent_options_enable_toolset, "toolset";
    }

    /// Model calls per turn before the agent asks for a final summary (at least 1).
    pub fn set_max_iterations(&mut self, max_iterations: i32) -> Result<&mut Self> {
        // SAFETY: `raw` is valid.
        check(
            unsafe { ffi::hermes_agent_options_set_max_iterations(self.raw, max_iterations) },
            "max_iterations",
        )?;
        Ok(self)
    }

    /// The limit on generated tokens per model call; 0 leaves it to the provider.
    pub fn set_max_tokens(&mut self, max_tokens: i64) -> Result<&mut Self> {
        // SAFETY: `raw` is valid.
        check(
            unsafe { ffi::hermes_agent_options_set_max_tokens(self.raw, max_tokens) },
            "max_tokens",
        )?;
        Ok(self)
    }

    /// The sampling temperature (finite, not negative).
    pub fn set_temperature(&mut self, temperature: f64) -> Result<&mut Self> {
        // SAFETY: `raw` is valid.
        check(
            unsafe { ffi::hermes_agent_options_set_temperature(self.raw, temperature) },
            "temperature",
        )?;
        Ok(self)
    }

    /// Whether answers are streamed (on by default).
    pub fn set_stream(&mut self, stream: bool) -> Result<&mut Self> {
        // SAFETY: `raw` is valid.
        check(
            unsafe { ffi::hermes_agent_options_set_stream(self.raw, stream as c_int) },
            "stream",
        )?;
        Ok(self)
    }

    /// Whether sessions are stored on disk (on by default); off keeps nothing.
    pub fn set_persist_sessions(&mut self, persist: bool) -> Result<&mut Self> {
        // SAFETY: `raw` is valid.
        check(
            unsafe { ffi::hermes_agent_options_set_persist_sessions(self.raw, persist as c_int) },
            "persist_sessions",
        )?;
        Ok(self)
    }

    /// Attempts per model call on retryable failures (at least 1).
    pub fn set_max_retries(&mut self, max_retries: i32) -> Result<&mut Self> {
        // SAFETY: `raw` is valid.
        check(
            unsafe { ffi::hermes_agent_options_set_max_retries(self.raw, max_retries) },
            "max_retries",
        )?;
        Ok(self)
    }

    /// Sets one network timeout; a zero duration disables that limit.
    pub fn set_timeout(&mut self, which: Timeout, limit: Duration) -> Result<&mut Self> {
        let which = match which {
            Timeout::Connect => ffi::HERMES_TIMEOUT_CONNECT,
            Timeout::FirstByte => ffi::HERMES_TIMEOUT_FIRST_BYTE,
            Timeout::Idle => ffi::HERMES_TIMEOUT_IDLE,
            Timeout::Total => ffi::HERMES_TIMEOUT_TOTAL,
            Timeout::StaleStream => ffi::HERMES_TIMEOUT_STALE_STREAM,
        };
        let milliseconds = i64::try_from(limit.as_millis()).unwrap_or(i64::MAX);
        // SAFETY: `raw` is valid.
        check(
            unsafe { ffi::hermes_agent_options_set_timeout_ms(self.raw, which, milliseconds) },
            "timeout",
        )?;
        Ok(self)
    }

    /// Sets one of the waits between retries of a model call; zero retries at once.
    pub fn set_retry_backoff(&mut self, which: Backoff, wait: Duration) -> Result<&mut Self> {
        let which = match which {
            Backoff::Base => ffi::HERMES_BACKOFF_BASE,
            Backoff::Max => ffi::HERMES_BACKOFF_MAX,
            Backoff::InvalidResponseBase => ffi::HERMES_BACKOFF_INVALID_RESPONSE_BASE,
            Backoff::InvalidResponseMax => ffi::HERMES_BACKOFF_INVALID_RESPONSE_MAX,
        };
        let milliseconds = i64::try_from(wait.as_millis()).unwrap_or(i64::MAX);
        // SAFETY: `raw` is valid.
        check(
            unsafe {
                ffi::hermes_agent_options_set_retry_backoff_ms(self.raw, which, milliseconds)
            },
            "retry_backoff",
        )?;
        Ok(self)
    }

    /// Limits of the sub-agents the delegate_task tool starts (enable the "delegation"
    /// toolset to offer it): each runs at most `max_iterations` model calls (default 50),
    /// and one call starts at most `max_concurrent_children` (default 3). Both at least 1.
    pub fn set_delegation(
        &mut self,
        max_iterations: i32,
        max_concurrent_children: i32,
    ) -> Result<&mut Self> {
        // SAFETY: `raw` is valid; the error object, if any, is ours.
        error::call(|out_error| unsafe {
            ffi::hermes_agent_options_set_delegation(
                self.raw,
                max_iterations,
                max_concurrent_children,
                out_error,
            )
        })?;
        Ok(self)
    }

    /// Whether the system prompt carries the "act, do not narrate" block.
    pub fn set_tool_use_enforcement(&mut self, mode: ToolUseEnforcement) -> Result<&mut Self> {
        let mode = match mode {
            ToolUseEnforcement::Auto => ffi::HERMES_TOOL_USE_ENFORCEMENT_AUTO,
            ToolUseEnforcement::Off => ffi::HERMES_TOOL_USE_ENFORCEMENT_OFF,
            ToolUseEnforcement::On => ffi::HERMES_TOOL_USE_ENFORCEMENT_ON,
        };
        // SAFETY: `raw` is valid.
        check(
            unsafe { ffi::hermes_agent_options_set_tool_use_enforcement(self.raw, mode) },
            "tool_use_enforcement",
        )?;
        Ok(self)
    }

    /// The tools agents created from these options may use. The options share the
    /// registry, which may be dropped afterwards.
    pub fn set_tools(&mut self, tools: &ToolRegistry) -> Result<&mut Self> {
        // SAFETY: both handles are valid; the options take a shared reference.
        check(
            unsafe { ffi::hermes_agent_options_set_tools(self.raw, tools.as_ptr()) },
            "tools",
        )?;
        Ok(self)
    }

    /// Called with each piece of streamed answer text as it arrives, and with "" when a
    /// block of text ends. Runs on the thread of the chat call.
    pub fn set_stream_callback<F>(&mut self, callback: F) -> Result<&mut Self>
    where
        F: Fn(&str) + Send + Sync + 'static,
    {
        let user_data = callback::into_user_data::<TextCallback>(Box::new(callback));
        // SAFETY: the options own user_data from here on and free it with destroy.
        let status = unsafe {
            ffi::hermes_agent_options_set_stream_callback(
                self.raw,
                Some(on_stream),
                user_data,
                Some(callback::destroy::<TextCallback>),
            )
        };
        self.adopted::<TextCallback>(status, user_data, "stream_callback")
    }

    /// Called with a JSON event when a tool call starts and when it completes:
    /// `{"phase":"started"|"completed","call_id","name","preview",...}`. May run on
    /// several threads at once when tools run in parallel.
    pub fn set_tool_progress_callback<F>(&mut self, callback: F) -> Result<&mut Self>
    where
        F: Fn(&str) + Send + Sync + 'static,
    {
        let user_data = callback::into_user_data::<TextCallback>(Box::new(callback));
        // SAFETY: as in set_stream_callback.
        let status = unsafe {
            ffi::hermes_agent_options_set_tool_progress_callback(
                self.raw,
                Some(on_event),
                user_data,
                Some(callback::destroy::<TextCallback>),
            )
        };
        self.adopted::<TextCallback>(status, user_data, "tool_progress_callback")
    }

    /// Called with status notices as JSON, `{"kind","message"}` (retries, compression, ...).
    pub fn set_status_callback<F>(&mut self, callback: F) -> Result<&mut Self>
    where
        F: Fn(&str) + Send + Sync + 'static,
    {
        let user_data = callback::into_user_data::<TextCallback>(Box::new(callback));
        // SAFETY: as in set_stream_callback.
        let status = unsafe {
            ffi::hermes_agent_options_set_status_callback(
                self.raw,
                Some(on_event),
                user_data,
                Some(callback::destroy::<TextCallback>),
            )
        };
        self.adopted::<TextCallback>(status, user_data, "status_callback")
    }

    /// Called when the provider rejects the credential (a 401, or a 403 not about
    /// billing) with the request as JSON, `{"provider","base_url","model","http_status",
    /// "message"}`. Returning a fresh key retries the call with it; `None` lets the agent
    /// rotate keys or fall back. Asked at most once per model call; a panic counts as
    /// `None`.
    pub fn set_auth_refresh_callback<F>(&mut self, callback: F) -> Result<&mut Self>
    where
        F: Fn(&str) -> Option<String> + Send + Sync + 'static,
    {
        let user_data = callback::into_user_data::<AuthRefreshCallback>(Box::new(callback));
        // SAFETY: as in set_stream_callback.
        let status = unsafe {
            ffi::hermes_agent_options_set_auth_refresh_callback(
                self.raw,
                Some(on_auth_refresh),
                user_data,
                Some(callback::destroy::<AuthRefreshCallback>),
            )
        };
        self.adopted::<AuthRefreshCallback>(status, user_data, "auth_refresh_callback")
    }

    // A callback setter only fails before taking ownership (NULL options): free the box.
    fn adopted<T>(
        &mut self,
        status: ffi::hermes_status_t,
        user_data: *mut c_void,
        what: &str,
    ) -> Result<&mut Self> {
        if status != ffi::HERMES_OK {
            // SAFETY: refused, so user_data is still ours, a T.
            unsafe { callback::destroy::<T>(user_data) };
        }
        check(status, what)?;
        Ok(self)
    }

    pub(crate) fn as_ptr(&self) -> *const ffi::hermes_agent_options_t {
        self.raw
    }
}

impl fmt::Debug for AgentOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AgentOptions").finish_non_exhaustive()
    }
}

impl Drop for AgentOptions {
    fn drop(&mut self) {
        // SAFETY: `raw` is ours; the freep form leaves it NULL.
        unsafe { ffi::hermes_agent_options_freep(&mut self.raw) };
    }
}

unsafe extern "C" fn on_stream(delta: *const c_char, length: usize, user_data: *mut c_void) {
    // SAFETY: user_data is the TextCallback registered with this function.
    let on_text = &*(user_data as *const TextCallback);
    let bytes = if delta.is_null() || length == 0 {
        &[][..]
    } else {
        slice::from_raw_parts(delta as *const u8, length)
    };
    let delta = String::from_utf8_lossy(bytes);
    // A panic cannot be reported from here; it is stopped before it reaches C.
    let _ = callback::catch(|| on_text(&delta));
}

unsafe extern "C" fn on_event(event_json: *const c_char, user_data: *mut c_void) {
    // SAFETY: user_data is the TextCallback registered with this function; the event
    // text lives for the call.
    let on_text = &*(user_data as *const TextCallback);
    let event = text::borrowed(event_json);
    let _ = callback::catch(|| on_text(&event));
}

unsafe extern "C" fn on_auth_refresh(
    request_json: *const c_char,
    answer: *mut ffi::hermes_answer_t,
    user_data: *mut c_void,
) {
    // SAFETY: user_data is the AuthRefreshCallback registered with this function; the
    // request text and the answer live for the call.
    let refresh = &*(user_data as *const AuthRefreshCallback);
    let request = text::borrowed(request_json);
    // A key with a NUL byte cannot cross; it counts as no answer, as a panic does.
    let key = callback::catch(|| refresh(&request))
        .ok()
        .flatten()
        .and_then(|key| text::to_c("api_key", &key).ok());
    if let Some(key) = key {
        ffi::hermes_answer_set(answer, key.as_ptr());
    }
}

/// Every option the options document ([`AgentOptions::apply_json`]) takes, as a JSON
/// array of `{"name": "compression.threshold_percent", "type": "number", "default": 0.5,
/// "doc": "..."}` (with "minimum", "maximum" and "values" where they apply).
pub fn describe_options() -> Result<String> {
    let mut out: *mut c_char = std::ptr::null_mut();
    error::call(|out_error| unsafe {
        // SAFETY: `out` receives a string we own.
        ffi::hermes_agent_options_describe(&mut out, out_error)
    })?;
    // SAFETY: the library allocated `out` for us.
    Ok(unsafe { text::take(out) })
}
