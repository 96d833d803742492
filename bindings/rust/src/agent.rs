//! The agent: runs conversation turns against a model, calling tools as asked.

use std::fmt;
use std::os::raw::c_char;
use std::ptr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};

use crate::callback;
use crate::error::{self, Error, ErrorCode, Result};
use crate::ffi;
use crate::options::AgentOptions;
use crate::runtime::Runtime;
use crate::text;
use crate::turn::{self, PendingTurn, SendPtr, TurnFuture, TurnResult};

/// The optional inputs of [`Agent::run_conversation_with`] and of the turns started on a
/// runtime.
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
///
/// A turn started on a [`Runtime`] ([`run_turn_async`](Agent::run_turn_async),
/// [`run_turn_future`](Agent::run_turn_future)) runs after the call has returned. Until
/// it ends the agent takes only `interrupt` and `steer`: another start, `chat`,
/// `run_conversation` and `session_id` fail at once with FailedPrecondition
/// ("agent_busy"), and so does a start while a synchronous turn runs. Dropping the agent
/// interrupts the turn and waits for it to end and for its callback to return; dropped
/// inside that callback (which held its last `Arc`), it is released on a thread of its
/// own.
pub struct Agent {
    raw: *mut ffi::hermes_agent_t,
    turn: Mutex<()>,
    // Set while a turn started on a runtime runs; its completion clears it.
    async_turn: Arc<AtomicBool>,
}

// SAFETY: the C agent may be used from any thread; the calls that must not overlap are
// serialised by `turn`, and refused while `async_turn` is set (a turn on a runtime takes
// only interrupt, steer and free); interrupt/steer are documented as safe at any time.
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
            async_turn: Arc::new(AtomicBool::new(false)),
        })
    }

    /// Runs one turn and returns the model's final answer. A turn that could not
    /// complete (the provider failed, the turn was interrupted) is an error.
    pub fn chat(&self, message: &str) -> Result<String> {
        let message = text::to_c("message", message)?;
        let _turn = self.lock_turn()?;
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
        let _turn = self.lock_turn()?;
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
        let _turn = self.lock_turn()?;
        let mut id: *mut c_char = ptr::null_mut();
        // SAFETY: valid pointers; `id` receives a string we own.
        let result = error::call(|out_error| unsafe {
            ffi::hermes_agent_session_id(self.raw, &mut id, out_error)
        });
        // SAFETY: `id` is NULL or ours.
        let id = unsafe { text::take(id) };
        result.map(|()| id)
    }

    /// Starts a turn on `runtime` and returns at once; `done` gets the result on a
    /// runtime thread when the turn ends, also when it failed or was interrupted. The turn
    /// behaves as [`run_conversation_with`](Agent::run_conversation_with), with the
    /// agent's callbacks and tool handlers on runtime threads.
    ///
    /// A refusal returns the error and drops `done` without calling it: InvalidArgument
    /// for a bad argument, FailedPrecondition ("agent_busy") when the agent runs a turn.
    /// `done` may start the agent's next turn; it must not block waiting for another turn
    /// of the same runtime. A panic in `done` is caught before it reaches C.
    pub fn run_turn_async<F>(
        &self,
        runtime: &Runtime,
        message: &str,
        run: RunOptions<'_>,
        done: F,
    ) -> Result<()>
    where
        F: FnOnce(TurnResult) + Send + 'static,
    {
        let turn_json = text::to_c("turn", &turn::turn_json(message, &run)?)?;
        // A synchronous turn holds the lock for all its length: refused, not waited for.
        let _turn = match self.turn.try_lock() {
            Ok(guard) => guard,
            Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(TryLockError::WouldBlock) => return Err(busy()),
        };
        if self.async_turn.swap(true, Ordering::AcqRel) {
            return Err(busy());
        }
        let user_data = callback::into_user_data(PendingTurn {
            done,
            running: Arc::clone(&self.async_turn),
        });
        // SAFETY: valid pointers; once the call succeeds the library owns `user_data`
        // until it calls `turn_done` with it, exactly once.
        let started = error::call(|out_error| unsafe {
            ffi::hermes_agent_run_turn_async(
                self.raw,
                runtime.as_ptr(),
                turn_json.as_ptr(),
                Some(turn::turn_done::<F>),
                user_data,
                out_error,
            )
        });
        if started.is_err() {
            self.async_turn.store(false, Ordering::Release);
            // SAFETY: refused, so the library never calls `done` and the box is ours again.
            unsafe { callback::destroy::<PendingTurn<F>>(user_data) };
        }
        started
    }

    /// [`run_turn_async`](Agent::run_turn_async) with a future for the result: `.await`
    /// it on any executor, or [`wait`](TurnFuture::wait) for it.
    pub fn run_turn_future(
        &self,
        runtime: &Runtime,
        message: &str,
        run: RunOptions<'_>,
    ) -> Result<TurnFuture> {
        let (future, resolve) = TurnFuture::new();
        self.run_turn_async(runtime, message, run, resolve)?;
        Ok(future)
    }

    // The guard holds no data, so a panic while it was held leaves nothing inconsistent.
    fn lock_turn(&self) -> Result<MutexGuard<'_, ()>> {
        let guard = self
            .turn
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if self.async_turn.load(Ordering::Acquire) {
            return Err(busy());
        }
        Ok(guard)
    }
}

fn busy() -> Error {
    Error::new(
        ErrorCode::FailedPrecondition,
        "agent_busy: the agent is running a turn",
    )
}

impl fmt::Debug for Agent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Agent").finish_non_exhaustive()
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        let raw = SendPtr(self.raw);
        // SAFETY: `raw` is ours and no call is running (we have `&mut self`); the free
        // waits for a turn on a runtime, and never runs inside a completion callback.
        turn::free_off_callback_thread(move || unsafe { ffi::hermes_agent_free(raw.get()) });
        self.raw = ptr::null_mut();
    }
}
