"""hermes.SessionStore: search, list, load and delete stored sessions."""
import pytest

import hermes
from helpers import make_agent


def test_a_shared_store_sees_every_agents_sessions(mock_server, tmp_path):
    store = hermes.SessionStore(str(tmp_path / "shared.db"))
    mock_server.enqueue({"chat_text": "Paris is the capital of France."},
                        {"chat_text": "Rome is the capital of Italy."})
    first = make_agent(mock_server, tmp_path, session_store=store)
    second = make_agent(mock_server, tmp_path, session_store=store)
    first.chat("What is the capital of France?")
    second.chat("What is the capital of Italy?")

    sessions = store.list()
    assert {s["id"] for s in sessions} == {first.session_id, second.session_id}
    assert all(s["message_count"] == 2 for s in sessions)
    assert store.get(first.session_id)["model"] == "mock-model"

    hits = store.search("capital France")
    assert hits and hits[0]["session_id"] == first.session_id
    assert ">>>" in hits[0]["snippet"]
    assert set(hits[0]) >= {"session_id", "message_id", "role", "snippet", "timestamp", "rank"}

    messages = store.load(second.session_id)
    assert [(m["role"], m["content"]) for m in messages] == [
        ("user", "What is the capital of Italy?"), ("assistant", "Rome is the capital of Italy.")]


def test_limits_cap_the_results(mock_server, tmp_path):
    store = hermes.SessionStore(":memory:")
    for i in range(3):
        mock_server.enqueue({"chat_text": "answer about llamas %d" % i})
        make_agent(mock_server, tmp_path, session_store=store).chat("tell me about llamas")
    assert len(store.list(limit=2)) == 2
    assert len(store.search("llamas", limit=1)) == 1
    assert len(store.search("llamas")) == 6


def test_load_and_delete_of_an_unknown_session_raise_not_found(tmp_path):
    store = hermes.SessionStore(str(tmp_path / "state.db"))
    with pytest.raises(hermes.NotFoundError):
        store.load("no-such-session")
    with pytest.raises(hermes.NotFoundError):
        store.delete("no-such-session")
    with pytest.raises(hermes.NotFoundError):
        store.get("no-such-session")


def test_delete_removes_the_session_and_its_messages(mock_server, tmp_path):
    store = hermes.SessionStore(str(tmp_path / "state.db"))
    mock_server.enqueue({"chat_text": "Remember the zebra."})
    agent = make_agent(mock_server, tmp_path, session_store=store)
    agent.chat("zebra")
    store.delete(agent.session_id)
    assert store.list() == []
    assert store.search("zebra") == []
    with pytest.raises(hermes.NotFoundError):
        store.load(agent.session_id)


def test_a_store_persists_across_opens(mock_server, tmp_path):
    path = tmp_path / "state.db"
    mock_server.enqueue({"chat_text": "Kept."})
    agent = make_agent(mock_server, tmp_path, session_store=hermes.SessionStore(path))
    agent.chat("keep this")
    reopened = hermes.SessionStore(path)
    assert reopened.path == str(path)
    assert [m["content"] for m in reopened.load(agent.session_id)] == ["keep this", "Kept."]


def test_a_file_that_is_not_a_database_is_refused(tmp_path):
    path = tmp_path / "garbage.db"
    path.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(hermes.HermesError):
        hermes.SessionStore(str(path))


def test_session_store_must_be_a_session_store(tmp_path):
    with pytest.raises(TypeError, match="session_store"):
        hermes.Agent(model="m", home=str(tmp_path), session_store="state.db")
