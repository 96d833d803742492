//! MCP servers from Rust: a configuration document in, tools in the registry.

mod common;

use hermes::{ErrorCode, McpServers, ToolRegistry};

#[test]
fn a_stdio_server_registers_its_tools() {
    let tools = ToolRegistry::new().unwrap();
    let script = common::fixtures_dir().join("mcp/fake_server.py");
    let config = format!(
        r#"{{"mcpServers": {{"fake": {{"command": "python3", "args": ["{}"]}}}}}}"#,
        script.display()
    );
    let servers = McpServers::connect(&config, &tools).unwrap();
    let status = servers.status_json().unwrap();
    assert!(status.contains(r#""connected":true"#), "status: {}", status);
    assert!(status.contains(r#""mcp_fake_echo""#), "status: {}", status);
}

#[test]
fn a_bad_document_is_refused_naming_the_key() {
    let tools = ToolRegistry::new().unwrap();
    let error = McpServers::connect(r#"{"mcpServers": {"a": {"command": 7}}}"#, &tools)
        .expect_err("a number is not a command");
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    assert!(
        error.message().contains("mcpServers.a.command"),
        "message: {}",
        error.message()
    );
}
