//! hermes from Rust: a turn on a Runtime, whose threads run many agents' turns at once.
//! The turn runs while the program goes on; here it just waits for the result.
//! `Agent::run_turn_async` takes a callback instead, run on a runtime thread.
//!
//!     OPENAI_API_KEY=sk-... cargo run --example runtime -- "What is 2 + 40?"
use std::env;

use hermes::{Agent, AgentOptions, RunOptions, Runtime, RuntimeOptions, Tool, ToolRegistry};

fn main() -> Result<(), hermes::Error> {
    let mut tools = ToolRegistry::new()?;
    tools.add(Tool::new("add").description("Add two numbers."), |call| {
        eprintln!("[add called with {}]", call.arguments());
        Ok(r#"{"sum": 42}"#.to_owned())
    })?;

    let mut options = AgentOptions::new()?;
    options
        .set_model(&env::var("HERMES_MODEL").unwrap_or_else(|_| "gpt-4.1-mini".to_owned()))?
        .set_api_key(&env::var("OPENAI_API_KEY").unwrap_or_default())?
        .set_persist_sessions(false)?
        .set_tools(&tools)?;
    if let Ok(url) = env::var("OPENAI_BASE_URL") {
        options.set_base_url(&url)?;
    }
    let agent = Agent::new(&options)?;
    let question = env::args()
        .nth(1)
        .unwrap_or_else(|| "What is 2 + 40? Use the add tool.".to_owned());

    // One runtime serves every agent of the program; dropping it ends their turns.
    let runtime = Runtime::with_options(&RuntimeOptions {
        tool_workers: Some(4),
        ..RuntimeOptions::default()
    })?;
    // A TurnFuture: `.await` it in async code, or wait for it.
    let turn = agent.run_turn_future(&runtime, &question, RunOptions::default())?;
    let result = turn.wait();
    match result.final_response() {
        Some(answer) if result.completed() => println!("{}", answer),
        _ => eprintln!("the turn failed: {}", result.json()),
    }
    Ok(())
}
