//! Turns on a runtime: the result a turn ends with, the completion callback across the C
//! boundary, and a future for callers that `.await` or wait.

use std::cell::Cell;
use std::future::Future;
use std::os::raw::{c_char, c_void};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};
use std::thread;

use crate::agent::RunOptions;
use crate::callback;
use crate::error::{Error, ErrorCode, Result};
use crate::json;
use crate::text;

/// The result of a turn started on a runtime: the object
/// [`Agent::run_conversation`](crate::Agent::run_conversation) returns, as JSON text, with
/// accessors for the fields most callers need. A turn that failed or was interrupted is a
/// `TurnResult` too, with `completed()` false.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnResult {
    json: String,
}

impl TurnResult {
    /// The whole result object: final_response, messages, api_calls, completed,
    /// interrupted, exit_reason, session_id, token usage, error, ...
    pub fn json(&self) -> &str {
        &self.json
    }

    pub fn into_json(self) -> String {
        self.json
    }

    /// The model's final answer; None when the turn ended without one.
    pub fn final_response(&self) -> Option<String> {
        self.string("final_response")
    }

    /// Whether the turn ran to its answer.
    pub fn completed(&self) -> bool {
        self.flag("completed")
    }

    /// Whether the turn was interrupted (by [`Agent::interrupt`](crate::Agent::interrupt),
    /// or by its runtime being dropped).
    pub fn interrupted(&self) -> bool {
        self.flag("interrupted")
    }

    /// Why the turn ended, e.g. "completed" or "interrupted".
    pub fn exit_reason(&self) -> String {
        self.string("exit_reason").unwrap_or_default()
    }

    /// What went wrong, for a turn that failed.
    pub fn error(&self) -> Option<String> {
        self.string("error")
    }

    /// The model calls the turn made.
    pub fn api_calls(&self) -> u64 {
        json::field(&self.json, "api_calls")
            .and_then(json::count)
            .unwrap_or(0)
    }

    pub fn session_id(&self) -> String {
        self.string("session_id").unwrap_or_default()
    }

    fn string(&self, key: &str) -> Option<String> {
        json::field(&self.json, key).and_then(json::string)
    }

    fn flag(&self, key: &str) -> bool {
        json::field(&self.json, key)
            .and_then(json::boolean)
            .unwrap_or(false)
    }
}

/// The `turn_json` document of hermes_agent_run_turn_async.
pub(crate) fn turn_json(message: &str, run: &RunOptions<'_>) -> Result<String> {
    // JSON could carry a NUL byte as \u0000; refused as the synchronous calls refuse it.
    let fields = [
        ("message", Some(message)),
        ("system_message", run.system_message),
        ("history_json", run.history_json),
        ("task_id", run.task_id),
    ];
    for (field, value) in fields {
        if let Some(value) = value {
            text::to_c(field, value)?;
        }
    }
    let mut fields = vec![format!("\"user_message\":{}", json::quote(message))];
    if let Some(system) = run.system_message {
        fields.push(format!("\"system_message\":{}", json::quote(system)));
    }
    if let Some(history) = run.history_json {
        // Spliced in as it is, so it must not be able to end the value early.
        if !json::is_one_value(history) {
            return Err(Error::new(
                ErrorCode::InvalidArgument,
                "history_json: not one JSON value",
            ));
        }
        fields.push(format!("\"history\":{}", history));
    }
    if let Some(task_id) = run.task_id {
        fields.push(format!("\"task_id\":{}", json::quote(task_id)));
    }
    Ok(format!("{{{}}}", fields.join(",")))
}

/// What a turn's `user_data` holds: the caller's callback, and the agent's flag saying
/// a turn runs, which is cleared before the callback so that it may start the next turn.
pub(crate) struct PendingTurn<F> {
    pub(crate) done: F,
    pub(crate) running: Arc<AtomicBool>,
}

/// The `done` function of hermes_agent_run_turn_async: called once, on a runtime thread,
/// with the `PendingTurn<F>` the turn was started with, which it takes back and drops.
///
/// # Safety
/// `user_data` came from `callback::into_user_data::<PendingTurn<F>>` and is not used again.
pub(crate) unsafe extern "C" fn turn_done<F>(result_json: *const c_char, user_data: *mut c_void)
where
    F: FnOnce(TurnResult) + Send + 'static,
{
    let _inside = InsideCallback::enter();
    let json = text::borrowed(result_json).into_owned();
    // Taken back, called and dropped within `catch`: neither may unwind into C.
    let _ = callback::catch(move || {
        let pending = Box::from_raw(user_data as *mut PendingTurn<F>);
        let PendingTurn { done, running } = *pending;
        running.store(false, Ordering::Release);
        done(TurnResult { json });
    });
}

thread_local! {
    // Set on a runtime thread while it runs a turn's completion callback.
    static IN_DONE_CALLBACK: Cell<bool> = const { Cell::new(false) };
}

struct InsideCallback {
    was: bool,
}

impl InsideCallback {
    fn enter() -> InsideCallback {
        InsideCallback {
            was: IN_DONE_CALLBACK.with(|inside| inside.replace(true)),
        }
    }
}

impl Drop for InsideCallback {
    fn drop(&mut self) {
        let was = self.was;
        IN_DONE_CALLBACK.with(|inside| inside.set(was));
    }
}

/// Runs `free` (which releases an agent or a runtime) here, or on a thread of its own when
/// this is a completion callback's runtime thread: there the release would wait for the
/// callback itself, e.g. when the callback held the last `Arc` of the agent. When no
/// thread can start, the handle is left unreleased rather than deadlock.
pub(crate) fn free_off_callback_thread(free: impl FnOnce() + Send + 'static) {
    if !IN_DONE_CALLBACK.with(|inside| inside.get()) {
        free();
        return;
    }
    let _ = thread::Builder::new()
        .name("hermes-release".to_owned())
        .spawn(free);
}

/// A raw handle moved to the thread that releases it.
pub(crate) struct SendPtr<T>(pub(crate) *mut T);

// SAFETY: the handles sent (agents, runtimes) may be released from any thread.
unsafe impl<T> Send for SendPtr<T> {}

impl<T> SendPtr<T> {
    // A method, so that a closure captures the whole SendPtr rather than its field.
    pub(crate) fn get(self) -> *mut T {
        self.0
    }
}

/// A turn started with [`Agent::run_turn_future`](crate::Agent::run_turn_future): a
/// [`Future`] any executor can `.await` (it needs no particular runtime: the turn's
/// completion wakes the task), or [`wait`](TurnFuture::wait) blocks for it.
///
/// Dropping the future does not stop the turn; [`Agent::interrupt`](crate::Agent::interrupt)
/// does, and the future then resolves with an interrupted result.
#[derive(Debug)]
#[must_use = "the turn runs anyway; its result is lost unless awaited or waited for"]
pub struct TurnFuture {
    shared: Arc<Shared>,
}

#[derive(Debug, Default)]
struct Shared {
    slot: Mutex<Slot>,
    ended: Condvar,
}

#[derive(Debug, Default)]
struct Slot {
    result: Option<TurnResult>,
    waker: Option<Waker>,
    taken: bool,
}

impl TurnFuture {
    /// A future and the completion callback that resolves it.
    pub(crate) fn new() -> (TurnFuture, impl FnOnce(TurnResult) + Send + 'static) {
        let shared = Arc::new(Shared::default());
        let resolver = Arc::clone(&shared);
        let resolve = move |result: TurnResult| {
            let waker = {
                let mut slot = resolver.lock();
                slot.result = Some(result);
                slot.waker.take()
            };
            resolver.ended.notify_all();
            if let Some(waker) = waker {
                waker.wake();
            }
        };
        (TurnFuture { shared }, resolve)
    }

    /// Blocks the calling thread until the turn ends. Never call it on a runtime thread
    /// (in a callback or tool handler of a turn on the same runtime).
    pub fn wait(self) -> TurnResult {
        let mut slot = self.shared.lock();
        loop {
            if let Some(result) = slot.result.take() {
                return result;
            }
            slot = self
                .shared
                .ended
                .wait(slot)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }

    /// Whether the turn has ended (its result is ready).
    pub fn is_ready(&self) -> bool {
        self.shared.lock().result.is_some()
    }
}

impl Future for TurnFuture {
    type Output = TurnResult;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<TurnResult> {
        let mut slot = self.shared.lock();
        if let Some(result) = slot.result.take() {
            slot.taken = true;
            return Poll::Ready(result);
        }
        assert!(!slot.taken, "TurnFuture polled after it completed");
        match &slot.waker {
            Some(waker) if waker.will_wake(cx.waker()) => {}
            _ => slot.waker = Some(cx.waker().clone()),
        }
        Poll::Pending
    }
}

impl Shared {
    // The slot is consistent at every unlock, so a panic while it was held changes nothing.
    fn lock(&self) -> MutexGuard<'_, Slot> {
        self.slot
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
