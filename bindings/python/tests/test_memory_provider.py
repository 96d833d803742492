"""hermes.Agent(memory_provider=...): a memory backend written in Python."""
import gc
import json

import pytest

import hermes
from helpers import make_agent, reported_errors


class Teapot:
    """A provider with upstream's method names, recording every call."""

    name = "teapot"

    def __init__(self):
        self.calls = []

    def initialize(self, session_id, **kwargs):
        self.calls.append(("initialize", session_id, kwargs))

    def system_prompt_block(self):
        return "Long-term memory: the teapot store is connected."

    def prefetch(self, query, *, session_id=""):
        self.calls.append(("prefetch", query, session_id))
        return "The user prefers oolong tea."

    def sync_turn(self, user_content, assistant_content, *, session_id="", messages=None):
        self.calls.append(("sync_turn", user_content, assistant_content, session_id, messages))

    def on_session_switch(self, new_session_id, *, parent_session_id="", reset=False, **kwargs):
        self.calls.append(("on_session_switch", new_session_id, parent_session_id, reset))

    def on_pre_compress(self, messages):
        self.calls.append(("on_pre_compress", len(messages)))
        return "Remember: the user takes no sugar."

    def on_session_end(self, messages):
        self.calls.append(("on_session_end", len(messages)))

    def shutdown(self):
        self.calls.append(("shutdown",))

    def named(self, name):
        return [c for c in self.calls if c[0] == name]


def sent_request(server, index=-1):
    chat = [r for r in server.requests() if r["path"].endswith("/chat/completions")]
    return json.loads(chat[index]["body"])


def test_the_provider_recalls_before_the_turn_and_persists_after_it(mock_server, tmp_path):
    mock_server.enqueue({"chat_text": "Tea, as always."})
    teapot = Teapot()
    agent = make_agent(mock_server, tmp_path, persist_sessions=False, memory_provider=teapot)
    [(_, session_id, kwargs)] = teapot.named("initialize")
    assert session_id == agent.session_id
    assert kwargs["hermes_home"] == str(tmp_path)

    assert agent.chat("What do I like to drink?") == "Tea, as always."

    assert teapot.named("prefetch") == [("prefetch", "What do I like to drink?", session_id)]
    request = json.dumps(sent_request(mock_server))
    assert "The user prefers oolong tea." in request
    assert "the teapot store is connected" in request
    [(_, user, assistant, synced_session, messages)] = teapot.named("sync_turn")
    assert (user, assistant, synced_session) == ("What do I like to drink?", "Tea, as always.", session_id)
    assert [m["role"] for m in messages] == ["user", "assistant"]

    del agent
    gc.collect()
    assert teapot.named("on_session_end") == [("on_session_end", 2)]
    assert teapot.calls[-1] == ("shutdown",)


def test_compaction_asks_the_provider_what_to_keep_and_reports_the_new_session(mock_server, tmp_path):
    teapot = Teapot()
    agent = make_agent(mock_server, tmp_path, context_length=200000, protect_last_n=3,
                       memory_provider=teapot)
    for i in range(6):
        mock_server.enqueue({"chat_text": "Reply number %d." % i})
        agent.chat("Message number %d." % i)
    before = agent.session_id
    mock_server.enqueue({"chat_text": "## Active Task\nCounting messages.", "stream": False})

    assert agent.compress()["compacted"] is True

    assert len(teapot.named("on_pre_compress")) == 1
    # What the provider kept rides along after the summary.
    assert any("the user takes no sugar" in (m["content"] or "") for m in agent.history)
    assert teapot.named("on_session_switch") == [("on_session_switch", agent.session_id, before, False)]


def test_a_provider_that_raises_is_reported_and_the_turn_goes_on(mock_server, tmp_path):
    class Broken:
        name = "broken"

        def prefetch(self, query, **kwargs):
            raise RuntimeError("the vector store is down")

        def system_prompt_block(self):
            return 42

    mock_server.enqueue({"chat_text": "Fine anyway."})
    agent = make_agent(mock_server, tmp_path, persist_sessions=False, memory_provider=Broken())
    with reported_errors() as seen:
        assert agent.chat("hello") == "Fine anyway."
    reported = {context: str(error) for context, error in seen}
    assert "the vector store is down" in reported["hermes memory provider broken.prefetch"]
    assert "must return str" in reported["hermes memory provider broken.system_prompt_block"]


def test_an_object_without_provider_methods_is_refused(tmp_path):
    with pytest.raises(TypeError, match="memory_provider"):
        hermes.Agent(model="m", home=str(tmp_path), persist_sessions=False, memory_provider=object())


def test_a_write_of_the_memory_tool_reaches_the_provider(mock_server, tmp_path):
    mock_server.enqueue(
        {"chat_tool_calls": [{"id": "call_1", "name": "memory",
                              "arguments": {"action": "add", "target": "user",
                                            "content": "Takes oolong, no sugar."}}]},
        {"chat_text": "Noted."})
    writes = []

    class Mirror:
        name = "mirror"

        def on_memory_write(self, action, target, content):
            writes.append((action, target, content))

    agent = make_agent(mock_server, tmp_path, persist_sessions=False, memory_provider=Mirror())
    assert agent.chat("Remember how I take my tea.") == "Noted."
    assert writes == [("add", "user", "Takes oolong, no sugar.")]


def test_the_providers_tools_are_offered_and_run_by_it(mock_server, tmp_path):
    mock_server.enqueue(
        {"chat_tool_calls": [{"id": "call_1", "name": "recall", "arguments": {"topic": "tea"}}]},
        {"chat_text": "Oolong."})
    handled = []

    class Recaller:
        name = "recaller"

        def get_tool_schemas(self):
            return [{"name": "recall", "description": "Recalls what is known about a topic.",
                     "parameters": {"type": "object", "properties": {"topic": {"type": "string"}}}}]

        def handle_tool_call(self, tool_name, args, **kwargs):
            handled.append((tool_name, args))
            return json.dumps({"facts": ["prefers oolong"]})

    agent = make_agent(mock_server, tmp_path, persist_sessions=False, memory_provider=Recaller())
    assert agent.chat("What tea?") == "Oolong."
    assert handled == [("recall", {"topic": "tea"})]
    offered = [t["function"]["name"] for t in sent_request(mock_server, 0)["tools"]]
    assert "recall" in offered and "memory" in offered
    assert "prefers oolong" in sent_request(mock_server)["messages"][-1]["content"]


def test_a_provider_tool_may_not_replace_a_built_in_one(tmp_path):
    class Clashing:
        name = "clashing"

        def get_tool_schemas(self):
            return [{"name": "memory", "parameters": {"type": "object", "properties": {}}}]

        def handle_tool_call(self, tool_name, args, **kwargs):
            return "{}"

    with pytest.raises(ValueError, match="memory_provider"):
        hermes.Agent(model="m", home=str(tmp_path), persist_sessions=False, memory_provider=Clashing())
