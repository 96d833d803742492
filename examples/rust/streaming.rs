//! hermes from Rust: the answer streamed as it is generated, tool calls reported as they
//! run, and the whole result of the turn as JSON.
//!
//!     OPENAI_API_KEY=sk-... cargo run --example streaming -- "What is 2 + 40?"
use std::env;
use std::io::{self, Write};

use hermes::{Agent, AgentOptions, Tool, ToolRegistry};

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
        .set_tools(&tools)?
        .set_stream_callback(|delta| {
            print!("{}", delta);
            let _ = io::stdout().flush();
        })?
        .set_tool_progress_callback(|event| eprintln!("[tool {}]", event))?;
    if let Ok(url) = env::var("OPENAI_BASE_URL") {
        options.set_base_url(&url)?;
    }

    let agent = Agent::new(&options)?;
    let question = env::args()
        .nth(1)
        .unwrap_or_else(|| "What is 2 + 40?".to_owned());
    let result = agent.run_conversation(&question)?;
    println!();
    eprintln!("{}", result);
    Ok(())
}
