//! Options whose effect shows on the wire, against the loopback mock server: the tool-use
//! enforcement block of the system prompt, a credential refreshed after a 401, and the
//! limit on sub-agents.

mod common;

use std::sync::{Arc, Mutex};

use common::MockServer;
use hermes::{Agent, AgentOptions, ErrorCode, ToolUseEnforcement};

fn options_for(server: &MockServer, model: &str) -> hermes::Result<AgentOptions> {
    let mut options = AgentOptions::new()?;
    options
        .set_model(model)?
        .set_base_url(&server.base_url)?
        .set_api_key("sk-test")?
        .set_persist_sessions(false)?;
    Ok(options)
}

const ENFORCEMENT_HEADING: &str = "# Act, do not narrate";

fn system_prompt_sent(model: &str, mode: ToolUseEnforcement) -> hermes::Result<String> {
    let server = MockServer::start("one_answer.json");
    let mut options = options_for(&server, model)?;
    options.set_tool_use_enforcement(mode)?;
    let agent = Agent::new(&options)?;
    assert_eq!(agent.chat("hello")?, "Hello from the mock model.");
    Ok(server.requests_json())
}

#[test]
fn tool_use_enforcement_overrides_the_model_family() -> hermes::Result<()> {
    // Left to the family, a model of no narrating family gets no block ...
    let auto = system_prompt_sent("mock-model", ToolUseEnforcement::Auto)?;
    assert!(!auto.contains(ENFORCEMENT_HEADING), "requests: {}", auto);
    // ... unless asked for it, and a GPT model, which would get it, can be spared it.
    let on = system_prompt_sent("mock-model", ToolUseEnforcement::On)?;
    assert!(on.contains(ENFORCEMENT_HEADING), "requests: {}", on);
    let off = system_prompt_sent("gpt-mock", ToolUseEnforcement::Off)?;
    assert!(!off.contains(ENFORCEMENT_HEADING), "requests: {}", off);
    Ok(())
}

#[test]
fn the_auth_refresh_callback_answers_a_401_with_a_fresh_key() -> hermes::Result<()> {
    let server = MockServer::start("expired_token.json");
    let asked = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&asked);
    let mut options = options_for(&server, "mock-model")?;
    options.set_auth_refresh_callback(move |request| {
        seen.lock().unwrap().push(request.to_owned());
        Some("sk-fresh".to_owned())
    })?;
    let agent = Agent::new(&options)?;

    assert_eq!(agent.chat("hello")?, "Signed in.");
    let asked = asked.lock().unwrap();
    assert_eq!(asked.len(), 1);
    assert!(
        asked[0].contains(r#""http_status":401"#),
        "request: {}",
        asked[0]
    );
    assert!(
        asked[0].contains(r#""model":"mock-model""#),
        "request: {}",
        asked[0]
    );
    let requests = server.requests_json();
    let stale = requests
        .find("Bearer sk-test")
        .expect("the first call's key");
    let fresh = requests
        .find("Bearer sk-fresh")
        .expect("the retried call's key");
    assert!(stale < fresh, "requests: {}", requests);
    Ok(())
}

#[test]
fn a_panicking_auth_refresh_callback_counts_as_no_answer() -> hermes::Result<()> {
    let server = MockServer::start("expired_token.json");
    let mut options = options_for(&server, "mock-model")?;
    options
        .set_max_retries(1)?
        .set_auth_refresh_callback(|_| panic!("the token service is down"))?;
    let agent = Agent::new(&options)?;

    let error = agent.chat("hello").expect_err("the 401 stands");
    assert!(
        error.message().contains("Token expired"),
        "error: {}",
        error
    );
    assert!(!server.requests_json().contains("sk-fresh"));
    Ok(())
}

#[test]
fn delegation_limits_out_of_range_are_refused_naming_the_field() -> hermes::Result<()> {
    let mut options = AgentOptions::new()?;
    let error = options.set_delegation(0, 3).expect_err("no iterations");
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    assert!(
        error.message().contains("delegation.max_iterations"),
        "{}",
        error
    );
    let error = options.set_delegation(5, 0).expect_err("no children");
    assert!(
        error
            .message()
            .contains("delegation.max_concurrent_children"),
        "{}",
        error
    );
    Ok(())
}

#[test]
fn the_delegation_limit_reaches_the_agent() -> hermes::Result<()> {
    // The model asks for two sub-agents at once; one at a time is allowed.
    let server = MockServer::start("delegate_two_tasks.json");
    let mut options = options_for(&server, "mock-model")?;
    options.enable_toolset("delegation")?.set_delegation(5, 1)?;
    let agent = Agent::new(&options)?;

    assert_eq!(agent.chat("Split the work.")?, "Done alone.");
    let requests = server.requests_json();
    assert!(requests.contains("at most 1"), "requests: {}", requests);
    Ok(())
}

#[test]
fn the_source_picks_a_platform_hint_and_the_application_may_bring_its_own() -> hermes::Result<()> {
    let prompt_for = |source: &str, hint: Option<&str>| -> hermes::Result<String> {
        let server = MockServer::start("one_answer.json");
        let mut options = options_for(&server, "mock-model")?;
        options.set_source(source)?;
        if let Some(hint) = hint {
            options.set_platform_hint(hint)?;
        }
        Agent::new(&options)?.chat("hello")?;
        Ok(server.requests_json())
    };
    assert!(prompt_for("telegram", None)?.contains("on Telegram"));
    let own = prompt_for("telegram", Some("Answers go to a braille display."))?;
    assert!(own.contains("Answers go to a braille display.") && !own.contains("on Telegram"));
    Ok(())
}
