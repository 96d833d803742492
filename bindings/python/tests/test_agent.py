"""hermes.Agent against the loopback mock server over real HTTP."""
import json
import threading

import pytest

import hermes

# The waits between retries are not what these tests are about.
NO_WAIT = {"base": 0, "max": 0}

ADD_SCHEMA = {
    "name": "add",
    "description": "Add two numbers.",
    "parameters": {
        "type": "object",
        "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
        "required": ["a", "b"],
    },
}


def tool_results(result):
    return [m["content"] for m in result["messages"] if m["role"] == "tool"]


def make_agent(server, tmp_path, **kwargs):
    kwargs.setdefault("home", str(tmp_path))
    return hermes.Agent(model="mock-model", base_url=server.base_url, api_key="sk-test", **kwargs)


def test_two_step_tool_conversation(mock_server, tmp_path):
    calls = []

    def add(args):
        calls.append(args)
        return {"sum": args["a"] + args["b"]}

    mock_server.enqueue(
        {"chat_tool_calls": [{"id": "call_1", "name": "add", "arguments": {"a": 2, "b": 40}}], "stream": True},
        {"chat_text": "The sum is 42.", "stream": True},
    )
    agent = make_agent(mock_server, tmp_path, tools=[(add, ADD_SCHEMA)])
    result = agent.run_conversation("What is 2 + 40?")

    assert result["completed"] is True
    assert result["final_response"] == "The sum is 42."
    assert result["api_calls"] == 2
    assert result["exit_reason"] == "text_response(finish_reason=stop)"
    assert result["session_id"] == agent.session_id
    assert calls == [{"a": 2, "b": 40}]
    roles = [m["role"] for m in result["messages"]]
    assert roles == ["user", "assistant", "tool", "assistant"]
    assert result["messages"][2]["content"] == '{"sum":42}'

    sent = mock_server.requests()
    assert len(sent) == 2
    second = sent[1]["body"]
    assert '"tool_call_id":"call_1"' in second.replace(" ", "")
    assert sent[0]["headers"]["authorization"] == "Bearer sk-test"


def test_python_tool_exception_becomes_error_result(mock_server, tmp_path):
    def broken(args):
        raise ValueError("no such thing")

    mock_server.enqueue(
        {"chat_tool_calls": [{"name": "broken", "arguments": {}}], "stream": False},
        {"chat_text": "It failed, sorry.", "stream": False},
    )
    agent = make_agent(mock_server, tmp_path, tools=[hermes.Tool(broken, name="broken")])
    result = agent.run_conversation("try it")
    assert result["completed"] is True
    tool_row = [m for m in result["messages"] if m["role"] == "tool"][0]
    assert "ValueError: no such thing" in tool_row["content"]


def test_chat_keeps_history_and_session_is_resumable(mock_server, tmp_path):
    mock_server.enqueue({"chat_text": "Noted: blue."}, {"chat_text": "Your favourite colour is blue."})
    agent = make_agent(mock_server, tmp_path)
    assert agent.chat("My favourite colour is blue.") == "Noted: blue."
    session = agent.session_id

    resumed = make_agent(mock_server, tmp_path, session_id=session)
    assert [m["content"] for m in resumed.history] == ["My favourite colour is blue.", "Noted: blue."]
    assert resumed.chat("What is my favourite colour?") == "Your favourite colour is blue."
    last_request = mock_server.requests()[-1]["body"]
    assert "My favourite colour is blue." in last_request


def test_failed_turn_raises_and_keeps_the_user_message(mock_server, tmp_path):
    for _ in range(3):
        mock_server.enqueue({"chat_error": {"status": 500, "message": "upstream exploded"}})
    agent = make_agent(mock_server, tmp_path, max_retries=3, retry_backoff=NO_WAIT)
    with pytest.raises(hermes.HermesError) as excinfo:
        agent.chat("hello")
    assert "upstream exploded" in str(excinfo.value)
    assert agent.history[-1]["content"] == "hello"


def test_bad_options_raise_invalid_argument(tmp_path):
    with pytest.raises(hermes.InvalidArgumentError) as excinfo:
        hermes.Agent(model="", home=str(tmp_path), persist_sessions=False)
    assert "model" in str(excinfo.value)
    with pytest.raises(hermes.InvalidArgumentError):
        hermes.Agent(model="m", base_url="ftp//nope", home=str(tmp_path), persist_sessions=False)
    # A bad argument is a ValueError however it was found, as in Python itself.
    assert issubclass(hermes.InvalidArgumentError, ValueError)
    assert issubclass(hermes.InvalidArgumentError, hermes.HermesError)
    with pytest.raises(ValueError, match="model"):
        hermes.Agent(model="", home=str(tmp_path), persist_sessions=False)
    with pytest.raises(TypeError):
        hermes.Agent(model="m", tools=[42], home=str(tmp_path), persist_sessions=False)


def test_streaming_callback_receives_text(mock_server, tmp_path):
    mock_server.enqueue({"chat_text": "one two three", "stream": True})
    pieces = []
    agent = make_agent(mock_server, tmp_path, stream_callback=pieces.append)
    assert agent.chat("count") == "one two three"
    assert "".join(pieces) == "one two three"


def test_interrupt_from_another_thread(mock_server, tmp_path):
    started = threading.Event()

    def slow(args):
        started.set()
        import time
        time.sleep(0.5)
        return "done"

    mock_server.enqueue(
        {"chat_tool_calls": [{"name": "slow", "arguments": {}}]},
        {"chat_text": "never"},
    )
    agent = make_agent(mock_server, tmp_path, tools=[hermes.Tool(slow, name="slow")])
    threading.Thread(target=lambda: (started.wait(5), agent.interrupt("stop"))).start()
    result = agent.run_conversation("go")
    assert result["interrupted"] is True
    assert result["completed"] is False
    assert result["interrupt_message"] == "stop"


def test_a_second_key_takes_over_after_repeated_rate_limits(mock_server, tmp_path):
    limited = {"chat_error": {"status": 429, "message": "Rate limit reached", "code": "rate_limit_exceeded"}}
    mock_server.enqueue(limited, limited, {"chat_text": "Answered with the second key.", "stream": True})
    agent = hermes.Agent(model="mock-model", base_url=mock_server.base_url,
                         api_key=["sk-first", "sk-second"], home=str(tmp_path), max_retries=3,
                         retry_backoff=NO_WAIT)
    assert agent.chat("hello") == "Answered with the second key."
    keys = [r["headers"]["authorization"] for r in mock_server.requests()]
    assert keys[0] == "Bearer sk-first"
    assert keys[-1] == "Bearer sk-second"


def test_a_fallback_provider_answers_when_the_primary_keeps_failing(mock_server, tmp_path):
    broken = {"chat_error": {"status": 500, "message": "internal error"}}
    mock_server.enqueue(broken, broken, {"chat_text": "The fallback answered.", "stream": True})
    agent = make_agent(mock_server, tmp_path, max_retries=2, retry_backoff=NO_WAIT, fallback_providers=[
        {"model": "backup-model", "base_url": mock_server.base_url, "api_key": "sk-backup"}])
    assert agent.chat("hello") == "The fallback answered."
    sent = mock_server.requests()
    assert [json.loads(r["body"])["model"] for r in sent] == ["mock-model", "mock-model", "backup-model"]
    assert sent[-1]["headers"]["authorization"] == "Bearer sk-backup"


def test_a_fallback_entry_without_a_model_is_refused(mock_server, tmp_path):
    with pytest.raises(ValueError, match="model"):
        make_agent(mock_server, tmp_path, fallback_providers=[{"base_url": mock_server.base_url}])


def test_context_dir_brings_the_projects_agents_md(mock_server, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "AGENTS.md").write_text("Answer in haiku. 俳句", encoding="utf-8")
    mock_server.enqueue({"chat_text": "Done.", "stream": True}, {"chat_text": "Done.", "stream": True})

    with_files = make_agent(mock_server, tmp_path, context_dir=project)
    with_files.chat("hello")
    assert "## AGENTS.md\n\nAnswer in haiku. 俳句" in with_files.system_prompt

    without = make_agent(mock_server, tmp_path)
    without.chat("hello")
    assert "# Project Context" not in without.system_prompt


def test_source_picks_the_platform_hint_and_the_host_may_bring_its_own(mock_server, tmp_path):
    def prompt_for(**kwargs):
        mock_server.enqueue({"chat_text": "ok"})
        agent = make_agent(mock_server, tmp_path, persist_sessions=False, **kwargs)
        agent.chat("hi")
        return agent.system_prompt

    assert "on Telegram" not in prompt_for()
    telegram = prompt_for(source="telegram")
    assert "on Telegram" in telegram and "Platform: telegram" in telegram
    own = prompt_for(source="telegram", platform_hint="Answers go to a braille display.")
    assert "Answers go to a braille display." in own and "on Telegram" not in own
    with pytest.raises(TypeError, match="platform_hint"):
        hermes.Agent(model="m", platform_hint=3)


def test_tool_use_enforcement_follows_the_model_family_unless_set(mock_server, tmp_path):
    def prompt_for(**kwargs):
        mock_server.enqueue({"chat_text": "ok"})
        agent = hermes.Agent(model="gpt-4.1-mini", base_url=mock_server.base_url, api_key="sk-test",
                             home=str(tmp_path), persist_sessions=False, context_length=128000, **kwargs)
        agent.chat("hi")
        return agent.system_prompt

    assert "# Act, do not narrate" in prompt_for()
    assert "# Act, do not narrate" not in prompt_for(tool_use_enforcement=False)
    with pytest.raises(TypeError, match="tool_use_enforcement"):
        hermes.Agent(model="m", tool_use_enforcement="yes")


def test_memory_limits_reach_the_memory_tool(mock_server, tmp_path):
    mock_server.enqueue(
        {"chat_tool_calls": [{"id": "m1", "name": "memory",
                              "arguments": {"action": "add", "target": "memory", "content": "x" * 80}}]},
        {"chat_text": "Could not save."})
    agent = make_agent(mock_server, tmp_path, memory_char_limit=50, persist_sessions=False,
                       background_review=False)
    result = agent.run_conversation("Remember a long thing.")
    tool_rows = [m for m in result["messages"] if m["role"] == "tool"]
    assert "50" in tool_rows[0]["content"] and "error" in tool_rows[0]["content"].lower()
    assert not (tmp_path / "memories" / "MEMORY.md").exists() or \
        "x" * 80 not in (tmp_path / "memories" / "MEMORY.md").read_text()


@pytest.mark.parametrize("passthrough, expected", [
    (None, "probe:[][]"),
    (["HERMES_PROBE_TOKEN"], "probe:[][passed-value]"),
])
def test_terminal_commands_get_secrets_only_when_passed_through(mock_server, tmp_path, monkeypatch,
                                                                passthrough, expected):
    monkeypatch.setenv("HERMES_PROBE_API_KEY", "hidden-value")
    monkeypatch.setenv("HERMES_PROBE_TOKEN", "passed-value")
    mock_server.enqueue(
        {"chat_tool_calls": [{"id": "t1", "name": "terminal", "arguments": {
            "command": "echo probe:[$HERMES_PROBE_API_KEY][$HERMES_PROBE_TOKEN]"}}]},
        {"chat_text": "Done."})
    agent = make_agent(mock_server, tmp_path, enabled_toolsets=["terminal"],
                       env_passthrough=passthrough, persist_sessions=False,
                       background_review=False)
    output = json.loads(tool_results(agent.run_conversation("Probe."))[0])["output"]
    assert output == expected
    assert "hidden-value" not in output


@pytest.mark.parametrize("kwargs, name", [
    ({"max_tool_workers": 0}, "max_tool_workers"),
    ({"review_max_iterations": 0}, "review_max_iterations"),
    ({"memory_char_limit": 0}, "memory_char_limit"),
    ({"user_char_limit": -5}, "user_char_limit"),
    ({"idle_compact_after_seconds": -1.0}, "idle_compact_after_seconds"),
])
def test_out_of_range_loop_and_memory_settings_are_refused_by_name(kwargs, name):
    with pytest.raises(ValueError, match=name):
        hermes.Agent(model="m", **kwargs)


def test_loop_compaction_and_review_settings_are_accepted(tmp_path):
    hermes.Agent(model="m", home=str(tmp_path), max_tool_workers=2, compress_in_place=True,
                 idle_compact_after_seconds=300, review_max_iterations=4,
                 memory_char_limit=4000, user_char_limit=2000)
