"""agent.stream(): a turn's events as an iterator."""
import threading

import pytest

import hermes
from helpers import make_agent


def test_stream_yields_text_tool_and_done_events_in_order(mock_server, tmp_path):
    mock_server.enqueue(
        {"chat_tool_calls": [{"id": "call_1", "name": "echo", "arguments": {"text": "hi"}}], "stream": True},
        {"chat_text": "The tool said hi.", "stream": True},
    )
    agent = make_agent(mock_server, tmp_path,
                       tools=[hermes.Tool(lambda args: args["text"], name="echo")])
    events = list(agent.stream("Call echo."))

    kinds = [e["type"] for e in events]
    assert kinds[-1] == "done"
    assert kinds.count("done") == 1
    tools = [e for e in events if e["type"] == "tool"]
    assert [(t["phase"], t["name"]) for t in tools] == [("started", "echo"), ("completed", "echo")]
    assert tools[0]["arguments"] == {"text": "hi"}
    assert tools[1]["result"] == "hi" and tools[1]["is_error"] is False
    text = "".join(e["text"] for e in events if e["type"] == "text")
    assert text == "The tool said hi."
    assert kinds.index("tool") < kinds.index("text")
    result = events[-1]["result"]
    assert result["completed"] is True
    assert result["final_response"] == "The tool said hi."
    assert result["session_id"] == agent.session_id


def test_stream_yields_reasoning_and_status_events(mock_server, tmp_path):
    mock_server.enqueue({"responses_text": "Yes.", "stream": True,
                         "reasoning": {"summary": "Checking."}})
    agent = make_agent(mock_server, tmp_path, api_mode="codex_responses")
    events = list(agent.stream("Is it?"))
    assert "".join(e["text"] for e in events if e["type"] == "reasoning") == "Checking."
    assert all(set(e) == {"type", "kind", "message"} for e in events if e["type"] == "status")
    assert events[-1]["result"]["final_response"] == "Yes."


def test_the_user_callbacks_still_run_while_streaming(mock_server, tmp_path):
    mock_server.enqueue({"chat_text": "one two", "stream": True})
    pieces = []
    agent = make_agent(mock_server, tmp_path, stream_callback=pieces.append)
    events = list(agent.stream("count"))
    assert "".join(pieces) == "one two"
    assert events[-1]["result"]["final_response"] == "one two"


def test_breaking_out_of_the_loop_interrupts_the_turn(mock_server, tmp_path):
    ran = []
    mock_server.enqueue(
        {"chat_tool_calls": [{"name": "record", "arguments": {}}],
         "content": "Let me look that up for you in some detail.", "stream": True,
         "chunk_delay_ms": 200},
    )
    agent = make_agent(mock_server, tmp_path,
                       tools=[hermes.Tool(lambda args: ran.append(1) or "ok", name="record")])
    for event in agent.stream("Look it up."):
        if event["type"] == "text":
            break
    # The turn was stopped before its tool and second model call, and the agent is free.
    assert ran == []
    assert len(mock_server.requests()) == 1
    mock_server.enqueue({"chat_text": "Fresh turn."})
    assert agent.chat("again") == "Fresh turn."


def test_close_stops_the_turn_and_is_idempotent(mock_server, tmp_path):
    mock_server.enqueue({"chat_text": "slow answer in many words", "stream": True, "chunk_delay_ms": 200})
    agent = make_agent(mock_server, tmp_path)
    with agent.stream("go") as events:
        first = next(events)
        assert first["type"] in ("text", "status")
    events.close()
    with pytest.raises(StopIteration):
        next(events)


def test_a_second_turn_is_refused_while_a_stream_is_open(mock_server, tmp_path):
    mock_server.enqueue({"chat_text": "first", "stream": True, "first_byte_delay_ms": 300})
    agent = make_agent(mock_server, tmp_path)
    events = agent.stream("one")
    with pytest.raises(hermes.HermesError, match="busy"):
        agent.chat("two")
    assert [e for e in events][-1]["result"]["final_response"] == "first"
    mock_server.enqueue({"chat_text": "second"})
    assert agent.chat("two") == "second"


def test_python_tools_run_while_the_consumer_waits(mock_server, tmp_path):
    threads = []
    mock_server.enqueue(
        {"chat_tool_calls": [{"name": "where", "arguments": {}}]},
        {"chat_text": "ok"},
    )
    agent = make_agent(mock_server, tmp_path,
                       tools=[hermes.Tool(lambda args: threads.append(threading.get_ident()) or "x",
                                          name="where")])
    events = list(agent.stream("where?"))
    assert events[-1]["result"]["completed"] is True
    assert threads and threads[0] != threading.get_ident()
