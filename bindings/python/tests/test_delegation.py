"""The delegation settings: hermes.Agent(delegation_max_iterations=...,
delegation_max_concurrent_children=...)."""
import json

import pytest

import hermes
from helpers import make_agent


def test_the_delegation_limit_reaches_the_agent(mock_server, tmp_path):
    mock_server.enqueue(
        {"chat_tool_calls": [{"id": "call_1", "name": "delegate_task",
                              "arguments": {"tasks": [{"goal": "a"}, {"goal": "b"}]}}]},
        {"chat_text": "Done alone."})
    agent = make_agent(mock_server, tmp_path, persist_sessions=False, enabled_toolsets=["delegation"],
                       delegation_max_iterations=5, delegation_max_concurrent_children=1)
    assert agent.chat("Split the work.") == "Done alone."
    chat = [r for r in mock_server.requests() if r["path"].endswith("/chat/completions")]
    tool_message = json.loads(chat[-1]["body"])["messages"][-1]
    assert tool_message["role"] == "tool"
    assert "at most 1" in tool_message["content"]


def test_delegation_settings_are_checked(tmp_path):
    base = {"model": "m", "home": str(tmp_path), "persist_sessions": False}
    with pytest.raises(ValueError, match="delegation_max_iterations"):
        hermes.Agent(**base, delegation_max_iterations=0)
    with pytest.raises(ValueError, match="delegation_max_concurrent_children"):
        hermes.Agent(**base, delegation_max_concurrent_children=0)
    with pytest.raises(TypeError, match="delegation_max_iterations"):
        hermes.Agent(**base, delegation_max_iterations="many")
