"""MCP servers given to an agent: their tools join the agent's, their state is reported."""
import os
import subprocess
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlparse

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


@pytest.fixture
def oauth_server():
    """The fake MCP server behind OAuth; yields its /mcp URL."""
    script = str(Path(fake_server()).with_name("fake_oauth_server.py"))
    process = subprocess.Popen(["python3", script], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    try:
        port = int(process.stdout.readline())
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.kill()
        process.wait()


def test_a_server_behind_oauth_is_authorized_through_mcp_authorize(mock_server, tmp_path,
                                                                     oauth_server):
    visited = []

    def authorize(url):
        # The user consents: the browser comes back to the redirect URI with a code.
        visited.append(url)
        query = parse_qs(urlparse(url).query)
        return (query["redirect_uri"][0] + "?" +
                urlencode({"code": "good-code", "state": query["state"][0]}))

    servers = {"guarded": {"url": oauth_server, "oauth": {"token_dir": str(tmp_path / "tokens")}}}
    agent = make_agent(mock_server, tmp_path, persist_sessions=False, mcp_servers=servers,
                       mcp_authorize=authorize)
    status = agent.mcp_status()[0]
    assert status["connected"], status["last_error"]
    assert len(visited) == 1 and "code_challenge_method=S256" in visited[0]
    assert (tmp_path / "tokens" / "guarded.json").exists()
    # The next agent reuses the stored token: nobody is asked again.
    make_agent(mock_server, tmp_path, persist_sessions=False, mcp_servers=servers,
               mcp_authorize=authorize)
    assert len(visited) == 1


def test_an_mcp_authorize_that_raises_leaves_the_server_unconnected_with_its_error(
        mock_server, tmp_path, oauth_server):
    def authorize(url):
        raise RuntimeError("the user closed the browser")

    agent = make_agent(mock_server, tmp_path, persist_sessions=False,
                       mcp_servers={"guarded": {"url": oauth_server,
                                                "oauth": {"persist_tokens": False}}},
                       mcp_authorize=authorize)
    status = agent.mcp_status()[0]
    assert not status["connected"]
    assert "the user closed the browser" in status["last_error"]


def test_mcp_authorize_must_be_callable_and_needs_servers(mock_server, tmp_path):
    with pytest.raises(TypeError, match="mcp_authorize"):
        make_agent(mock_server, tmp_path, mcp_servers={}, mcp_authorize="yes")
    with pytest.raises(ValueError, match="mcp_authorize"):
        make_agent(mock_server, tmp_path, mcp_authorize=lambda url: url)
