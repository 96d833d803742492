"""Network settings: timeouts and the waits between retries, over real HTTP."""
import math
import threading
import time

import hermes
import pytest

from helpers import make_agent

NO_WAIT = {"base": 0, "max": 0}


def retries_seen(statuses):
    return [message for kind, message in statuses if kind == "retry"]


def test_retry_backoff_sets_the_wait_between_retries(mock_server, tmp_path):
    mock_server.enqueue({"chat_error": {"status": 503, "message": "busy"}}, {"chat_text": "Back."})
    statuses = []
    agent = make_agent(mock_server, tmp_path, persist_sessions=False, retry_backoff=NO_WAIT,
                       status_callback=lambda kind, message: statuses.append((kind, message)))
    assert agent.chat("hello") == "Back."
    retries = retries_seen(statuses)
    assert len(retries) == 1
    assert "retrying in 0.0s" in retries[0]


def test_the_default_backoff_waits_seconds(mock_server, tmp_path):
    # Interrupted during its wait: only the announced delay matters here.
    mock_server.enqueue({"chat_error": {"status": 503, "message": "busy"}})
    statuses = []

    def on_status(kind, message):
        statuses.append((kind, message))
        if kind == "retry":
            agent.interrupt()

    agent = make_agent(mock_server, tmp_path, persist_sessions=False, status_callback=on_status)
    agent.run_conversation("hello")
    delay = float(retries_seen(statuses)[0].split("retrying in ")[1].split("s")[0])
    assert 2.0 <= delay <= 3.0  # base 2 s plus up to half again.


def test_a_first_byte_timeout_fails_the_attempt_and_the_retry_answers(mock_server, tmp_path):
    mock_server.enqueue({"chat_text": "Too late.", "first_byte_delay_ms": 5000},
                        {"chat_text": "On time."})
    statuses = []
    agent = make_agent(mock_server, tmp_path, persist_sessions=False,
                       timeouts={"first_byte": 0.3}, retry_backoff=NO_WAIT,
                       status_callback=lambda kind, message: statuses.append((kind, message)))
    assert agent.chat("hello") == "On time."
    assert len(retries_seen(statuses)) == 1


@pytest.mark.parametrize("kwargs, error, text", [
    ({"timeouts": {"idel": 5}}, ValueError, "timeouts: unknown key 'idel' (known: connect, "),
    ({"timeouts": {"idle": -1}}, ValueError, "timeouts['idle']: must be between 0"),
    ({"timeouts": {"total": math.inf}}, ValueError, "timeouts['total']"),
    ({"timeouts": {"idle": "5"}}, TypeError, "timeouts['idle']: expected seconds as a number, got str"),
    ({"timeouts": [("idle", 5)]}, TypeError, "timeouts: expected dict[str, float], got list"),
    ({"retry_backoff": {"base": math.nan}}, ValueError, "retry_backoff['base']"),
    ({"retry_backoff": {"min": 1}}, ValueError, "retry_backoff: unknown key 'min'"),
])
def test_bad_network_settings_are_refused_by_name(mock_server, tmp_path, kwargs, error, text):
    with pytest.raises(error) as excinfo:
        make_agent(mock_server, tmp_path, persist_sessions=False, **kwargs)
    assert text in str(excinfo.value)


def test_a_tool_call_over_its_deadline_is_answered_with_a_timeout(mock_server, tmp_path):

    finished = threading.Event()

    def slow(args):
        time.sleep(1.0)
        finished.set()
        return "too late"

    mock_server.enqueue(
        {"chat_tool_calls": [{"id": "c1", "name": "slow", "arguments": {}}]},
        {"chat_text": "Moved on."})
    agent = hermes.Agent(model="mock-model", base_url=mock_server.base_url, api_key="sk-test",
                         home=str(tmp_path), persist_sessions=False,
                         tools=[(slow, {"name": "slow", "description": "Sleeps.",
                                        "parameters": {"type": "object", "properties": {}}})],
                         timeouts={"tool_call": 0.1})
    result = agent.run_conversation("go")
    tool_rows = [m for m in result["messages"] if m["role"] == "tool"]
    assert tool_rows[0]["content"] == "Error executing tool 'slow': timed out after 0.1s"
    assert result["final_response"] == "Moved on."
    assert not finished.is_set()
    del agent  # Waits for the overrunning call without holding the GIL.
    assert finished.is_set()
