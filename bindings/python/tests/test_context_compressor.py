"""hermes.ContextCompressor: the context engine on its own, with Python summarisers."""
import json
import math
import threading

import pytest

import hermes

SUMMARY = "## Goal\nAudit the repository's modules.\n\n## Completed Actions\nRead every module."


def tool_round(i):
    """An assistant turn reading one file, and the file's (long) content."""
    call_id = "call_%d" % i
    call = {"id": call_id, "type": "function",
            "function": {"name": "read_file", "arguments": json.dumps({"path": "src/module_%d.py" % i})}}
    body = "".join("def function_%d_%d():\n    return %d\n" % (i, n, n) for n in range(120))
    return [
        {"role": "assistant", "content": "Reading module %d." % i, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": call_id, "name": "read_file", "content": body},
    ]


def tool_heavy_history(rounds=40):
    messages = [{"role": "system", "content": "You are a careful code reviewer."},
                {"role": "user", "content": "Please audit every module of the repository."}]
    for i in range(rounds):
        messages += tool_round(i)
        if i % 5 == 4:
            messages.append({"role": "assistant", "content": "Modules up to %d look fine." % i})
            messages.append({"role": "user", "content": "Good, continue after module %d." % i})
    messages.append({"role": "assistant", "content": "All modules are read."})
    messages.append({"role": "user", "content": "Now list the modules that need tests."})
    return messages


class RecordingSummarizer:
    def __init__(self, answer=SUMMARY):
        self.answer = answer
        self.prompts = []

    def __call__(self, prompt):
        self.prompts.append(prompt)
        return self.answer


def summaries(messages):
    return [m for m in messages if hermes.is_context_summary(m)]


def assert_tool_pairs_intact(messages):
    """Every tool call is answered right after its assistant message, and every result
    answers a call."""
    open_calls = set()
    for message in messages:
        if message["role"] == "tool":
            assert message["tool_call_id"] in open_calls, message["tool_call_id"]
            open_calls.remove(message["tool_call_id"])
            continue
        assert not open_calls, "unanswered calls %s" % sorted(open_calls)
        open_calls = {c["id"] for c in message.get("tool_calls") or []}
    assert not open_calls


# --- Limits -------------------------------------------------------------------------

@pytest.mark.parametrize("context_length, kwargs, expected", [
    (200_000, {}, 100_000),                           # Half the window.
    (200_000, {"threshold_percent": 0.8}, 160_000),
    (200_000, {"max_tokens": 50_000}, 75_000),        # Half of what the output leaves.
    (100_000, {}, 64_000),                            # Never below 64,000 ...
    (64_000, {}, 54_400),                             # ... unless that is the whole window:
    (32_000, {}, 27_200),                             # then 85% of it.
    (200_000, {"threshold_percent": 1.0}, 170_000),   # The whole window is unreachable too.
    (32_000, {"max_tokens": 40_000}, 27_200),         # An output reservation beyond the window.
])
def test_the_threshold_follows_the_window_the_percent_and_the_floors(context_length, kwargs,
                                                                     expected):
    compressor = hermes.ContextCompressor(context_length, **kwargs)
    assert compressor.threshold_tokens == expected
    assert compressor.context_length == context_length


def test_should_compress_answers_at_the_threshold_and_not_below():
    compressor = hermes.ContextCompressor(200_000)
    assert not compressor.should_compress(0)
    assert not compressor.should_compress(99_999)
    assert compressor.should_compress(100_000)
    assert compressor.should_compress(250_000)


def test_the_tail_budget_is_a_share_of_the_threshold():
    compressor = hermes.ContextCompressor(200_000, summary_target_ratio=0.30)
    assert compressor.tail_token_budget == 30_000
    assert compressor.status()["tail_token_budget"] == 30_000


# --- Compression with a Python summariser -------------------------------------------

def test_a_tool_heavy_history_keeps_its_head_and_tail_around_the_summary():
    summarizer = RecordingSummarizer()
    compressor = hermes.ContextCompressor(200_000, summarizer=summarizer)
    messages = tool_heavy_history()

    out = compressor.compress(messages)

    assert len(summarizer.prompts) == 1
    assert "src/module_10.py" in summarizer.prompts[0]  # The middle went to the summariser.
    assert len(out) < len(messages)
    # The system prompt gains the compaction note; the first ask stays as it was.
    assert out[0]["role"] == "system"
    assert out[0]["content"].startswith(messages[0]["content"] + "\n\n[Note: ")
    assert out[1] == messages[1]
    assert out[-1] == messages[-1]  # The latest user message.
    (summary,) = summaries(out)
    assert summary["content"].startswith("[CONTEXT COMPACTION \u2014 REFERENCE ONLY]")
    assert summary["content"].startswith(hermes.CONTEXT_SUMMARY_PREFIX)
    assert SUMMARY in summary["content"]
    assert hermes.CONTEXT_SUMMARY_END_MARKER in summary["content"]
    assert_tool_pairs_intact(out)
    assert compressor.compression_count == 1
    assert compressor.previous_summary == SUMMARY
    report = compressor.last_report
    assert report["compacted"] and not report["used_static_summary"]
    assert report["messages_before"] == len(messages) and report["messages_after"] == len(out)
    assert report["tokens_after"] < report["tokens_before"]


def test_the_tail_keeps_the_latest_turns_and_shortens_only_older_tool_output():
    compressor = hermes.ContextCompressor(200_000, summarizer=RecordingSummarizer())
    messages = tool_heavy_history()
    out = compressor.compress(messages)
    at = next(i for i, m in enumerate(out) if hermes.is_context_summary(m))
    tail = out[at + 1:]
    source = messages[len(messages) - len(tail):]

    def shape(ms):
        return [(m["role"], m.get("tool_call_id")) for m in ms]

    assert tail and shape(tail) == shape(source)
    for kept, original in zip(tail, source):
        if kept != original:  # Pruned to a one-line description of the result.
            assert kept["role"] == "tool"
            assert kept["content"].startswith("[read_file] read src/module_")
    assert tail[-10:] == source[-10:]


def test_focus_topic_reaches_the_summariser_prompt():
    summarizer = RecordingSummarizer()
    compressor = hermes.ContextCompressor(200_000, summarizer=summarizer)
    compressor.compress(tool_heavy_history(), focus_topic="the database migrations")
    assert "the database migrations" in summarizer.prompts[0]


def test_the_summariser_may_run_on_a_worker_thread():
    summarizer = RecordingSummarizer()
    compressor = hermes.ContextCompressor(200_000, summarizer=summarizer)
    results = []
    worker = threading.Thread(target=lambda: results.append(compressor.compress(tool_heavy_history())))
    worker.start()
    worker.join()
    assert len(results) == 1 and len(summaries(results[0])) == 1
    assert len(summarizer.prompts) == 1


def test_a_short_history_is_returned_unchanged_without_asking_the_summariser():
    summarizer = RecordingSummarizer()
    compressor = hermes.ContextCompressor(200_000, summarizer=summarizer)
    messages = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello."}]
    assert compressor.compress(messages) == messages
    assert summarizer.prompts == []
    assert compressor.compression_count == 0
    assert not compressor.last_report["compacted"]


# --- Summariser failures ------------------------------------------------------------

def failing_summarizer(prompt):
    raise RuntimeError("the summary model is down")


@pytest.mark.parametrize("summarizer, error", [
    (failing_summarizer, "RuntimeError: the summary model is down"),
    (lambda prompt: 42, "returned int"),
    (lambda prompt: "A summary without any of the template's headings.", "wrong_format"),
    (lambda prompt: None, "empty"),
    (None, "no summary model"),
])
def test_a_failing_summariser_leaves_a_static_summary_in_place(summarizer, error):
    compressor = hermes.ContextCompressor(200_000, summarizer=summarizer)
    messages = tool_heavy_history()

    out = compressor.compress(messages)

    report = compressor.last_report
    assert report["compacted"] and report["used_static_summary"]
    assert error in report["error"]
    (summary,) = summaries(out)
    assert summary["content"].startswith(hermes.CONTEXT_SUMMARY_PREFIX)
    # The anchors of the middle survive: the tool used and the files it read.
    assert "read_file" in summary["content"]
    assert "src/module_10.py" in summary["content"]
    assert out[-1] == messages[-1]
    assert_tool_pairs_intact(out)


def test_an_interrupted_summariser_abandons_the_compaction_and_reraises():
    def interrupted(prompt):
        raise KeyboardInterrupt

    compressor = hermes.ContextCompressor(200_000, summarizer=interrupted)
    with pytest.raises(KeyboardInterrupt):
        compressor.compress(tool_heavy_history())
    report = compressor.last_report
    assert report["aborted"] and not report["compacted"]
    assert "KeyboardInterrupt" in report["error"]
    assert compressor.compression_count == 0


def test_a_summariser_calling_back_into_its_compressor_gets_an_error_not_a_deadlock():
    seen = []

    def reentrant(prompt):
        try:
            compressor.compress([])
        except hermes.HermesError as e:
            seen.append(str(e))
        return SUMMARY

    compressor = hermes.ContextCompressor(200_000, summarizer=reentrant)
    out = compressor.compress(tool_heavy_history())
    assert seen and "busy" in seen[0]
    assert len(summaries(out)) == 1


# --- Arguments ----------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, field", [
    ({"threshold_percent": 0.0}, "threshold_percent"),
    ({"threshold_percent": 1.5}, "threshold_percent"),
    ({"threshold_percent": -0.5}, "threshold_percent"),
    ({"threshold_percent": math.nan}, "threshold_percent"),
    ({"protect_first_n": -1}, "protect_first_n"),
    ({"protect_last_n": -1}, "protect_last_n"),
    ({"summary_target_ratio": 0.0}, "summary_target_ratio"),
    ({"max_tokens": -1}, "max_tokens"),
])
def test_out_of_range_settings_raise_value_error_naming_them(kwargs, field):
    with pytest.raises(ValueError, match=field):
        hermes.ContextCompressor(200_000, **kwargs)


def test_a_window_of_no_tokens_is_refused():
    with pytest.raises(ValueError, match="context_length"):
        hermes.ContextCompressor(0)


def test_arguments_of_the_wrong_type_raise_type_error():
    with pytest.raises(TypeError):
        hermes.ContextCompressor("big")
    with pytest.raises(TypeError, match="summarizer"):
        hermes.ContextCompressor(200_000, summarizer="not callable")
    compressor = hermes.ContextCompressor(200_000)
    with pytest.raises(TypeError):
        compressor.should_compress("many")
    with pytest.raises(TypeError, match="messages"):
        compressor.compress("not a list")
    with pytest.raises(TypeError):
        compressor.compress([], focus_topic=7)


def test_a_malformed_message_raises_value_error_naming_it():
    compressor = hermes.ContextCompressor(200_000)
    with pytest.raises(ValueError, match=r"messages\[1\]"):
        compressor.compress([{"role": "user", "content": "Hi"}, {"role": "wizard", "content": "?"}])


# --- Token estimates ----------------------------------------------------------------

def test_estimate_messages_tokens_rough_counts_the_wire_form():
    messages = [{"role": "user", "content": "Hello there"}]
    wire = json.dumps(messages, separators=(",", ":"))
    assert hermes.estimate_messages_tokens_rough(messages) == (len(wire) + 3) // 4
    assert hermes.estimate_messages_tokens_rough([]) == 1  # "[]"
    longer = messages + [{"role": "assistant", "content": "x" * 400}]
    assert hermes.estimate_messages_tokens_rough(longer) > 100


def test_estimate_messages_tokens_rough_counts_an_image_flat():
    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64," + "A" * 100_000}}
    messages = [{"role": "user", "content": [{"type": "text", "text": "What is this?"}, image]}]
    estimate = hermes.estimate_messages_tokens_rough(messages)
    assert 1_600 <= estimate < 1_700


def test_upstream_names_for_the_compaction_texts():
    assert hermes.SUMMARY_PREFIX == hermes.CONTEXT_SUMMARY_PREFIX
    assert hermes.SUMMARY_PREFIX.startswith("[CONTEXT COMPACTION")
    assert hermes.LEGACY_SUMMARY_PREFIX == "[CONTEXT SUMMARY]:"
    assert hermes.COMPRESSED_SUMMARY_METADATA_KEY == "_compressed_summary"
    assert hermes._PRUNED_TOOL_PLACEHOLDER == "[Old tool output cleared to save context space]"
    assert hermes._SUMMARY_END_MARKER == hermes.CONTEXT_SUMMARY_END_MARKER
    assert hermes._MERGED_PRIOR_CONTEXT_HEADER.startswith("[PRIOR CONTEXT")
    assert hermes._MERGED_SUMMARY_DELIMITER.startswith("[END OF PRIOR CONTEXT")
    assert hermes.COMPRESSION_CONTINUATION_USER_CONTENT.startswith("Continue from the compressed")


def test_the_compressor_steps_are_public():
    compressor = hermes.ContextCompressor(100_000)
    messages = tool_heavy_history(12)
    cut = compressor.find_tail_cut_by_tokens(messages, 2)
    assert 2 < cut < len(messages)
    assert messages[cut]["role"] != "tool"
    assert compressor.find_tail_cut_by_tokens(messages, 2, 100) >= cut
    assert compressor.find_tail_cut_by_tokens(messages, len(messages)) == len(messages)

    pruned, count = compressor.prune_old_tool_results(messages, protect_tail_count=4)
    assert count > 0
    assert len(pruned) == len(messages)
    assert messages[3]["content"].startswith("def function_0_0")  # The input is left alone.

    args = json.dumps({"content": "x" * 500, "path": "a"})
    cut_args = hermes.ContextCompressor.truncate_tool_call_args_json(args, 200)
    assert len(json.loads(cut_args)["content"]) < 300
    assert hermes.ContextCompressor.truncate_tool_call_args_json("not json {", 5) == "not json {"


def test_a_few_messages_with_huge_tool_output_are_shortened_to_fit():
    messages = [{"role": "system", "content": "You read logs."},
                {"role": "user", "content": "Read the three logs."}]
    for i, size in enumerate((24_000, 30_000, 20_000)):
        messages += [
            {"role": "assistant", "content": "", "tool_calls": [
                {"id": "c%d" % i, "type": "function",
                 "function": {"name": "read_file", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "c%d" % i,
             "content": "BEGIN " + "x" * size + " END"},
        ]
    compressor = hermes.ContextCompressor(16_000)
    out = compressor.compress(messages)
    assert len(out) == len(messages)
    assert hermes.estimate_messages_tokens_rough(out) <= compressor.threshold_tokens
    assert compressor.last_report["shortened_tool_results"] > 0
    cut = 0
    for before, after in zip(messages, out):
        if before["role"] == "tool" and after["content"] != before["content"]:
            cut += 1
            assert len(after["content"]) < len(before["content"])
            assert after["content"].startswith("BEGIN") and after["content"].endswith("END")
        else:
            assert (after["content"] or "") == (before["content"] or "")
    assert cut >= 2  # The largest results first.
