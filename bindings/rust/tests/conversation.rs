//! Conversations over real HTTP against the loopback mock model server, which plays the
//! model of tests/fixtures/scripts/two_step_add.json: it asks for add(2, 40), then
//! answers "The sum is 42.".

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use common::{number_field, MockServer};
use hermes::{
    Agent, AgentOptions, ErrorCode, RunOptions, Tool, ToolCall, ToolRegistry, ToolResult,
};

const ADD_SCHEMA: &str = r#"{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}"#;

fn add_tool() -> Tool {
    Tool::new("add")
        .description("Add two numbers.")
        .parameters(ADD_SCHEMA)
        .parallel_safe(true)
}

fn add(call: &ToolCall<'_>) -> ToolResult {
    let args = call.arguments();
    match (number_field(&args, "a"), number_field(&args, "b")) {
        (Some(a), Some(b)) => Ok(format!("{{\"sum\":{}}}", a + b)),
        _ => Err("a and b are required".to_owned()),
    }
}

fn options_for(server: &MockServer, tools: &ToolRegistry) -> hermes::Result<AgentOptions> {
    let mut options = AgentOptions::new()?;
    options
        .set_model("mock-model")?
        .set_base_url(&server.base_url)?
        .set_api_key("sk-test")?
        .set_persist_sessions(false)?
        .set_tools(tools)?;
    Ok(options)
}

#[test]
fn a_two_step_tool_conversation_feeds_the_tool_result_back_to_the_model() -> hermes::Result<()> {
    let server = MockServer::start("two_step_add.json");
    let calls = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&calls);
    let mut tools = ToolRegistry::new()?;
    tools.add(add_tool(), move |call| {
        counted.fetch_add(1, Ordering::SeqCst);
        assert_eq!(call.name(), "add");
        assert_eq!(call.id(), "call_add_1");
        add(call)
    })?;
    let agent = Agent::new(&options_for(&server, &tools)?)?;
    drop(tools);

    let result = agent.run_conversation("What is 2 + 40?")?;
    assert!(result.contains(r#""completed":true"#), "result: {}", result);
    assert!(
        result.contains(r#""final_response":"The sum is 42.""#),
        "result: {}",
        result
    );
    assert!(result.contains(r#""api_calls":2"#), "result: {}", result);
    assert!(result.contains(r#"{\"sum\":42}"#), "result: {}", result);
    assert_eq!(calls.load(Ordering::SeqCst), 1);

    // The second request carried the tool's answer to the model.
    let requests = server.requests_json();
    assert!(
        requests.contains(r#"{\\\"sum\\\":42}"#),
        "requests: {}",
        requests
    );

    drop(agent);
    assert_eq!(
        Arc::strong_count(&calls),
        1,
        "the handler must be dropped with the agent"
    );
    Ok(())
}

#[test]
fn chat_returns_the_answer_and_reports_streamed_text_and_tool_progress() -> hermes::Result<()> {
    let server = MockServer::start("two_step_add.json");
    let streamed = Arc::new(Mutex::new(String::new()));
    let events = Arc::new(Mutex::new(Vec::<String>::new()));
    let mut tools = ToolRegistry::new()?;
    tools.add(add_tool(), add)?;
    let mut options = options_for(&server, &tools)?;
    let sink = Arc::clone(&streamed);
    let log = Arc::clone(&events);
    options
        .set_stream(true)?
        .set_stream_callback(move |delta| sink.lock().unwrap().push_str(delta))?
        .set_tool_progress_callback(move |event| log.lock().unwrap().push(event.to_owned()))?;
    let agent = Agent::new(&options)?;

    assert_eq!(agent.chat("What is 2 + 40?")?, "The sum is 42.");
    assert_eq!(*streamed.lock().unwrap(), "The sum is 42.");
    let events = events.lock().unwrap();
    assert_eq!(events.len(), 2, "events: {:?}", events);
    assert!(events[0].contains(r#""phase":"started""#) && events[0].contains(r#""name":"add""#));
    assert!(
        events[1].contains(r#""phase":"completed""#) && events[1].contains(r#""is_error":false"#)
    );
    Ok(())
}

#[test]
fn a_panicking_tool_becomes_an_error_result_and_the_turn_goes_on() -> hermes::Result<()> {
    let server = MockServer::start("two_step_add.json");
    let mut tools = ToolRegistry::new()?;
    tools.add(add_tool(), |_| -> ToolResult { panic!("the abacus broke") })?;
    let agent = Agent::new(&options_for(&server, &tools)?)?;

    let result = agent.run_conversation("What is 2 + 40?")?;
    assert!(
        result.contains("tool panicked: the abacus broke"),
        "result: {}",
        result
    );
    assert!(
        result.contains(r#""final_response":"The sum is 42.""#),
        "result: {}",
        result
    );
    Ok(())
}

#[test]
fn a_tool_error_reaches_the_model_as_an_error_object() -> hermes::Result<()> {
    let server = MockServer::start("two_step_add.json");
    let mut tools = ToolRegistry::new()?;
    tools.add(add_tool(), |_| Err("the numbers are too large".to_owned()))?;
    let agent = Agent::new(&options_for(&server, &tools)?)?;

    let result = agent.run_conversation("What is 2 + 40?")?;
    assert!(
        result.contains(r#"{\"error\":\"the numbers are too large\"}"#),
        "result: {}",
        result
    );
    assert!(result.contains(r#""completed":true"#), "result: {}", result);
    Ok(())
}

#[test]
fn history_that_is_not_valid_json_or_messages_is_refused() -> hermes::Result<()> {
    let server = MockServer::start("two_step_add.json");
    let tools = ToolRegistry::new()?;
    let agent = Agent::new(&options_for(&server, &tools)?)?;

    let run = RunOptions {
        history_json: Some("[{\"role\":"),
        ..RunOptions::default()
    };
    let error = agent
        .run_conversation_with("hi", run)
        .expect_err("broken JSON must be refused");
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    assert!(
        error.message().starts_with("history_json"),
        "message: {}",
        error.message()
    );

    let run = RunOptions {
        history_json: Some(r#"[{"role":"robot"}]"#),
        ..RunOptions::default()
    };
    let error = agent
        .run_conversation_with("hi", run)
        .expect_err("an unknown role must be refused");
    assert_eq!(error.code(), ErrorCode::InvalidArgument);

    let error = agent
        .chat("a\0b")
        .expect_err("an interior NUL must be refused");
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    assert!(
        server.requests_json().starts_with("[]"),
        "nothing may reach the model"
    );
    Ok(())
}

#[test]
fn a_panicking_callback_is_stopped_at_the_c_boundary() -> hermes::Result<()> {
    let server = MockServer::start("two_step_add.json");
    let mut tools = ToolRegistry::new()?;
    tools.add(add_tool(), add)?;
    let mut options = options_for(&server, &tools)?;
    options
        .set_stream_callback(|_| panic!("the screen is gone"))?
        .set_tool_progress_callback(|_| panic!("so is the log"))?;
    let agent = Agent::new(&options)?;

    assert_eq!(agent.chat("What is 2 + 40?")?, "The sum is 42.");
    Ok(())
}

#[test]
fn interrupt_from_another_thread_stops_a_running_turn() -> hermes::Result<()> {
    let server = MockServer::start("two_step_add.json");
    let (started, tool_started) = mpsc::channel();
    let started = Mutex::new(started); // Sender is not Sync before Rust 1.72.
    let mut tools = ToolRegistry::new()?;
    tools.add(add_tool(), move |call| {
        let _ = started.lock().unwrap().send(());
        // Waits for the interrupt; the bound only keeps a broken build from hanging.
        let give_up = Instant::now() + Duration::from_secs(60);
        while !call.cancelled() && Instant::now() < give_up {
            thread::sleep(Duration::from_millis(5));
        }
        Ok(format!("{{\"cancelled\":{}}}", call.cancelled()))
    })?;
    let agent = Agent::new(&options_for(&server, &tools)?)?;

    let outcome = thread::scope(|scope| {
        let turn = scope.spawn(|| agent.run_conversation("What is 2 + 40?"));
        tool_started.recv().expect("the tool must start");
        agent.interrupt("the user pressed stop");
        turn.join().expect("the turn must not panic")
    });
    let result = outcome?;
    assert!(
        result.contains(r#"{\"cancelled\":true}"#),
        "result: {}",
        result
    );
    assert!(
        result.contains(r#""interrupted":true"#),
        "result: {}",
        result
    );
    assert!(!result.contains("The sum is 42."), "result: {}", result);
    Ok(())
}

#[test]
fn the_context_directorys_agents_file_reaches_the_system_prompt() -> hermes::Result<()> {
    let dir = std::env::temp_dir().join(format!("hermes-rust-context-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let rules = "Answer every question about penguins in haiku.";
    std::fs::write(dir.join("AGENTS.md"), rules).expect("AGENTS.md");

    let server = MockServer::start("two_step_add.json");
    let mut tools = ToolRegistry::new()?;
    tools.add(add_tool(), add)?;
    let mut options = options_for(&server, &tools)?;
    options.set_context_dir(dir.to_str().expect("utf-8 path"))?;
    let agent = Agent::new(&options)?;
    agent.run_conversation("What is 2 + 40?")?;
    let requests = server.requests_json();
    std::fs::remove_dir_all(&dir).ok();
    assert!(requests.contains(rules), "requests: {}", requests);
    Ok(())
}
