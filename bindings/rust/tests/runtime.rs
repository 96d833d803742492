//! Turns started on a Runtime, over HTTP against the loopback mock model server: many
//! conversations at once on one runtime, refusals that drop the callback uncalled, and
//! interrupting or dropping what a turn in flight depends on.
//!
//! The server plays tests/fixtures/scripts/two_step_add.json (add(2, 40), then "The sum
//! is 42.") on the paths of `conversation_url(key)`, each key on its own, and answers any
//! other model call only after a minute (slow_model.json): a turn sent there is in
//! flight until something ends it.

mod common;

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

use common::{number_field, MockServer};
use hermes::{
    Agent, AgentOptions, ErrorCode, RunOptions, Runtime, RuntimeOptions, Tool, ToolRegistry,
    TurnResult,
};

const ADD_SCHEMA: &str = r#"{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}"#;
const QUESTION: &str = "What is 2 + 40?";
const PATIENCE: Duration = Duration::from_secs(60);

fn server() -> MockServer {
    MockServer::start_conversations("two_step_add.json", "slow_model.json")
}

/// An agent with the add tool on `base_url`; `calls` counts the tool's calls.
fn agent_on(base_url: &str, calls: &Arc<AtomicUsize>) -> hermes::Result<Agent> {
    let counted = Arc::clone(calls);
    let mut tools = ToolRegistry::new()?;
    tools.add(
        Tool::new("add")
            .description("Add two numbers.")
            .parameters(ADD_SCHEMA)
            .parallel_safe(true),
        move |call| {
            counted.fetch_add(1, Ordering::SeqCst);
            let args = call.arguments();
            match (number_field(&args, "a"), number_field(&args, "b")) {
                (Some(a), Some(b)) => Ok(format!("{{\"sum\":{}}}", a + b)),
                _ => Err("a and b are required".to_owned()),
            }
        },
    )?;
    let mut options = AgentOptions::new()?;
    options
        .set_model("mock-model")?
        .set_base_url(base_url)?
        .set_api_key("sk-test")?
        .set_persist_sessions(false)?
        .set_tools(&tools)?;
    Agent::new(&options)
}

fn runtime() -> Runtime {
    Runtime::with_options(&RuntimeOptions {
        io_threads: Some(1),
        tool_workers: Some(4),
        ..RuntimeOptions::default()
    })
    .expect("a runtime")
}

/// Waits until `condition` holds, for at most five seconds.
fn eventually(mut condition: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        if condition() {
            return true;
        }
        thread::sleep(Duration::from_millis(10));
    }
    false
}

fn model_call_in_flight(runtime: &Runtime) -> bool {
    eventually(|| runtime.stats().map_or(false, |s| s.transfers > 0))
}

fn assert_answered(result: &TurnResult) {
    assert!(result.completed(), "result: {}", result.json());
    assert_eq!(
        result.final_response().as_deref(),
        Some("The sum is 42."),
        "result: {}",
        result.json()
    );
    assert_eq!(result.api_calls(), 2, "result: {}", result.json());
}

/// Counts how often a callback ran and how often it was dropped.
#[derive(Default)]
struct Tally {
    called: AtomicUsize,
    dropped: AtomicUsize,
}

struct Witness(Arc<Tally>);

impl Drop for Witness {
    fn drop(&mut self) {
        self.0.dropped.fetch_add(1, Ordering::SeqCst);
    }
}

fn witnessed_callback(tally: &Arc<Tally>) -> impl FnOnce(TurnResult) + Send + 'static {
    let witness = Witness(Arc::clone(tally));
    move |_result| {
        witness.0.called.fetch_add(1, Ordering::SeqCst);
    }
}

/// Polls `future` to its end on this thread, woken by the turn's completion: what any
/// executor does, without one.
fn block_on<F: Future>(future: F) -> F::Output {
    struct Unpark(Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(Arc::new(Unpark(thread::current())));
    let mut context = Context::from_waker(&waker);
    let mut future = Box::pin(future);
    loop {
        match Pin::as_mut(&mut future).poll(&mut context) {
            Poll::Ready(output) => return output,
            Poll::Pending => thread::park(),
        }
    }
}

/// What an async function of a program does.
async fn ask(agent: &Agent, runtime: &Runtime, run: RunOptions<'_>) -> hermes::Result<TurnResult> {
    Ok(agent.run_turn_future(runtime, QUESTION, run)?.await)
}

#[test]
fn runtime_options_out_of_range_are_refused_naming_the_option() -> hermes::Result<()> {
    let error = Runtime::with_options(&RuntimeOptions {
        io_threads: Some(0),
        ..RuntimeOptions::default()
    })
    .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    assert!(error.message().contains("io_threads"), "{}", error);

    let error = Runtime::with_options(&RuntimeOptions {
        stack_bytes: Some(16),
        ..RuntimeOptions::default()
    })
    .unwrap_err();
    assert!(error.message().contains("stack_bytes"), "{}", error);

    let stats = runtime().stats()?;
    assert_eq!((stats.io_threads, stats.tool_workers), (1, 4));
    assert_eq!((stats.turns_running, stats.turns_started), (0, 0));
    let defaults = Runtime::new()?.stats()?;
    assert_eq!((defaults.io_threads, defaults.tool_workers), (1, 16));
    assert_eq!(defaults.stack_bytes, 1 << 20);
    Ok(())
}

#[test]
fn fifty_conversations_on_one_runtime_all_reach_the_answer() -> hermes::Result<()> {
    const CONVERSATIONS: usize = 50;
    let server = server();
    let runtime = runtime();
    let calls = Arc::new(AtomicUsize::new(0));
    let agents = (0..CONVERSATIONS)
        .map(|i| agent_on(&server.conversation_url(&format!("rust-{}", i)), &calls))
        .collect::<hermes::Result<Vec<_>>>()?;

    let caller = thread::current().id();
    let (sender, results) = mpsc::channel();
    for (i, agent) in agents.iter().enumerate() {
        let sender = sender.clone();
        agent.run_turn_async(&runtime, QUESTION, RunOptions::default(), move |result| {
            let _ = sender.send((i, result, thread::current().id()));
        })?;
    }
    let mut answered = vec![0; CONVERSATIONS];
    for _ in 0..CONVERSATIONS {
        let (i, result, thread) = results.recv_timeout(PATIENCE).expect("every turn ends");
        assert_answered(&result);
        assert_ne!(thread, caller, "the callback runs on a runtime thread");
        answered[i] += 1;
    }
    assert!(answered.iter().all(|&n| n == 1), "answers: {:?}", answered);
    assert_eq!(calls.load(Ordering::SeqCst), CONVERSATIONS);
    assert_eq!(runtime.stats()?.turns_started, CONVERSATIONS as u64);
    Ok(())
}

#[test]
fn an_awaited_turn_returns_what_the_synchronous_call_returns() -> hermes::Result<()> {
    let server = server();
    let runtime = runtime();
    let calls = Arc::new(AtomicUsize::new(0));
    let synchronous = agent_on(&server.conversation_url("sync"), &calls)?;
    let awaited = agent_on(&server.conversation_url("awaited"), &calls)?;
    let waited = agent_on(&server.conversation_url("waited"), &calls)?;
    let run = RunOptions {
        system_message: Some("Answer in one \"short\" sentence.\n"),
        task_id: Some("task-1"),
        ..RunOptions::default()
    };

    let expected = synchronous.run_conversation_with(QUESTION, run)?;
    let by_await = block_on(ask(&awaited, &runtime, run))?;
    let by_wait = waited.run_turn_future(&runtime, QUESTION, run)?.wait();

    for result in [&by_await, &by_wait] {
        assert_answered(result);
        for key in [
            "\"completed\":true",
            "\"exit_reason\":\"",
            "{\\\"sum\\\":42}",
        ] {
            assert_eq!(
                expected.contains(key),
                result.json().contains(key),
                "{} in {} and {}",
                key,
                expected,
                result.json()
            );
        }
        assert!(expected.contains(&format!("\"exit_reason\":\"{}\"", result.exit_reason())));
        assert!(!result.interrupted() && result.error().is_none());
    }
    assert_eq!(calls.load(Ordering::SeqCst), 3);
    Ok(())
}

#[test]
fn a_busy_agent_is_refused_and_the_refused_callback_is_dropped_uncalled() -> hermes::Result<()> {
    let server = server();
    let runtime = runtime();
    let agent = agent_on(&server.base_url, &Arc::new(AtomicUsize::new(0)))?;
    let first = agent.run_turn_future(&runtime, QUESTION, RunOptions::default())?;

    let refused = Arc::new(Tally::default());
    let error = agent
        .run_turn_async(
            &runtime,
            QUESTION,
            RunOptions::default(),
            witnessed_callback(&refused),
        )
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::FailedPrecondition);
    assert!(error.message().contains("agent_busy"), "{}", error);
    for error in [
        agent.chat("Me too.").unwrap_err(),
        agent.run_conversation("Me too.").unwrap_err(),
        agent.session_id().unwrap_err(),
    ] {
        assert_eq!(error.code(), ErrorCode::FailedPrecondition, "{}", error);
    }
    assert!(model_call_in_flight(&runtime));

    agent.interrupt("enough");
    let result = first.wait();
    assert!(result.interrupted(), "result: {}", result.json());
    assert!(!result.completed());
    assert_eq!(refused.called.load(Ordering::SeqCst), 0);
    assert_eq!(refused.dropped.load(Ordering::SeqCst), 1);
    // The turn over, the agent takes calls again.
    assert!(!agent.session_id()?.is_empty());
    Ok(())
}

#[test]
fn a_bad_argument_is_refused_and_the_callback_dropped_uncalled() -> hermes::Result<()> {
    let server = server();
    let runtime = runtime();
    let agent = agent_on(
        &server.conversation_url("bad"),
        &Arc::new(AtomicUsize::new(0)),
    )?;
    let tally = Arc::new(Tally::default());
    for history in ["[], \"user_message\": \"other\"", r#"[{"role":"robot"}]"#] {
        let run = RunOptions {
            history_json: Some(history),
            ..RunOptions::default()
        };
        let error = agent
            .run_turn_async(&runtime, QUESTION, run, witnessed_callback(&tally))
            .unwrap_err();
        assert_eq!(error.code(), ErrorCode::InvalidArgument, "{}", error);
        assert!(error.message().contains("history"), "{}", error);
    }
    let error = agent
        .run_turn_async(
            &runtime,
            "a\0b",
            RunOptions::default(),
            witnessed_callback(&tally),
        )
        .unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    assert_eq!(tally.called.load(Ordering::SeqCst), 0);
    assert_eq!(tally.dropped.load(Ordering::SeqCst), 3);
    assert_eq!(runtime.stats()?.turns_started, 0);
    // Refusals leave the agent free.
    assert_answered(
        &agent
            .run_turn_future(&runtime, QUESTION, RunOptions::default())?
            .wait(),
    );
    Ok(())
}

#[test]
fn an_interrupt_from_another_thread_ends_a_slow_turn() -> hermes::Result<()> {
    let server = server();
    let runtime = runtime();
    let agent = agent_on(&server.base_url, &Arc::new(AtomicUsize::new(0)))?;
    let started = Instant::now();
    let future = agent.run_turn_future(&runtime, QUESTION, RunOptions::default())?;
    assert!(!future.is_ready());
    thread::scope(|scope| {
        scope.spawn(|| {
            assert!(model_call_in_flight(&runtime));
            agent.interrupt("stop");
        });
    });
    let result = block_on(future);
    assert!(result.interrupted(), "result: {}", result.json());
    assert!(started.elapsed() < Duration::from_secs(30));
    Ok(())
}

#[test]
fn dropping_the_runtime_ends_a_turn_in_flight_with_an_interrupted_result() -> hermes::Result<()> {
    let server = server();
    let runtime = runtime();
    let agent = agent_on(&server.base_url, &Arc::new(AtomicUsize::new(0)))?;
    let result = Arc::new(Mutex::new(None));
    let slot = Arc::clone(&result);
    agent.run_turn_async(&runtime, QUESTION, RunOptions::default(), move |r| {
        *slot.lock().unwrap() = Some(r);
    })?;
    assert!(model_call_in_flight(&runtime));
    drop(runtime);
    // The callback has run by the time the drop returns.
    let result = result.lock().unwrap().take().expect("the callback ran");
    assert!(result.interrupted(), "result: {}", result.json());
    assert!(!result.completed());
    // The agent outlives its runtime and is free again.
    assert!(!agent.session_id()?.is_empty());
    Ok(())
}

#[test]
fn dropping_an_agent_mid_turn_waits_for_its_callback() -> hermes::Result<()> {
    let server = server();
    let runtime = runtime();
    let agent = agent_on(&server.base_url, &Arc::new(AtomicUsize::new(0)))?;
    let future = agent.run_turn_future(&runtime, QUESTION, RunOptions::default())?;
    assert!(model_call_in_flight(&runtime));
    drop(agent);
    assert!(future.is_ready());
    assert!(future.wait().interrupted());
    assert!(eventually(|| runtime
        .stats()
        .map_or(false, |s| s.turns_running == 0)));
    Ok(())
}

#[test]
fn a_callback_may_start_the_agents_next_turn() -> hermes::Result<()> {
    let server = server();
    let runtime = Arc::new(runtime());
    let agent = Arc::new(agent_on(
        &server.conversation_url("chain"),
        &Arc::new(AtomicUsize::new(0)),
    )?);
    let (sender, results) = mpsc::channel();
    let (next_agent, next_runtime) = (Arc::clone(&agent), Arc::clone(&runtime));
    agent.run_turn_async(&runtime, QUESTION, RunOptions::default(), move |first| {
        let sender_for_next = sender.clone();
        let _ = sender.send(first);
        // The conversation script starts over for the second turn.
        let started =
            next_agent.run_turn_async(&next_runtime, QUESTION, RunOptions::default(), move |r| {
                let _ = sender_for_next.send(r);
            });
        started.expect("the next turn starts from the callback");
    })?;
    assert_answered(&results.recv_timeout(PATIENCE).expect("the first turn ends"));
    assert_answered(
        &results
            .recv_timeout(PATIENCE)
            .expect("the second turn ends"),
    );
    assert_eq!(runtime.stats()?.turns_started, 2);
    Ok(())
}

#[test]
fn an_agent_whose_last_reference_a_callback_drops_is_released() -> hermes::Result<()> {
    let server = server();
    let runtime = runtime();
    let calls = Arc::new(AtomicUsize::new(0));
    let agent = Arc::new(agent_on(&server.conversation_url("last"), &calls)?);
    let (sender, results) = mpsc::channel();
    let (dropped, caller_dropped) = mpsc::channel();
    let held = Arc::clone(&agent);
    agent.run_turn_async(&runtime, QUESTION, RunOptions::default(), move |result| {
        let _ = caller_dropped.recv_timeout(PATIENCE);
        let _ = sender.send(result);
        // Still running the turn's callback, so the release waits on another thread.
        drop(held);
    })?;
    drop(agent);
    dropped.send(()).unwrap();
    assert_answered(&results.recv_timeout(PATIENCE).expect("the turn ends"));
    // The agent's tool (the other holder of `calls`) goes with it.
    assert!(eventually(|| Arc::strong_count(&calls) == 1));
    assert!(eventually(|| runtime
        .stats()
        .map_or(false, |s| s.turns_running == 0)));
    Ok(())
}

#[test]
fn a_panicking_callback_is_caught_and_the_agent_stays_usable() -> hermes::Result<()> {
    let server = server();
    let runtime = runtime();
    let agent = agent_on(
        &server.conversation_url("panic"),
        &Arc::new(AtomicUsize::new(0)),
    )?;
    agent.run_turn_async(&runtime, QUESTION, RunOptions::default(), |_| {
        panic!("a callback bug")
    })?;
    assert!(eventually(|| runtime
        .stats()
        .map_or(false, |s| s.turns_running == 0)));
    assert!(!agent.session_id()?.is_empty());
    Ok(())
}
