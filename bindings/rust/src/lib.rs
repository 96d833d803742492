//! Rust bindings to hermes, the embeddable agent runtime: the tool-calling conversation
//! loop with error recovery, context compression and a session store.
//!
//! The crate wraps the C ABI (`hermes_c.h`, declared in [`ffi`]): handles are owned
//! values freed on drop, failures are [`Error`] values carrying the library's status code
//! and message, tools and callbacks are closures. A [`Runtime`] runs many agents' turns
//! at once on a few threads ([`Agent::run_turn_future`] gives a `Future` any executor
//! can await, [`Agent::run_turn_async`] takes a callback). A panic in a closure is caught
//! at the C boundary (a panicking tool gives the model an error result); it never unwinds
//! into the library, so the crate must not be built with `panic = "abort"` if tools may
//! panic and the program should survive it.
//!
//! ```no_run
//! use hermes::{Agent, AgentOptions, Tool, ToolRegistry};
//!
//! # fn main() -> hermes::Result<()> {
//! let mut tools = ToolRegistry::new()?;
//! tools.add(Tool::new("shout").description("Upper-cases a text."), |call| {
//!     Ok(call.arguments().to_uppercase())
//! })?;
//! let mut options = AgentOptions::new()?;
//! options.set_model("gpt-4.1-mini")?.set_api_key("sk-...")?.set_tools(&tools)?;
//! let agent = Agent::new(&options)?;
//! println!("{}", agent.chat("Shout 'hello'.")?);
//! # Ok(()) }
//! ```

mod agent;
mod callback;
mod error;
pub mod ffi;
mod json;
mod mcp;
mod options;
mod runtime;
mod text;
mod tools;
mod turn;

pub use agent::{Agent, RunOptions};
pub use error::{Error, ErrorCode, Result};
pub use mcp::McpServers;
pub use options::{describe_options, AgentOptions, Backoff, Timeout, ToolUseEnforcement};
pub use runtime::{Runtime, RuntimeOptions, RuntimeStats};
pub use tools::{Tool, ToolCall, ToolRegistry, ToolResult};
pub use turn::{TurnFuture, TurnResult};

use std::ffi::CStr;

/// The version of the C ABI these bindings were written against.
pub const ABI_VERSION: u32 = ffi::HERMES_ABI_VERSION;

/// The version of the library actually loaded, e.g. "0.2.0".
pub fn version() -> &'static str {
    // SAFETY: hermes_version returns a static NUL-terminated string.
    unsafe { CStr::from_ptr(ffi::hermes_version()) }
        .to_str()
        .unwrap_or("")
}

/// The ABI version of the library actually loaded.
pub fn abi_version() -> u32 {
    // SAFETY: no preconditions.
    unsafe { ffi::hermes_abi_version() }
}

/// Whether the loaded library can be used through these bindings. Every constructor
/// checks it, failing with FailedPrecondition rather than calling a mismatched library.
pub fn abi_compatible() -> bool {
    // SAFETY: no preconditions.
    unsafe { ffi::hermes_abi_compatible(ABI_VERSION) != 0 }
}

pub(crate) fn ensure_abi_compatible() -> Result<()> {
    if abi_compatible() {
        return Ok(());
    }
    Err(Error::new(
        ErrorCode::FailedPrecondition,
        format!(
            "libhermes_agent_c {} (ABI {}) does not match these bindings (ABI {})",
            version(),
            abi_version(),
            ABI_VERSION
        ),
    ))
}
