"""Agent.compress() and the compression settings."""
import pytest

import hermes
from helpers import make_agent


def chat_turns(server, agent, count):
    for i in range(count):
        server.enqueue({"chat_text": "Reply number %d." % i})
        agent.chat("Message number %d." % i)


def test_compress_summarises_the_middle_of_the_conversation(mock_server, tmp_path):
    agent = make_agent(mock_server, tmp_path, context_length=200000, protect_last_n=3)
    chat_turns(mock_server, agent, 6)
    before = agent.session_id
    mock_server.enqueue({"chat_text": "## Active Task\nThe user counted messages; the assistant replied.",
                         "stream": False})

    result = agent.compress(focus="counting")

    assert result["compacted"] is True
    assert result["messages_before"] == 12
    assert result["messages_after"] < 12
    assert result["tokens_before"] > 0 and result["tokens_after"] > 0
    assert result["session_id"] == agent.session_id != before
    summary_request = mock_server.requests()[-1]["body"]
    assert "counting" in summary_request
    assert any("The user counted messages" in (m["content"] or "") for m in agent.history)


def test_compress_refuses_when_compression_is_off(mock_server, tmp_path):
    agent = make_agent(mock_server, tmp_path, compression=False)
    with pytest.raises(hermes.HermesError, match="disabled"):
        agent.compress()


def test_compress_with_nothing_to_compress_reports_why(mock_server, tmp_path):
    agent = make_agent(mock_server, tmp_path, context_length=200000)
    result = agent.compress()
    assert result["compacted"] is False
    assert result["messages_before"] == result["messages_after"] == 0


def test_compression_settings_are_checked(tmp_path):
    with pytest.raises(ValueError, match="compression_threshold"):
        hermes.Agent(model="m", home=str(tmp_path), persist_sessions=False, compression_threshold=1.5)
    with pytest.raises(TypeError, match="context_length"):
        hermes.Agent(model="m", home=str(tmp_path), persist_sessions=False, context_length="big")
