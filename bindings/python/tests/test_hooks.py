"""Plugin hooks written in Python: hermes.Agent(hooks=[...])."""
import json

import pytest

import hermes
from helpers import make_agent, reported_errors, tool_results


def echo_tool():
    return hermes.Tool(lambda args: args["text"], name="echo")


class Recorder:
    """Observes every hook point it knows and changes nothing."""

    def __init__(self):
        self.seen = []

    def pre_llm_call(self, session_id, user_message, **kwargs):
        self.seen.append(("pre_llm_call", user_message))

    def pre_api_request(self, request, **kwargs):
        self.seen.append(("pre_api_request", request["model"]))

    def post_api_request(self, request, response, **kwargs):
        self.seen.append(("post_api_request", response["message"]["role"]))

    def pre_tool_call(self, tool_name, args, **kwargs):
        self.seen.append(("pre_tool_call", tool_name, args))

    def post_tool_call(self, tool_name, args, result, duration_ms, is_error, **kwargs):
        self.seen.append(("post_tool_call", tool_name, result, is_error))

    def transform_llm_output(self, response_text, **kwargs):
        self.seen.append(("transform_llm_output", response_text))

    def post_llm_call(self, user_message, assistant_response, **kwargs):
        self.seen.append(("post_llm_call", user_message, assistant_response))

    def on_session_end(self, session_id, messages, **kwargs):
        self.seen.append(("on_session_end", [m["role"] for m in messages]))


def test_every_hook_point_of_a_tool_turn_is_called_in_order(mock_server, tmp_path):
    mock_server.enqueue(
        {"chat_tool_calls": [{"name": "echo", "arguments": {"text": "hi"}}]},
        {"chat_text": "Done."},
    )
    recorder = Recorder()
    agent = make_agent(mock_server, tmp_path, tools=[echo_tool()], hooks=[recorder])
    assert agent.chat("echo hi") == "Done."
    names = [event[0] for event in recorder.seen]
    assert names == ["pre_llm_call", "pre_api_request", "post_api_request", "pre_tool_call",
                     "post_tool_call", "pre_api_request", "post_api_request",
                     "transform_llm_output", "post_llm_call", "on_session_end"]
    assert recorder.seen[0] == ("pre_llm_call", "echo hi")
    assert recorder.seen[1] == ("pre_api_request", "mock-model")
    assert recorder.seen[3] == ("pre_tool_call", "echo", {"text": "hi"})
    assert recorder.seen[4] == ("post_tool_call", "echo", "hi", False)
    assert recorder.seen[8] == ("post_llm_call", "echo hi", "Done.")
    assert recorder.seen[9] == ("on_session_end", ["user", "assistant", "tool", "assistant"])


def test_pre_llm_call_context_reaches_the_model_but_not_the_transcript(mock_server, tmp_path):
    mock_server.enqueue({"chat_text": "Noted."})

    class Context:
        def pre_llm_call(self, **kwargs):
            return "The user is in Lisbon."

    agent = make_agent(mock_server, tmp_path, hooks=[Context()])
    result = agent.run_conversation("Where am I?")
    sent = json.loads(mock_server.requests()[-1]["body"])["messages"][-1]["content"]
    assert sent.startswith("Where am I?")
    assert "The user is in Lisbon." in sent
    assert result["messages"][0]["content"] == "Where am I?"


def test_pre_tool_call_can_block_a_call_or_rewrite_its_arguments(mock_server, tmp_path):
    mock_server.enqueue(
        {"chat_tool_calls": [{"name": "echo", "arguments": {"text": "secret"}},
                             {"name": "echo", "arguments": {"text": "loud"}}]},
        {"chat_text": "Done."},
    )

    class Policy:
        def pre_tool_call(self, tool_name, args, **kwargs):
            if args["text"] == "secret":
                return {"action": "block", "message": "echoing secrets is not allowed"}
            return {"args": {"text": args["text"].upper()}}

    agent = make_agent(mock_server, tmp_path, tools=[echo_tool()], hooks=[Policy()])
    results = tool_results(agent.run_conversation("echo twice"))
    assert json.loads(results[0]) == {"error": "echoing secrets is not allowed"}
    assert results[1] == "LOUD"


def test_transform_hooks_rewrite_tool_results_and_the_final_answer(mock_server, tmp_path):
    mock_server.enqueue(
        {"chat_tool_calls": [{"name": "echo", "arguments": {"text": "hi"}}]},
        {"chat_text": "Done."},
    )

    class Rewriter:
        def transform_tool_result(self, tool_name, args, result, **kwargs):
            return "[" + result + "]"

        def transform_llm_output(self, response_text, **kwargs):
            return response_text + " (checked)"

    agent = make_agent(mock_server, tmp_path, tools=[echo_tool()], hooks=[Rewriter()])
    result = agent.run_conversation("echo hi")
    assert tool_results(result) == ["[hi]"]
    assert result["final_response"] == "Done. (checked)"


def test_a_hook_that_raises_is_reported_and_the_turn_goes_on(mock_server, tmp_path):
    mock_server.enqueue({"chat_text": "Still fine."})

    class Broken:
        def pre_llm_call(self, **kwargs):
            raise ValueError("plugin bug")

        def post_llm_call(self, only_this):  # Wrong signature: a TypeError when called.
            pass

    with reported_errors() as seen:
        agent = make_agent(mock_server, tmp_path, hooks=[Broken()])
        assert agent.chat("hello") == "Still fine."
    errors = [type(exc) for _, exc in seen]
    assert ValueError in errors
    assert TypeError in errors
    assert any("pre_llm_call" in context for context, _ in seen)


def test_hooks_that_are_not_plugins_are_refused(mock_server, tmp_path):
    with pytest.raises(TypeError, match="hooks"):
        make_agent(mock_server, tmp_path, hooks="pre_llm_call")
    with pytest.raises(TypeError, match="no hook method"):
        make_agent(mock_server, tmp_path, hooks=[object()])
