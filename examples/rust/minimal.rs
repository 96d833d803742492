//! hermes from Rust: one tool, one question.
//!
//!     OPENAI_API_KEY=sk-... cargo run --example minimal -- "What is 2 + 40?"
//!
//! OPENAI_BASE_URL selects another OpenAI-compatible endpoint, HERMES_MODEL the model,
//! HERMES_MCP_CONFIG an mcp.json file whose MCP servers add their tools.
use std::{env, fs};

use hermes::{Agent, AgentOptions, McpServers, Tool, ToolRegistry};

const ADD_SCHEMA: &str = r#"{
    "type": "object",
    "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
    "required": ["a", "b"]
}"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut tools = ToolRegistry::new()?;
    tools.add(
        Tool::new("add")
            .description("Add two numbers.")
            .parameters(ADD_SCHEMA),
        |call| {
            let args = call.arguments(); // JSON text, e.g. {"a":2,"b":40}
            let sum = number(&args, "a")? + number(&args, "b")?;
            Ok(format!(r#"{{"sum": {}}}"#, sum))
        },
    )?;

    let mut options = AgentOptions::new()?;
    options
        .set_model(&env::var("HERMES_MODEL").unwrap_or_else(|_| "gpt-4.1-mini".to_owned()))?
        .set_persist_sessions(false)?
        .set_tools(&tools)?;
    if let Ok(url) = env::var("OPENAI_BASE_URL") {
        options.set_base_url(&url)?;
    }
    if let Ok(key) = env::var("OPENAI_API_KEY") {
        options.set_api_key(&key)?;
    }

    // {"mcpServers": {"files": {"command": ...}, "search": {"url": ...}}}; kept alive
    // for as long as the agent uses the tools.
    let _mcp = match env::var("HERMES_MCP_CONFIG") {
        Ok(path) => {
            let config = fs::read_to_string(&path).map_err(|e| format!("{}: {}", path, e))?;
            Some(McpServers::connect(&config, &tools)?)
        }
        Err(_) => None,
    };

    let agent = Agent::new(&options)?;
    let question = env::args()
        .nth(1)
        .unwrap_or_else(|| "What is 2 + 40? Use the add tool.".to_owned());
    println!("{}", agent.chat(&question)?);
    Ok(())
}

/// Reads one number from the arguments. A real program would use a JSON library such as
/// serde_json; this example has no dependencies.
fn number(args: &str, key: &str) -> Result<f64, String> {
    let quoted = format!("\"{}\"", key);
    let after = args
        .find(&quoted)
        .map(|i| &args[i + quoted.len()..])
        .ok_or_else(|| format!("{} is required", key))?;
    let value = after.trim_start().trim_start_matches(':').trim_start();
    let end = value
        .find(|c: char| !(c.is_ascii_digit() || "+-.eE".contains(c)))
        .unwrap_or(value.len());
    value[..end]
        .parse()
        .map_err(|_| format!("{} must be a number", key))
}
