"""MCP servers given to an agent: their tools join the agent's, their state is reported."""
import os
from pathlib import Path

import pytest

import hermes
from helpers import make_agent, tool_results


def fake_server():
    fixtures = os.environ.get("HERMES_FIXTURES_DIR")
    if not fixtures:
        pytest.skip("HERMES_FIXTURES_DIR is not set (run through ctest)")
    return str(Path(fixtures) / "mcp" / "fake_server.py")


def test_a_server_s_tools_are_offered_to_the_model_and_called(mock_server, tmp_path):
    agent = make_agent(mock_server, tmp_path, persist_sessions=False,
                       mcp_servers={"fake": {"command": "python3", "args": [fake_server()]}})
    status = agent.mcp_status()
    assert [s["name"] for s in status] == ["fake"]
    assert status[0]["connected"] and status[0]["last_error"] == ""
    assert "mcp_fake_echo" in status[0]["tools"]
    mock_server.enqueue(
        {"chat_tool_calls": [{"id": "call_1", "name": "mcp_fake_echo",
                              "arguments": {"text": "via mcp"}}]},
        {"chat_text": "done"})
    result = agent.run_conversation("echo something")
    assert result["final_response"] == "done"
    assert "via mcp" in tool_results(result)[0]
    assert '"mcp_fake_echo"' in mock_server.requests()[0]["body"]


def test_a_bad_server_setting_is_refused_naming_the_key(mock_server, tmp_path):
    with pytest.raises(hermes.InvalidArgumentError, match=r"mcpServers\.fake\.args"):
        make_agent(mock_server, tmp_path, mcp_servers={"fake": {"command": "x", "args": "no"}})
    with pytest.raises(TypeError, match="mcp_servers"):
        make_agent(mock_server, tmp_path, mcp_servers=["fake"])


def test_an_agent_without_servers_reports_none(mock_server, tmp_path):
    assert make_agent(mock_server, tmp_path).mcp_status() == []
