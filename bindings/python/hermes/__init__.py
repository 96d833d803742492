"""hermes: an embeddable agent runtime.

A conversation with a model that can call tools, with automatic error recovery and a
SQLite session store::

    import hermes

    def add(args):
        return {"sum": args["a"] + args["b"]}

    agent = hermes.Agent(
        model="gpt-4.1-mini",
        api_key="sk-...",
        tools=[(add, {"name": "add", "description": "Add two numbers",
                      "parameters": {"type": "object",
                                     "properties": {"a": {"type": "number"},
                                                    "b": {"type": "number"}},
                                     "required": ["a", "b"]}})],
    )
    print(agent.chat("What is 2 + 3?"))

From asyncio, ``await agent.arun(...)`` and ``async for delta in agent.astream(...)`` run
turns on a hermes.Runtime: many conversations on a few threads.
"""

from ._native import (  # noqa: F401
    CONTEXT_SUMMARY_END_MARKER,
    COMPRESSED_SUMMARY_METADATA_KEY,
    COMPRESSION_CONTINUATION_USER_CONTENT,
    LEGACY_SUMMARY_PREFIX,
    SUMMARY_PREFIX,
    _MERGED_PRIOR_CONTEXT_HEADER,
    _MERGED_SUMMARY_DELIMITER,
    _PRUNED_TOOL_PLACEHOLDER,
    _SUMMARY_END_MARKER,
    CONTEXT_SUMMARY_PREFIX,
    Agent,
    ApiError,
    CancelledError,
    ContextCompressor,
    DataLossError,
    HermesError,
    InvalidArgumentError,
    NotFoundError,
    OtlpExporter,
    Runtime,
    SessionStore,
    StoreError,
    Tool,
    TurnStream,
    __version__,
    build_skill_invocation_message,
    classify_api_error,
    close_interrupted_tool_sequence,
    coerce_tool_name,
    describe_options,
    detect_dangerous_command,
    detect_hardline_command,
    drop_thinking_only_and_merge_users,
    estimate_messages_tokens_rough,
    estimate_tokens_rough,
    get_model_context_length,
    get_skill_commands,
    is_context_summary,
    is_thinking_only_assistant,
    normalize_finish_reason,
    parse_context_limit_from_error,
    redact_sensitive_text,
    repair_message_sequence,
    repair_tool_call_arguments,
    sanitize_api_messages,
    sanitize_messages_surrogates,
    sanitize_surrogates,
    slugify_skill_name,
)
from ._aio import AsyncTurnStream  # noqa: F401  (also adds Agent.arun and Agent.astream)

__all__ = [
    "CONTEXT_SUMMARY_END_MARKER",
    "COMPRESSED_SUMMARY_METADATA_KEY",
    "COMPRESSION_CONTINUATION_USER_CONTENT",
    "LEGACY_SUMMARY_PREFIX",
    "SUMMARY_PREFIX",
    "CONTEXT_SUMMARY_PREFIX",
    "Agent",
    "ApiError",
    "AsyncTurnStream",
    "CancelledError",
    "ContextCompressor",
    "DataLossError",
    "HermesError",
    "InvalidArgumentError",
    "NotFoundError",
    "OtlpExporter",
    "Runtime",
    "SessionStore",
    "StoreError",
    "Tool",
    "TurnStream",
    "__version__",
    "build_skill_invocation_message",
    "classify_api_error",
    "close_interrupted_tool_sequence",
    "coerce_tool_name",
    "describe_options",
    "detect_dangerous_command",
    "detect_hardline_command",
    "drop_thinking_only_and_merge_users",
    "estimate_messages_tokens_rough",
    "estimate_tokens_rough",
    "get_model_context_length",
    "get_skill_commands",
    "is_context_summary",
    "is_thinking_only_assistant",
    "normalize_finish_reason",
    "parse_context_limit_from_error",
    "redact_sensitive_text",
    "repair_message_sequence",
    "repair_tool_call_arguments",
    "sanitize_api_messages",
    "sanitize_messages_surrogates",
    "sanitize_surrogates",
    "slugify_skill_name",
]
