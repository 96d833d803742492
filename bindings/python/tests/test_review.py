"""The background review: after a turn the agent saves what it learned, over real HTTP."""
import json
import threading

from helpers import make_agent


def chat_requests(server):
    return [r for r in server.requests() if r["path"].endswith("/chat/completions")]


def test_a_memory_review_saves_what_the_user_said_for_the_next_session(mock_server, tmp_path):
    mock_server.enqueue(
        {"chat_text": "Noted, tea it is."},
        # The review: one memory write, then its closing words.
        {"chat_tool_calls": [{"name": "memory", "arguments": {
            "action": "add", "target": "user", "content": "Prefers tea to coffee."}}]},
        {"chat_text": "Saved."},
    )
    reviewed = threading.Event()
    reports = []

    def on_status(kind, message):
        if kind == "review":
            reports.append(message)
            reviewed.set()

    agent = make_agent(mock_server, tmp_path, memory_nudge_interval=1, skill_nudge_interval=0,
                       status_callback=on_status)
    assert agent.chat("I always drink tea, never coffee.") == "Noted, tea it is."
    assert reviewed.wait(30), "the review never reported"
    assert "User profile updated" in reports[0]
    assert "Prefers tea to coffee." in (tmp_path / "memories" / "USER.md").read_text()

    mock_server.enqueue({"chat_text": "Tea, then."})
    fresh = make_agent(mock_server, tmp_path, background_review=False)
    assert fresh.chat("What should I drink?") == "Tea, then."
    system = json.loads(chat_requests(mock_server)[-1]["body"])["messages"][0]["content"]
    assert "Prefers tea to coffee." in system


def test_no_review_runs_when_switched_off(mock_server, tmp_path):
    mock_server.enqueue({"chat_text": "Fine."})
    agent = make_agent(mock_server, tmp_path, background_review=False, memory_nudge_interval=1)
    assert agent.chat("I like tea.") == "Fine."
    del agent  # Joins anything still running.
    assert len(chat_requests(mock_server)) == 1
