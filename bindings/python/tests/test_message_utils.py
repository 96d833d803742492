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


@pytest.mark.parametrize("bad,names", [
    ("not a list", "messages"),
    ([{"role": "user", "content": "ok"}, 42], "messages[1]"),
    ([{"role": "user", "content": 5}], "messages[0].content"),
    ([{"role": "assistant", "tool_calls": "x"}], "messages[0].tool_calls"),
])
def test_what_cannot_be_read_raises_an_error_naming_index_and_field(bad, names):
    for helper in (hermes.sanitize_api_messages, hermes.repair_message_sequence,
                   hermes.drop_thinking_only_and_merge_users):
        with pytest.raises(hermes.HermesError) as excinfo:
            helper(bad)
        assert names in str(excinfo.value)


HELPERS = (hermes.sanitize_api_messages, hermes.repair_message_sequence,
           hermes.drop_thinking_only_and_merge_users)


def test_unknown_internal_and_missing_roles_are_dropped():
    messages = [
        {"role": "system", "content": "be brief"},
        {"role": "session_meta", "content": "host bookkeeping"},
        {"content": "no role"},
        {"role": None, "content": "null role"},
        {"role": "user", "content": "hi"},
        {"role": "tool", "content": "result without an id"},
        {"role": "assistant", "content": "hello"},
    ]
    for helper in HELPERS:
        assert [m["role"] for m in helper(messages)] == ["system", "user", "assistant"], helper


def test_empty_whitespace_and_null_user_messages_are_removed():
    messages = [
        {"role": "user", "content": "first"},
        {"role": "user", "content": ""},
        {"role": "assistant", "content": "ok"},
        {"role": "user", "content": "  \t"},
        {"role": "user", "content": None},
        {"role": "user"},
        {"role": "user", "content": "second"},
    ]
    for helper in HELPERS:
        out = helper(messages)
        assert [m.get("content") for m in out] == ["first", "ok", "second"], helper


def test_text_next_to_content_parts_merges_into_parts():
    image = {"type": "image_url", "image_url": {"url": "https://x/y.png"}}
    messages = [{"role": "user", "content": "look"}, {"role": "user", "content": [image]},
                {"role": "user", "content": "and this"}]
    for helper in HELPERS:
        out = helper(messages)
        assert len(out) == 1
        assert out[0]["content"] == [{"type": "text", "text": "look"}, image,
                                     {"type": "text", "text": "and this"}]


def test_bookkeeping_keys_never_reach_the_wire():
    messages = [{"role": "user", "content": "stored", "api_content": "sent", "timestamp": 1.5,
                 "display_kind": "steer", "_row_id": 3},
                {"role": "assistant", "content": "done", "finish_reason": "stop", "_x": {}}]
    assert hermes.sanitize_api_messages(messages) == [
        {"role": "user", "content": "sent"}, {"role": "assistant", "content": "done"}]


def test_no_helper_mutates_its_input():
    import copy
    messages = [
        {"role": "user", "content": "  padded  ", "timestamp": 5, "_row_id": 1},
        {"role": "assistant", "content": "", "reasoning": "thinking"},
        {"role": "user", "content": "again"},
        {"role": "assistant", "content": None, "tool_calls": [call("c1", arguments='{"a": 1,}')]},
        {"role": "tool", "tool_call_id": "c1", "content": "r\ud800"},
    ]
    before = copy.deepcopy(messages)
    for helper in HELPERS + (hermes.close_interrupted_tool_sequence,
                             hermes.sanitize_messages_surrogates):
        helper(messages)
        assert messages == before, helper


def test_repair_tool_call_arguments_mends_what_models_break():
    assert hermes.repair_tool_call_arguments('{"a": 1}') == '{"a": 1}'
    assert hermes.repair_tool_call_arguments('{"a": 1,}') == '{"a": 1}'
    assert hermes.repair_tool_call_arguments('{"items": [{"n": 1}, {"n": 2') == \
        '{"items": [{"n": 1}, {"n": 2}]}'
    assert json.loads(hermes.repair_tool_call_arguments('{"s": "a\nb"}')) == {"s": "a\nb"}
    for hopeless in ("", "None", None, 42, '{"content": "cut inside a str', "prose"):
        assert hermes.repair_tool_call_arguments(hopeless) == "{}"


def test_close_interrupted_tool_sequence_returns_a_closed_copy():
    messages = [{"role": "user", "content": "run"},
                {"role": "assistant", "content": "", "tool_calls": [call("c1")]},
                {"role": "tool", "tool_call_id": "c1", "content": "done"}]
    closed = hermes.close_interrupted_tool_sequence(messages)
    assert closed[-1] == {"role": "assistant", "content": "Operation interrupted."}
    assert len(messages) == 3
    assert hermes.close_interrupted_tool_sequence(messages, "  so far  ")[-1]["content"] == "so far"
    assert hermes.close_interrupted_tool_sequence(closed) == closed
    assert hermes.close_interrupted_tool_sequence([]) == []
    with pytest.raises(hermes.HermesError):
        hermes.close_interrupted_tool_sequence("nope")


def test_surrogates_are_replaced_in_every_string_of_a_list():
    messages = [{"role": "assistant", "content": "a\ud800z",
                 "reasoning_details": [{"text": "r\udc00"}],
                 "tool_calls": [{"id": "c\ud800", "type": "function",
                                 "function": {"name": "f", "arguments": '{"q": "\ud800"}'}}]}]
    out = hermes.sanitize_messages_surrogates(messages)
    assert out[0]["content"] == "a\ufffdz"
    assert out[0]["reasoning_details"][0]["text"] == "r\ufffd"
    assert out[0]["tool_calls"][0]["id"] == "c\ufffd"
    assert out[0]["tool_calls"][0]["function"]["arguments"] == '{"q": "\ufffd"}'
    with pytest.raises(hermes.HermesError):
        hermes.sanitize_messages_surrogates({"role": "user"})
