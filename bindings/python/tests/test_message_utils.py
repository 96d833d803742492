"""The transcript repairs, on OpenAI-format message lists."""
import json

import pytest

import hermes

STUB = "[Result unavailable \u2014 see context summary above]"


def call(call_id, name="add", arguments='{"b": 1, "a": 2}'):
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def test_sanitize_stubs_missing_results_sorts_arguments_and_strips_text():
    messages = [
        {"role": "user", "content": "  add them  "},
        {"role": "assistant", "content": "", "tool_calls": [call("c1")]},
    ]
    out = hermes.sanitize_api_messages(messages)
    assert out[0]["content"] == "add them"
    assert json.loads(out[1]["tool_calls"][0]["function"]["arguments"]) == {"a": 2, "b": 1}
    assert out[1]["tool_calls"][0]["function"]["arguments"] == '{"a":2,"b":1}'
    assert out[2] == {"role": "tool", "tool_call_id": "c1", "content": STUB} or (
        out[2]["role"] == "tool" and out[2]["tool_call_id"] == "c1" and out[2]["content"] == STUB)
    assert messages[0]["content"] == "  add them  "  # The caller's list is left alone.


def test_repair_drops_orphan_results_and_merges_user_texts():
    messages = [
        {"role": "user", "content": "one"},
        {"role": "tool", "tool_call_id": "nobody", "content": "lost"},
        {"role": "user", "content": "two"},
    ]
    out = hermes.repair_message_sequence(messages)
    assert [m["role"] for m in out] == ["user"]
    assert out[0]["content"] == "one\n\ntwo"


def test_thinking_only_turns_are_recognised_and_dropped():
    thinking = {"role": "assistant", "content": "<think>Maybe.</think>"}
    assert hermes.is_thinking_only_assistant(thinking) is True
    assert hermes.is_thinking_only_assistant({"role": "assistant", "content": "Yes."}) is False
    out = hermes.drop_thinking_only_and_merge_users(
        [{"role": "user", "content": "a"}, thinking, {"role": "user", "content": "b"}])
    assert len(out) == 1 and out[0]["role"] == "user"
    assert "a" in out[0]["content"] and "b" in out[0]["content"]


def test_text_and_name_helpers():
    assert hermes.sanitize_surrogates("ok \ud800 end") == "ok \ufffd end"
    assert hermes.coerce_tool_name("ReadFileTool", ["read_file", "write_file"]) == "read_file"
    assert hermes.coerce_tool_name("todo", ["todo_list"]) == "todo_list"
    assert hermes.coerce_tool_name("launch_rockets", ["read_file"]) is None
    assert hermes.normalize_finish_reason("end_turn") == "stop"
    assert hermes.normalize_finish_reason("max_tokens") == "length"


@pytest.mark.parametrize("bad", ["not a list", [42], [{"content": "no role"}]])
def test_what_is_not_a_message_list_raises_a_clear_error(bad):
    with pytest.raises((hermes.HermesError, TypeError, ValueError)) as excinfo:
        hermes.sanitize_api_messages(bad)
    assert str(excinfo.value)
