//! MCP servers whose tools join a [`ToolRegistry`].

use std::fmt;
use std::os::raw::c_char;
use std::ptr;

use crate::error::{self, Result};
use crate::{ffi, text, ToolRegistry};

/// The MCP servers of a configuration document, connected, with their tools registered
/// in a [`ToolRegistry`] as `mcp_<server>_<tool>`. Dropping it disconnects the servers
/// and removes their tools.
pub struct McpServers {
    raw: *mut ffi::hermes_mcp_servers_t,
}

// SAFETY: the C object is safe to use from any thread.
unsafe impl Send for McpServers {}
unsafe impl Sync for McpServers {}

impl McpServers {
    /// Connects the servers of `config_json`, the mcp.json format:
    /// `{"mcpServers": {"<name>": {"command": ..., "args": [...]} or {"url": ...,
    /// "headers": {...}}}}`, and registers their tools in `tools`. A server that fails to
    /// connect is retried in the background and [`status_json`](Self::status_json) says
    /// why; only a bad document is an error (InvalidArgument naming the key).
    pub fn connect(config_json: &str, tools: &ToolRegistry) -> Result<McpServers> {
        crate::ensure_abi_compatible()?;
        let config = text::to_c("config_json", config_json)?;
        let mut raw = ptr::null_mut();
        error::call(|out_error| unsafe {
            // SAFETY: every pointer is valid for the call.
            ffi::hermes_mcp_servers_connect(config.as_ptr(), tools.as_ptr(), &mut raw, out_error)
        })?;
        Ok(McpServers { raw })
    }

    /// A JSON list with one object per server: name, connected, protocol_version,
    /// server_name, server_version, tools, skipped_tools, restarts, last_error.
    pub fn status_json(&self) -> Result<String> {
        let mut out: *mut c_char = ptr::null_mut();
        error::call(|out_error| unsafe {
            // SAFETY: `raw` is ours and `out` receives a string we own.
            ffi::hermes_mcp_servers_status(self.raw, &mut out, out_error)
        })?;
        // SAFETY: the library allocated `out` for us.
        Ok(unsafe { text::take(out) })
    }
}

impl fmt::Debug for McpServers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpServers").finish_non_exhaustive()
    }
}

impl Drop for McpServers {
    fn drop(&mut self) {
        // SAFETY: `raw` is ours; the freep form leaves it NULL.
        unsafe { ffi::hermes_mcp_servers_freep(&mut self.raw) };
    }
}
