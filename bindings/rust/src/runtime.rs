//! The runtime: threads that run many agents' turns at once (`hermes_runtime_t`).

use std::fmt;
use std::os::raw::c_char;
use std::ptr;

use crate::error::{self, Error, ErrorCode, Result};
use crate::ffi;
use crate::json;
use crate::text;
use crate::turn;

/// The settings of [`Runtime::with_options`]; `None` keeps the library's default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RuntimeOptions {
    /// Threads multiplexing the model calls of all turns: 1 (the default) to 4.
    pub io_threads: Option<u32>,
    /// Threads running tool handlers: 16 by default, 1 to 1024.
    pub tool_workers: Option<u32>,
    /// The address space each running turn reserves for its stack: 1 MiB by default,
    /// 64 KiB to 64 MiB.
    pub stack_bytes: Option<usize>,
}

/// What a runtime is doing, from [`Runtime::stats`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RuntimeStats {
    /// Turns started and not yet ended (a turn ends when its callback has returned).
    pub turns_running: u64,
    /// HTTP transfers in flight.
    pub transfers: u64,
    /// Tool calls queued or running on the tool workers.
    pub tool_jobs: u64,
    /// Turns started since the runtime was created.
    pub turns_started: u64,
    pub io_threads: u64,
    pub tool_workers: u64,
    pub stack_bytes: u64,
}

/// Threads that run many agents' turns at once: a turn started with
/// [`Agent::run_turn_async`](crate::Agent::run_turn_async) runs on one of the runtime's
/// I/O threads, which multiplex the model calls of all its turns, and its tools run on
/// the runtime's tool workers. The synchronous calls ([`Agent::chat`](crate::Agent::chat),
/// ...) need no runtime.
///
/// `Runtime` is `Send` and `Sync`: share it (by reference or in an `Arc`) between any
/// number of agents and threads. Dropping it interrupts the turns still running (their
/// callbacks get a result with `interrupted()` true), waits for them and for running tool
/// handlers, then stops the threads.
///
/// The agent's callbacks and tool handlers of a turn on the runtime run on its threads:
/// keep them short, and never wait in one for another turn of the same runtime. Dropping
/// the runtime from a turn's completion callback is deferred to a thread of its own (the
/// drop would otherwise wait for the callback itself); never drop it from a tool handler
/// or another callback of a turn it runs.
pub struct Runtime {
    raw: *mut ffi::hermes_runtime_t,
}

// SAFETY: the C runtime is safe to share between any number of threads.
unsafe impl Send for Runtime {}
unsafe impl Sync for Runtime {}

impl Runtime {
    /// Creates a runtime with the library's defaults and starts its threads.
    pub fn new() -> Result<Runtime> {
        Runtime::with_options(&RuntimeOptions::default())
    }

    /// Creates a runtime and starts its threads. InvalidArgument names a setting out of
    /// range; Unavailable when a thread cannot start.
    pub fn with_options(options: &RuntimeOptions) -> Result<Runtime> {
        crate::ensure_abi_compatible()?;
        let options = text::to_c("options_json", &options_json(options))?;
        let mut raw = ptr::null_mut();
        // SAFETY: valid pointers; on success `raw` receives a runtime we own.
        error::call(|out_error| unsafe {
            ffi::hermes_runtime_new(options.as_ptr(), &mut raw, out_error)
        })?;
        Ok(Runtime { raw })
    }

    /// What the runtime is doing. Any thread, any time.
    pub fn stats(&self) -> Result<RuntimeStats> {
        let json = self.stats_json()?;
        let number = |key: &str| {
            json::field(&json, key)
                .and_then(json::count)
                .ok_or_else(|| {
                    Error::new(
                        ErrorCode::Internal,
                        format!("runtime stats: no count {} in {}", key, json),
                    )
                })
        };
        Ok(RuntimeStats {
            turns_running: number("turns_running")?,
            transfers: number("transfers")?,
            tool_jobs: number("tool_jobs")?,
            turns_started: number("turns_started")?,
            io_threads: number("io_threads")?,
            tool_workers: number("tool_workers")?,
            stack_bytes: number("stack_bytes")?,
        })
    }

    /// [`stats`](Runtime::stats) as the library's JSON object, with any keys newer than
    /// this crate.
    pub fn stats_json(&self) -> Result<String> {
        let mut json: *mut c_char = ptr::null_mut();
        // SAFETY: valid pointers; `json` receives a string we own.
        let result = error::call(|out_error| unsafe {
            ffi::hermes_runtime_stats_json(self.raw, &mut json, out_error)
        });
        // SAFETY: `json` is NULL or ours.
        let json = unsafe { text::take(json) };
        result.map(|()| json)
    }

    pub(crate) fn as_ptr(&self) -> *mut ffi::hermes_runtime_t {
        self.raw
    }
}

fn options_json(options: &RuntimeOptions) -> String {
    let mut fields = Vec::new();
    if let Some(n) = options.io_threads {
        fields.push(format!("\"io_threads\":{}", n));
    }
    if let Some(n) = options.tool_workers {
        fields.push(format!("\"tool_workers\":{}", n));
    }
    if let Some(n) = options.stack_bytes {
        fields.push(format!("\"stack_bytes\":{}", n));
    }
    format!("{{{}}}", fields.join(","))
}

impl fmt::Debug for Runtime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Runtime").finish_non_exhaustive()
    }
}

impl Drop for Runtime {
    fn drop(&mut self) {
        let raw = turn::SendPtr(self.raw);
        // SAFETY: `raw` is ours, no call is running (we have `&mut self`), and the free
        // never runs on a runtime thread inside a completion callback.
        turn::free_off_callback_thread(move || unsafe { ffi::hermes_runtime_free(raw.get()) });
        self.raw = ptr::null_mut();
    }
}
