//! The agent: runs conversation turns against a model, calling tools as asked.

use std::fmt;
use std::os::raw::c_char;
use std::ptr;
use std::sync::{Mutex, MutexGuard};

use crate::error::{self, Result};
use crate::ffi;
use crate::options::AgentOptions;
use crate::text;

/// The optional inputs of [`Agent::run_conversation_with`].
#[derive(Debug, Clone, Copy, Default)]
pub struct RunOptions<'a> {
    /// A system message for this turn.
    pub system_message: Option<&'a str>,
    /// A JSON list of messages replacing the agent's history.
    pub history_json: Option<&'a str>,
    /// An id grouping the turn's tool calls (e.g. for sandboxes).
    pub task_id: Option<&'a str>,
}

/// An agent: one conversation with a model and its tools.
///
/// `Agent` is `Send` and `Sync`. Turns ([`chat`](Agent::chat),
/// [`run_conversation`](Agent::run_conversation)) run one at a time (a second caller
/// waits), while [`interrupt`](Agent::interrupt) and [`steer`](Agent::steer) may be called
/// from any thread during a turn, e.g. from inside `std::thread::scope`. A tool handler
/// or callback must not call `chat`, `run_conversation` or `session_id` on the agent
/// running it ([`ToolCall::session_id`](crate::ToolCall::session_id) has the session):
/// that waits forever.
pub struct Agent {
    raw: *mut ffi::hermes_agent_t,
    turn: Mutex<()>,
}

// SAFETY: the C agent may be used from any thread; the calls that must not overlap are
// serialised by `turn`, and interrupt/steer are documented as safe at any time.
unsafe impl Send for Agent {}
unsafe impl Sync for Agent {}

impl Agent {
    /// Creates an agent. InvalidArgument names a missing or malformed option.
    pub fn new(options: &AgentOptions) -> Result<Agent> {
        let mut raw = ptr::null_mut();
        // SAFETY: `options` is valid; on success `raw` receives an agent we own.
        error::call(|out_error| unsafe {
            ffi::hermes_agent_new(options.as_ptr(), &mut raw, out_error)
        })?;
        Ok(Agent {
            raw,
            turn: Mutex::new(()),
        })
    }

    /// Runs one turn and returns the model's final answer. A turn that could not
    /// complete (the provider failed, the turn was interrupted) is an error.
    pub fn chat(&self, message: &str) -> Result<String> {
        let message = text::to_c("message", message)?;
        let _turn = self.lock_turn();
        let mut answer: *mut c_char = ptr::null_mut();
        // SAFETY: valid pointers; `answer` receives a string we own.
        let result = error::call(|out_error| unsafe {
            ffi::hermes_agent_chat(self.raw, message.as_ptr(), &mut answer, out_error)
        });
        // SAFETY: `answer` is NULL or ours (freed even if the call failed).
        let answer = unsafe { text::take(answer) };
        result.map(|()| answer)
    }

    /// Runs one turn and returns the result object as JSON text: final_response,
    /// messages, api_calls, completed, exit_reason, session_id, token usage, error, ...
    /// A turn that failed is still `Ok`, with `"completed": false` and `"error"` set.
    pub fn run_conversation(&self, message: &str) -> Result<String> {
        self.run_conversation_with(message, RunOptions::default())
    }

    /// [`run_conversation`](Agent::run_conversation) with a system message, a replaced
    /// history or a task id. InvalidArgument names history JSON that does not parse.
    pub fn run_conversation_with(&self, message: &str, run: RunOptions<'_>) -> Result<String> {
        let message = text::to_c("message", message)?;
        let system = text::to_c_opt("system_message", run.system_message)?;
        let history = text::to_c_opt("history_json", run.history_json)?;
        let task_id = text::to_c_opt("task_id", run.task_id)?;
        let _turn = self.lock_turn();
        let mut result_json: *mut c_char = ptr::null_mut();
        // SAFETY: valid pointers or NULL where the header allows it.
        let result = error::call(|out_error| unsafe {
            ffi::hermes_agent_run_conversation(
                self.raw,
                message.as_ptr(),
                text::opt_ptr(&system),
                text::opt_ptr(&history),
                text::opt_ptr(&task_id),
                &mut result_json,
                out_error,
            )
        });
        // SAFETY: `result_json` is NULL or ours.
        let result_json = unsafe { text::take(result_json) };
        result.map(|()| result_json)
    }

    /// Asks the running turn (if any) to stop as soon as it can. Safe from any thread.
    pub fn interrupt(&self, message: &str) {
        let message = text::to_c_lossy(message);
        // SAFETY: allowed at any time, from any thread, while the agent lives.
        unsafe { ffi::hermes_agent_interrupt(self.raw, message.as_ptr()) };
    }

    /// Adds guidance the running turn picks up at its next step. Safe from any thread.
    pub fn steer(&self, text: &str) -> Result<()> {
        let text = text::to_c("text", text)?;
        // SAFETY: allowed at any time, from any thread, while the agent lives.
        error::call(|out_error| unsafe {
            ffi::hermes_agent_steer(self.raw, text.as_ptr(), out_error)
        })
    }

    /// The id of the current session.
    pub fn session_id(&self) -> Result<String> {
        let _turn = self.lock_turn();
        let mut id: *mut c_char = ptr::null_mut();
        // SAFETY: valid pointers; `id` receives a string we own.
        let result = error::call(|out_error| unsafe {
            ffi::hermes_agent_session_id(self.raw, &mut id, out_error)
        });
        // SAFETY: `id` is NULL or ours.
        let id = unsafe { text::take(id) };
        result.map(|()| id)
    }

    // The guard holds no data, so a panic while it was held leaves nothing inconsistent.
    fn lock_turn(&self) -> MutexGuard<'_, ()> {
        self.turn
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl fmt::Debug for Agent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Agent").finish_non_exhaustive()
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        // SAFETY: `raw` is ours and no call is running (we have `&mut self`).
        unsafe { ffi::hermes_agent_freep(&mut self.raw) };
    }
}
