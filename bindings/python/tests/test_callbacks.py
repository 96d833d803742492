"""The callbacks a turn calls: reasoning, steps, clarifying questions and approvals."""
import json

import pytest

import hermes
from helpers import make_agent, reported_errors, tool_results


def test_reasoning_callback_receives_the_reasoning_summary(mock_server, tmp_path):
    mock_server.enqueue({"responses_text": "Forty-two.", "stream": True,
                         "reasoning": {"summary": "Think about the question first."}})
    pieces = []
    agent = make_agent(mock_server, tmp_path, api_mode="codex_responses",
                       reasoning_callback=pieces.append)
    assert agent.chat("What is the answer?") == "Forty-two."
    assert "".join(pieces) == "Think about the question first."


def test_step_callback_sees_each_iteration_with_the_previous_tools(mock_server, tmp_path):
    mock_server.enqueue(
        {"chat_tool_calls": [{"name": "echo", "arguments": {"text": "hi"}}]},
        {"chat_text": "Done."},
    )
    steps = []
    agent = make_agent(mock_server, tmp_path,
                       tools=[hermes.Tool(lambda args: args["text"], name="echo")],
                       step_callback=lambda count, tools: steps.append((count, tools)))
    assert agent.chat("echo hi") == "Done."
    assert [count for count, _ in steps] == [1, 2]
    assert steps[0][1] == []
    assert [t["name"] for t in steps[1][1]] == ["echo"]
    assert steps[1][1][0]["result"] == "hi"


def test_clarify_callback_answers_the_models_question(mock_server, tmp_path):
    mock_server.enqueue(
        {"chat_tool_calls": [{"name": "clarify",
                              "arguments": {"question": "Which colour?", "choices": ["red", "blue"]}}]},
        {"chat_text": "Blue it is."},
    )
    asked = []

    def clarify(question, choices):
        asked.append((question, choices))
        return "blue"

    agent = make_agent(mock_server, tmp_path, clarify_callback=clarify)
    result = agent.run_conversation("Paint it.")
    assert result["final_response"] == "Blue it is."
    assert asked[0][0] == "Which colour?"
    assert [c.split(" ")[0] for c in asked[0][1]] == ["red", "blue"]
    assert json.loads(tool_results(result)[0])["user_response"] == "blue"


@pytest.mark.parametrize("clarify, error", [(lambda q, c: None, None),
                                             (lambda q, c: 1 / 0, ZeroDivisionError),
                                             (lambda q, c: 42, TypeError)],
                         ids=["none", "raises", "not-a-string"])
def test_a_clarify_callback_without_an_answer_counts_as_no_answer(mock_server, tmp_path, clarify, error):
    mock_server.enqueue(
        {"chat_tool_calls": [{"name": "clarify", "arguments": {"question": "Which colour?"}}]},
        {"chat_text": "I will pick one myself."},
    )
    agent = make_agent(mock_server, tmp_path, clarify_callback=clarify)
    with reported_errors() as errors:
        result = agent.run_conversation("Paint it.")
    assert [type(e) for _, e in errors] == ([error] if error else [])
    assert result["completed"] is True
    answer = json.loads(tool_results(result)[0])["user_response"]
    assert "blue" not in answer and "red" not in answer
    assert answer != ""


def dangerous_delete(agent_dir):
    victim = agent_dir / "victim"
    victim.mkdir()
    (victim / "file.txt").write_text("precious")
    return victim, {"chat_tool_calls": [{"name": "terminal",
                                         "arguments": {"command": "rm -rf %s" % victim}}]}


def approval_agent(server, tmp_path, approval):
    return make_agent(server, tmp_path, enabled_toolsets=["terminal"], approval_callback=approval)


def test_an_approved_dangerous_command_runs_once(mock_server, tmp_path):
    victim, call = dangerous_delete(tmp_path)
    mock_server.enqueue(call, {"chat_text": "Deleted."})
    requests = []

    def approve(command, description):
        requests.append((command, description))
        return "once"

    result = approval_agent(mock_server, tmp_path, approve).run_conversation("Clean up.")
    assert result["final_response"] == "Deleted."
    assert requests and requests[0][0] == "rm -rf %s" % victim
    assert requests[0][1]
    assert not victim.exists()


@pytest.mark.parametrize("approval, error", [(lambda c, d: "deny", None),
                                              (lambda c, d: 1 / 0, ZeroDivisionError),
                                              (lambda c, d: "yes please", ValueError),
                                              (lambda c, d: None, TypeError)],
                         ids=["deny", "raises", "unknown-answer", "none"])
def test_anything_but_an_approval_denies_the_command(mock_server, tmp_path, approval, error):
    victim, call = dangerous_delete(tmp_path)
    mock_server.enqueue(call, {"chat_text": "I was not allowed."})
    with reported_errors() as errors:
        result = approval_agent(mock_server, tmp_path, approval).run_conversation("Clean up.")
    assert [type(e) for _, e in errors] == ([error] if error else [])
    assert result["completed"] is True
    assert victim.exists()
    assert "BLOCKED" in tool_results(result)[0] or "denied" in tool_results(result)[0].lower()


def test_ask_mode_asks_about_a_harmless_command_and_a_denial_keeps_it_from_running(mock_server, tmp_path):
    marker = tmp_path / "ran.marker"
    mock_server.enqueue({"chat_tool_calls": [{"name": "terminal",
                                              "arguments": {"command": "touch %s" % marker}}]},
                        {"chat_text": "Not allowed."})
    asked = []

    def deny(command, description):
        asked.append((command, description))
        return "deny"

    # The marker lies outside the hermes home: writes into the home are dangerous anyway.
    agent = make_agent(mock_server, tmp_path, home=str(tmp_path / "home"), enabled_toolsets=["terminal"],
                       approval_mode="ask", approval_timeout=30, approval_callback=deny)
    result = agent.run_conversation("Touch it.")
    assert result["completed"] is True
    assert asked == [("touch %s" % marker, "every command needs approval (ask mode)")]
    assert not marker.exists()


def test_allowlist_mode_runs_listed_programs_without_asking(mock_server, tmp_path):
    mock_server.enqueue({"chat_tool_calls": [{"name": "terminal", "arguments": {"command": "echo listed"}}]},
                        {"chat_tool_calls": [{"name": "terminal", "arguments": {"command": "id"}}]},
                        {"chat_text": "Done."})
    asked = []
    agent = make_agent(mock_server, tmp_path, enabled_toolsets=["terminal"], approval_mode="allowlist",
                       allowed_commands=["echo"],
                       approval_callback=lambda c, d: asked.append((c, d)) or "deny")
    result = agent.run_conversation("Go.")
    assert "listed" in tool_results(result)[0]
    assert asked == [("id", "command not on the allow-list (id)")]


def test_an_unknown_approval_mode_is_refused(tmp_path):
    with pytest.raises(ValueError, match="approval_mode"):
        hermes.Agent(model="m", home=str(tmp_path), persist_sessions=False, approval_mode="yolo")


def test_an_exception_in_any_callback_never_reaches_the_turn(mock_server, tmp_path):
    mock_server.enqueue(
        {"chat_error": {"status": 500, "message": "a retry makes a status notice"}},
        {"chat_tool_calls": [{"name": "echo", "arguments": {"text": "hi"}}], "stream": True},
        {"chat_text": "Still fine.", "stream": True},
    )

    def boom(*args):
        raise RuntimeError("callback bug")

    agent = make_agent(mock_server, tmp_path,
                       tools=[hermes.Tool(lambda args: args["text"], name="echo")],
                       stream_callback=boom, reasoning_callback=boom, tool_progress_callback=boom,
                       status_callback=boom, step_callback=boom)
    with reported_errors() as errors:
        assert agent.chat("echo hi") == "Still fine."
    reported = {context for context, _ in errors}
    assert {"hermes stream_callback", "hermes tool_progress_callback", "hermes step_callback",
            "hermes status_callback"} <= {c.replace("Exception ignored in: ", "") for c in reported}
    assert all(isinstance(e, RuntimeError) for _, e in errors)


def test_a_callback_that_is_not_callable_is_refused(tmp_path):
    with pytest.raises(TypeError, match="approval_callback"):
        hermes.Agent(model="m", home=str(tmp_path), persist_sessions=False, approval_callback="yes")


def test_an_unknown_keyword_is_refused(tmp_path):
    with pytest.raises(TypeError, match="unexpected keyword argument 'temprature'"):
        hermes.Agent(model="m", home=str(tmp_path), persist_sessions=False, temprature=0.2)


def test_auth_refresh_callback_hands_out_a_fresh_credential(mock_server, tmp_path):
    mock_server.enqueue({"chat_error": {"status": 401, "message": "Token expired"}},
                        {"chat_text": "Signed in."})
    asked = []

    def refresh(request):
        asked.append(request)
        return "sk-fresh"

    agent = make_agent(mock_server, tmp_path, persist_sessions=False, auth_refresh_callback=refresh)
    assert agent.chat("hello") == "Signed in."
    assert len(asked) == 1
    assert asked[0]["http_status"] == 401
    assert asked[0]["model"] == "mock-model"
    keys = [r["headers"].get("authorization") for r in mock_server.requests()
            if r["path"].endswith("/chat/completions")]
    assert keys == ["Bearer sk-test", "Bearer sk-fresh"]
