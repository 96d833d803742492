//! The C ABI of hermes (`capi/hermes_c.h`), declared by hand, in the header's order.
//!
//! Everything here is `unsafe` to call and follows the header's rules; the rest of the
//! crate wraps it safely. A function added to the header is one more line here and a
//! method on the wrapper that owns its handle.
#![allow(non_camel_case_types)]

use std::marker::{PhantomData, PhantomPinned};
use std::os::raw::{c_char, c_int, c_void};

// Opaque handles: only ever behind a pointer, neither Send nor Sync nor Unpin by
// themselves; the wrappers decide what is safe to share.
macro_rules! opaque_types {
    ($($name:ident),* $(,)?) => {$(
        #[repr(C)]
        pub struct $name {
            _data: [u8; 0],
            _marker: PhantomData<(*mut u8, PhantomPinned)>,
        }
    )*};
}

opaque_types!(
    hermes_error_t,
    hermes_tool_registry_t,
    hermes_tool_call_t,
    hermes_agent_options_t,
    hermes_agent_t,
    hermes_mcp_servers_t,
    hermes_answer_t,
    hermes_runtime_t,
);

pub type hermes_status_t = i32;

pub const HERMES_ABI_VERSION: u32 = 1;

pub const HERMES_OK: hermes_status_t = 0;
pub const HERMES_ERR_INVALID_ARGUMENT: hermes_status_t = -1;
pub const HERMES_ERR_NOT_FOUND: hermes_status_t = -2;
pub const HERMES_ERR_ALREADY_EXISTS: hermes_status_t = -3;
pub const HERMES_ERR_FAILED_PRECONDITION: hermes_status_t = -4;
pub const HERMES_ERR_UNAVAILABLE: hermes_status_t = -5;
pub const HERMES_ERR_DEADLINE_EXCEEDED: hermes_status_t = -6;
pub const HERMES_ERR_CANCELLED: hermes_status_t = -7;
pub const HERMES_ERR_API: hermes_status_t = -8;
pub const HERMES_ERR_IO: hermes_status_t = -9;
pub const HERMES_ERR_DATA_LOSS: hermes_status_t = -10;
pub const HERMES_ERR_UNIMPLEMENTED: hermes_status_t = -11;
pub const HERMES_ERR_RESOURCE_EXHAUSTED: hermes_status_t = -12;
pub const HERMES_ERR_PERMISSION_DENIED: hermes_status_t = -13;
pub const HERMES_ERR_INTERNAL: hermes_status_t = -14;

pub const HERMES_TOOL_PARALLEL_SAFE: u32 = 1;
pub const HERMES_TOOL_INTERACTIVE: u32 = 2;

pub const HERMES_TIMEOUT_CONNECT: i32 = 0;
pub const HERMES_TIMEOUT_FIRST_BYTE: i32 = 1;
pub const HERMES_TIMEOUT_IDLE: i32 = 2;
pub const HERMES_TIMEOUT_TOTAL: i32 = 3;
pub const HERMES_TIMEOUT_STALE_STREAM: i32 = 4;
pub const HERMES_BACKOFF_BASE: i32 = 0;
pub const HERMES_BACKOFF_MAX: i32 = 1;
pub const HERMES_BACKOFF_INVALID_RESPONSE_BASE: i32 = 2;
pub const HERMES_BACKOFF_INVALID_RESPONSE_MAX: i32 = 3;
pub const HERMES_TOOL_USE_ENFORCEMENT_AUTO: c_int = -1;
pub const HERMES_TOOL_USE_ENFORCEMENT_OFF: c_int = 0;
pub const HERMES_TOOL_USE_ENFORCEMENT_ON: c_int = 1;

pub type hermes_tool_handler_fn = Option<
    unsafe extern "C" fn(call: *mut hermes_tool_call_t, user_data: *mut c_void) -> hermes_status_t,
>;
pub type hermes_destroy_fn = Option<unsafe extern "C" fn(user_data: *mut c_void)>;
pub type hermes_stream_fn =
    Option<unsafe extern "C" fn(delta: *const c_char, length: usize, user_data: *mut c_void)>;
pub type hermes_event_fn =
    Option<unsafe extern "C" fn(event_json: *const c_char, user_data: *mut c_void)>;
pub type hermes_auth_refresh_fn = Option<
    unsafe extern "C" fn(
        request_json: *const c_char,
        answer: *mut hermes_answer_t,
        user_data: *mut c_void,
    ),
>;
pub type hermes_turn_done_fn =
    Option<unsafe extern "C" fn(result_json: *const c_char, user_data: *mut c_void)>;

// The library is linked by build.rs (cargo:rustc-link-lib), so the block names none.
extern "C" {
    // Versions.
    pub fn hermes_version() -> *const c_char;
    pub fn hermes_abi_version() -> u32;
    pub fn hermes_abi_compatible(header_abi_version: u32) -> c_int;

    // Status and errors.
    pub fn hermes_error_code(error: *const hermes_error_t) -> hermes_status_t;
    pub fn hermes_error_message(error: *const hermes_error_t) -> *const c_char;
    pub fn hermes_error_free(error: *mut hermes_error_t);
    pub fn hermes_status_name(status: hermes_status_t) -> *const c_char;
    pub fn hermes_free(ptr: *mut c_void);

    // Tools.
    pub fn hermes_tool_registry_new() -> *mut hermes_tool_registry_t;
    pub fn hermes_tool_registry_free(registry: *mut hermes_tool_registry_t);
    pub fn hermes_tool_registry_freep(registry: *mut *mut hermes_tool_registry_t);
    pub fn hermes_tool_registry_add(
        registry: *mut hermes_tool_registry_t,
        name: *const c_char,
        toolset: *const c_char,
        description: *const c_char,
        parameters_json: *const c_char,
        flags: u32,
        handler: hermes_tool_handler_fn,
        user_data: *mut c_void,
        destroy: hermes_destroy_fn,
        out_error: *mut *mut hermes_error_t,
    ) -> hermes_status_t;
    pub fn hermes_tool_call_name(call: *const hermes_tool_call_t) -> *const c_char;
    pub fn hermes_tool_call_id(call: *const hermes_tool_call_t) -> *const c_char;
    pub fn hermes_tool_call_arguments(call: *const hermes_tool_call_t) -> *const c_char;
    pub fn hermes_tool_call_session_id(call: *const hermes_tool_call_t) -> *const c_char;
    pub fn hermes_tool_call_cancelled(call: *const hermes_tool_call_t) -> c_int;
    pub fn hermes_tool_call_set_result(
        call: *mut hermes_tool_call_t,
        text: *const c_char,
    ) -> hermes_status_t;
    pub fn hermes_tool_call_set_error(
        call: *mut hermes_tool_call_t,
        message: *const c_char,
    ) -> hermes_status_t;

    // Agent options.
    pub fn hermes_agent_options_new() -> *mut hermes_agent_options_t;
    pub fn hermes_agent_options_free(options: *mut hermes_agent_options_t);
    pub fn hermes_agent_options_freep(options: *mut *mut hermes_agent_options_t);
    pub fn hermes_agent_options_set_model(
        options: *mut hermes_agent_options_t,
        model: *const c_char,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_provider(
        options: *mut hermes_agent_options_t,
        provider: *const c_char,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_api_mode(
        options: *mut hermes_agent_options_t,
        api_mode: *const c_char,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_base_url(
        options: *mut hermes_agent_options_t,
        base_url: *const c_char,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_api_key(
        options: *mut hermes_agent_options_t,
        api_key: *const c_char,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_add_api_key(
        options: *mut hermes_agent_options_t,
        api_key: *const c_char,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_home(
        options: *mut hermes_agent_options_t,
        home: *const c_char,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_context_dir(
        options: *mut hermes_agent_options_t,
        dir: *const c_char,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_session_id(
        options: *mut hermes_agent_options_t,
        session_id: *const c_char,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_platform_hint(
        options: *mut hermes_agent_options_t,
        hint: *const c_char,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_source(
        options: *mut hermes_agent_options_t,
        source: *const c_char,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_ephemeral_system_prompt(
        options: *mut hermes_agent_options_t,
        prompt: *const c_char,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_json(
        options: *mut hermes_agent_options_t,
        json: *const c_char,
        out_error: *mut *mut hermes_error_t,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_get_json(
        options: *const hermes_agent_options_t,
        out_json: *mut *mut c_char,
        out_error: *mut *mut hermes_error_t,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_describe(
        out_json: *mut *mut c_char,
        out_error: *mut *mut hermes_error_t,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_max_iterations(
        options: *mut hermes_agent_options_t,
        max_iterations: i32,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_max_tokens(
        options: *mut hermes_agent_options_t,
        max_tokens: i64,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_temperature(
        options: *mut hermes_agent_options_t,
        temperature: f64,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_stream(
        options: *mut hermes_agent_options_t,
        stream: c_int,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_persist_sessions(
        options: *mut hermes_agent_options_t,
        persist: c_int,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_durability(
        options: *mut hermes_agent_options_t,
        durability: *const c_char,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_max_retries(
        options: *mut hermes_agent_options_t,
        max_retries: i32,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_timeout_ms(
        options: *mut hermes_agent_options_t,
        which: i32,
        milliseconds: i64,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_retry_backoff_ms(
        options: *mut hermes_agent_options_t,
        which: i32,
        milliseconds: i64,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_tools(
        options: *mut hermes_agent_options_t,
        registry: *mut hermes_tool_registry_t,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_enable_toolset(
        options: *mut hermes_agent_options_t,
        toolset: *const c_char,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_delegation(
        options: *mut hermes_agent_options_t,
        max_iterations: i32,
        max_concurrent_children: i32,
        out_error: *mut *mut hermes_error_t,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_tool_use_enforcement(
        options: *mut hermes_agent_options_t,
        mode: c_int,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_stream_callback(
        options: *mut hermes_agent_options_t,
        callback: hermes_stream_fn,
        user_data: *mut c_void,
        destroy: hermes_destroy_fn,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_tool_progress_callback(
        options: *mut hermes_agent_options_t,
        callback: hermes_event_fn,
        user_data: *mut c_void,
        destroy: hermes_destroy_fn,
    ) -> hermes_status_t;
    pub fn hermes_agent_options_set_status_callback(
        options: *mut hermes_agent_options_t,
        callback: hermes_event_fn,
        user_data: *mut c_void,
        destroy: hermes_destroy_fn,
    ) -> hermes_status_t;
    pub fn hermes_answer_set(answer: *mut hermes_answer_t, text: *const c_char) -> hermes_status_t;
    pub fn hermes_agent_options_set_auth_refresh_callback(
        options: *mut hermes_agent_options_t,
        callback: hermes_auth_refresh_fn,
        user_data: *mut c_void,
        destroy: hermes_destroy_fn,
    ) -> hermes_status_t;

    // Agent.
    pub fn hermes_agent_new(
        options: *const hermes_agent_options_t,
        out_agent: *mut *mut hermes_agent_t,
        out_error: *mut *mut hermes_error_t,
    ) -> hermes_status_t;
    pub fn hermes_agent_free(agent: *mut hermes_agent_t);
    pub fn hermes_agent_freep(agent: *mut *mut hermes_agent_t);
    pub fn hermes_agent_chat(
        agent: *mut hermes_agent_t,
        message: *const c_char,
        out_text: *mut *mut c_char,
        out_error: *mut *mut hermes_error_t,
    ) -> hermes_status_t;
    pub fn hermes_agent_run_conversation(
        agent: *mut hermes_agent_t,
        user_message: *const c_char,
        system_message: *const c_char,
        history_json: *const c_char,
        task_id: *const c_char,
        out_result_json: *mut *mut c_char,
        out_error: *mut *mut hermes_error_t,
    ) -> hermes_status_t;
    pub fn hermes_agent_interrupt(agent: *mut hermes_agent_t, message: *const c_char);
    pub fn hermes_agent_steer(
        agent: *mut hermes_agent_t,
        text: *const c_char,
        out_error: *mut *mut hermes_error_t,
    ) -> hermes_status_t;
    pub fn hermes_agent_session_id(
        agent: *mut hermes_agent_t,
        out_session_id: *mut *mut c_char,
        out_error: *mut *mut hermes_error_t,
    ) -> hermes_status_t;

    // Runtime.
    pub fn hermes_runtime_new(
        options_json: *const c_char,
        out_runtime: *mut *mut hermes_runtime_t,
        out_error: *mut *mut hermes_error_t,
    ) -> hermes_status_t;
    pub fn hermes_runtime_free(runtime: *mut hermes_runtime_t);
    pub fn hermes_runtime_freep(runtime: *mut *mut hermes_runtime_t);
    pub fn hermes_runtime_stats_json(
        runtime: *const hermes_runtime_t,
        out_json: *mut *mut c_char,
        out_error: *mut *mut hermes_error_t,
    ) -> hermes_status_t;
    pub fn hermes_agent_run_turn_async(
        agent: *mut hermes_agent_t,
        runtime: *mut hermes_runtime_t,
        turn_json: *const c_char,
        done: hermes_turn_done_fn,
        user_data: *mut c_void,
        out_error: *mut *mut hermes_error_t,
    ) -> hermes_status_t;

    // MCP servers.
    pub fn hermes_mcp_servers_connect(
        config_json: *const c_char,
        registry: *mut hermes_tool_registry_t,
        out_servers: *mut *mut hermes_mcp_servers_t,
        out_error: *mut *mut hermes_error_t,
    ) -> hermes_status_t;
    pub fn hermes_mcp_servers_status(
        servers: *const hermes_mcp_servers_t,
        out_json: *mut *mut c_char,
        out_error: *mut *mut hermes_error_t,
    ) -> hermes_status_t;
    pub fn hermes_mcp_servers_free(servers: *mut hermes_mcp_servers_t);
    pub fn hermes_mcp_servers_freep(servers: *mut *mut hermes_mcp_servers_t);
}
