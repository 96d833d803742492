"""Type stubs of hermes._native, the native part of the hermes package."""
from os import PathLike
from types import TracebackType
from typing import (Any, Callable, Dict, Iterator, Literal, Mapping, Optional, Protocol, Sequence, Tuple, TypedDict,
                    Union)

from ._aio import AsyncTurnStream

__version__: str

Json = Any
"""A JSON value: dict, list, str, int, float, bool or None."""

Message = dict[str, Any]
"""A chat message: role, content, and tool_calls / tool_call_id / name where they apply."""

class HermesError(RuntimeError):
    """Base class of hermes errors."""

class InvalidArgumentError(HermesError, ValueError):
    """A bad argument; the message names it. Also a ValueError."""

class NotFoundError(HermesError):
    """A session, tool or file does not exist."""

class ApiError(HermesError):
    """The model provider failed."""

class CancelledError(HermesError):
    """The turn was interrupted."""

class DataLossError(HermesError):
    """Stored data is corrupt or of a newer format."""

class StoreError(HermesError):
    """The file system or database failed."""

ToolHandler = Callable[[dict[str, Any]], Any]
"""Receives the arguments as a dict; returns a str (sent as is) or a JSON value."""

class Tool:
    """A tool the model can call: a Python callable plus its JSON schema."""

    name: str
    description: str
    toolset: str
    parallel_safe: bool
    def __init__(
        self,
        handler: ToolHandler,
        name: str = "",
        description: str = "",
        parameters: Optional[dict[str, Any]] = None,
        toolset: str = "python",
        parallel_safe: bool = True,
    ) -> None: ...

ToolLike = Union[Tool, Tuple[ToolHandler, dict[str, Any]], dict[str, Any]]
"""A hermes.Tool, a (callable, schema) pair, or a schema dict with a "handler" key."""

class FallbackProvider(TypedDict, total=False):
    model: str  # Required.
    provider: str
    base_url: str
    api_key: str
    api_mode: str

class Timeouts(TypedDict, total=False):
    """Network and tool timeouts in seconds; 0 disables one."""
    connect: float  # Establishing the connection (10).
    first_byte: float  # Request sent to the first byte of the answer (600).
    idle: float  # Between two chunks of a stream (180).
    stale_stream: float  # A stream sending only keep-alives, no real event (180).
    total: float  # The whole request (3600).
    tool_batch: float  # Tool calls run in parallel, as a group (420).
    tool_call: float  # A tool call run on its own (420; tools with their own limits keep them).

class RetryBackoff(TypedDict, total=False):
    """Waits between retries of a model call when the server names none, in seconds: from
    base, doubling per retry up to max, plus up to half again at random. A response of the
    wrong shape waits on the invalid_response schedule."""
    base: float  # 2
    max: float  # 60
    invalid_response_base: float  # 5
    invalid_response_max: float  # 120

class ToolProgressEvent(TypedDict, total=False):
    """tool_progress_callback's argument; "duration", "is_error" and "result" only when completed."""

    phase: Literal["started", "completed"]
    call_id: str
    name: str
    preview: str
    arguments: dict[str, Any]
    duration: float  # Seconds.
    is_error: bool
    result: str

class PreviousTool(TypedDict):
    """One tool of the previous iteration, as step_callback sees it."""

    name: str
    arguments: str  # The arguments as JSON text.
    result: str

ApprovalAnswer = Literal["deny", "once", "session", "always"]
# manual: ask about dangerous commands; smart: as manual for now; off: run them (hardline
# commands still never run); ask: ask about every command; allowlist: ask unless every
# program the command runs is in allowed_commands and it is not dangerous.
ApprovalMode = Literal["manual", "smart", "off", "ask", "allowlist"]
Durability = Literal["full", "normal"]

class SpanDict(TypedDict):
    trace_id: str  # 32 hex digits.
    span_id: str  # 16 hex digits.
    parent_span_id: str  # "" for a root span.
    name: str  # "invoke_agent hermes", "hermes.step", "chat <model>", "execute_tool <name>", ...
    kind: Literal["internal", "client"]
    start_time_unix_nano: int
    end_time_unix_nano: int  # 0 in on_start.
    status: Literal["unset", "ok", "error"]
    status_message: str
    attributes: dict[str, Any]  # GenAI semantic-convention attributes.

class MetricDict(TypedDict):
    name: str  # gen_ai.client.token.usage, gen_ai.client.operation.duration, hermes.*
    kind: Literal["counter", "histogram"]
    unit: str
    value: float
    time_unix_nano: int
    attributes: dict[str, Any]

class TraceSinkLike(Protocol):
    """Receives spans (and optionally span starts and metrics) from any thread."""
    def on_end(self, span: SpanDict) -> Any: ...

class OtlpExporter:
    """Sends spans and metrics to an OpenTelemetry collector over OTLP/HTTP (JSON)."""
    def __init__(
        self,
        endpoint: str,
        *,
        service_name: str = "hermes",
        headers: Mapping[str, str] = ...,
        schedule_delay: float = 5.0,
        export_timeout: float = 10.0,
        metric_export_interval: float = 60.0,
    ) -> None: ...
    @staticmethod
    def from_environment() -> Optional["OtlpExporter"]:
        """The exporter OTEL_EXPORTER_OTLP_ENDPOINT and friends describe, or None."""
    def flush(self, timeout: float = 5.0) -> None: ...
    def shutdown(self, timeout: float = 5.0) -> None: ...
    def stats(self) -> dict[str, int]: ...
    @property
    def traces_url(self) -> str: ...
    @property
    def metrics_url(self) -> str: ...

class ConversationResult(TypedDict, total=False):
    """What run_conversation() returns (the upstream runtime's result keys)."""

    final_response: Optional[str]
    last_reasoning: Optional[str]
    messages: list[Message]
    api_calls: int
    completed: bool
    failed: bool
    partial: bool
    interrupted: bool
    exit_reason: str
    turn_exit_reason: str
    error: str  # Only when the turn failed; likewise the three keys below when they apply.
    failure_reason: str
    interrupt_message: str
    pending_steer: str
    session_id: str
    turn_id: str
    model: str
    provider: str
    base_url: str
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int
    reasoning_tokens: int
    total_tokens: int
    prompt_tokens: int
    completion_tokens: int
    last_prompt_tokens: int
    estimated_cost_usd: float
    cost_status: str

class CompressResult(TypedDict):
    """What Agent.compress() returns."""

    compacted: bool  # False: nothing to compress, or another process was at it.
    messages_before: int
    messages_after: int
    tokens_before: int  # Rough estimates.
    tokens_after: int
    session_id: str  # The session the conversation continues in.
    note: str  # Why nothing happened, when nothing did.

class TextEvent(TypedDict):
    type: Literal["text", "reasoning"]
    text: str  # A delta.

class ToolEvent(ToolProgressEvent, total=False):
    type: Literal["tool"]

class StatusEvent(TypedDict):
    type: Literal["status"]
    kind: str  # "lifecycle", "warning", "compacted", "fallback", "retry", ...
    message: str

class DoneEvent(TypedDict):
    type: Literal["done"]
    result: ConversationResult

StreamEvent = Union[TextEvent, ToolEvent, StatusEvent, DoneEvent]

class TurnStream(Iterator[StreamEvent]):
    """The events of one turn, from Agent.stream(); the last one has type "done".

    Leaving the loop early (break, an exception, close()) interrupts the turn and waits
    for it to stop.
    """

    def __iter__(self) -> TurnStream: ...
    def __next__(self) -> StreamEvent: ...
    def close(self) -> None:
        """Interrupts the turn if it still runs and waits for it to stop. Idempotent."""
    def __enter__(self) -> TurnStream: ...
    def __exit__(
        self,
        exc_type: Optional[type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> None: ...

class RuntimeStats(TypedDict):
    turns_running: int  # Started and not yet ended.
    transfers: int  # HTTP transfers in flight on the I/O threads.
    tool_jobs: int  # Tool work queued or running on the workers.
    turns_started: int  # Since the runtime was created.

class Runtime:
    """Threads that run many agents' turns at once, for Agent.arun() and Agent.astream().

    A turn runs on one of the I/O threads, which multiplexes the model calls of all its
    turns; tool handlers run on the pool of tool workers. The agents' callbacks and
    Python tools run on these threads. A running turn keeps its runtime alive.
    """

    def __init__(self, *, io_threads: int = 1, tool_workers: int = 16, stack_bytes: int = 4194304) -> None:
        """io_threads 1 to 4, tool_workers 1 to 1024, stack_bytes (each running turn's
        stack, on which the agent's Python callbacks run) 65536 to 67108864;
        InvalidArgumentError names a value out of range."""
    @staticmethod
    def shared() -> Runtime:
        """The runtime of arun() and astream() calls given none (created on first use,
        kept until the process exits; it cannot be closed)."""
    def stats(self) -> RuntimeStats: ...
    @property
    def io_threads(self) -> int: ...
    @property
    def tool_workers(self) -> int: ...
    def close(self) -> None:
        """Interrupts the running turns, waits for them and stops the threads. Idempotent;
        never call it from a callback of one of the runtime's turns."""
    def __enter__(self) -> Runtime: ...
    def __exit__(
        self,
        exc_type: Optional[type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> None: ...

class SessionInfo(TypedDict):
    id: str
    source: str
    model: str
    title: Optional[str]
    parent_session_id: Optional[str]  # Set on compression continuations.
    started_at: float  # Unix seconds.
    ended_at: Optional[float]
    end_reason: Optional[str]
    message_count: int
    tool_call_count: int
    api_call_count: int
    input_tokens: int
    output_tokens: int
    estimated_cost_usd: float

class SearchHit(TypedDict):
    session_id: str
    message_id: int
    role: str
    snippet: str  # The match marked by >>> and <<<.
    timestamp: float
    rank: float  # Lower is better (bm25).
    tool_name: Optional[str]
    source: str
    model: str
    session_started: float
    archived: bool  # Compacted away: searchable, no longer in the live transcript.

class SessionStore:
    """Where conversations are kept: the SQLite database agents persist to.

    path=None opens the default database (<default home>/state.db); ":memory:" makes a
    store that lives in this process only. Safe to use from many threads.
    """

    def __init__(self, path: Union[str, PathLike[str], None] = None) -> None: ...
    @property
    def path(self) -> str: ...
    def search(self, query: str, limit: int = 20) -> list[SearchHit]:
        """Full-text search over stored messages, best match first."""
    def list(self, limit: int = 50) -> list[SessionInfo]:
        """Sessions, most recently started first."""
    def get(self, session_id: str) -> SessionInfo:
        """One session. Raises NotFoundError."""
    def load(self, session_id: str) -> list[Message]:
        """The session's messages. Raises NotFoundError."""
    def delete(self, session_id: str) -> None:
        """Deletes the session and its messages. Raises NotFoundError."""

class SkillsSettings(TypedDict, total=False):
    """Where an agent finds its skills, beyond <home>/skills."""

    # Read after <home>/skills, never written; the local skill wins a name clash.
    external_dirs: Sequence[Union[str, PathLike[str]]]
    disabled: Sequence[str]  # Hidden from the index, the skills tools and slash commands.
    template_vars: bool  # Fill ${HERMES_SKILL_DIR} and ${HERMES_SESSION_ID}; default True.

class McpServerSettings(TypedDict, total=False):
    """One MCP server, as in mcp.json: a command (with args, env, cwd, env_passthrough)
    or a url (with headers); enabled, tools ({"include": [...], "exclude": [...]}),
    timeout and connect_timeout in seconds, destructive_needs_approval, parallel. A
    command does not inherit the secrets of this process's environment (*_API_KEY,
    *_TOKEN, *SECRET*, ...) except those named in env_passthrough."""
    command: str
    args: list[str]
    env: dict[str, str]
    env_passthrough: list[str]
    cwd: str
    url: str
    headers: dict[str, str]
    enabled: bool
    tools: dict[str, list[str]]
    timeout: float
    connect_timeout: float
    destructive_needs_approval: bool
    parallel: bool
    oauth: McpOAuthSettings

class McpOAuthSettings(TypedDict, total=False):
    """OAuth of a remote server that answers 401: a pre-registered client (client_id,
    client_secret), a client metadata document URL, the client_name to register under, the
    scope to ask for, grant_type ("authorization_code" or "client_credentials"),
    redirect_uri; tokens kept under <home>/mcp-tokens unless persist_tokens is False or
    token_dir says where; enabled False leaves a 401 an error."""
    enabled: bool
    client_id: str
    client_secret: str
    client_metadata_url: str
    client_name: str
    scope: str
    grant_type: str
    redirect_uri: str
    persist_tokens: bool
    token_dir: str

class McpServerStatus(TypedDict):
    name: str
    connected: bool
    protocol_version: str
    server_name: str
    server_version: str
    tools: list[str]
    skipped_tools: list[str]
    restarts: int
    last_error: str

MemoryProviderLike = Any
"""An external memory backend: any object with some of the methods of upstream's
MemoryProvider, called around each turn. name (a str attribute, property or method),
initialize(session_id, hermes_home=, platform=), system_prompt_block() -> str,
prefetch(query, session_id=) -> str (given to the model with the user message),
sync_turn(user_content, assistant_content, session_id=, messages=),
on_session_switch(new_session_id, parent_session_id=, reset=), on_compaction(messages)
-> str (or on_pre_compress; the text is kept after the summary), on_memory_write(action,
target, content), on_session_end(messages), shutdown(). The tools of get_tool_schemas()
are offered in the "memory_provider" toolset and run by handle_tool_call(tool_name, args).
What a method raises goes to sys.unraisablehook and the turn goes on."""

class OptionDescription(TypedDict, total=False):
    """One option of the options document (describe_options())."""

    name: str  # Dotted: "compression.threshold_percent" is {"compression": {"threshold_percent": ...}}.
    type: str  # string, string?, boolean, boolean?, integer, integer?, number, number?, seconds, strings, enum, providers
    default: Any
    doc: str
    minimum: float
    exclusive_minimum: bool
    maximum: float
    values: list[str]

def describe_options() -> list[OptionDescription]:
    """Every option the options document (Agent(options=...)) takes."""

class Agent:
    """An agent: a conversation with a model that can call tools.

    One call at a time: a second call while a turn runs (or a stream is open) raises
    HermesError. interrupt() and steer() may be called from any thread.
    """

    def __init__(
        self,
        *,
        model: str = "",
        options: Union[Mapping[str, Any], str, None] = None,
        base_url: str = "https://api.openai.com/v1",
        api_key: Union[str, Sequence[str], None] = None,
        provider: str = "",
        api_mode: str = "",
        home: Union[str, PathLike[str], None] = None,
        context_dir: Union[str, PathLike[str], None] = None,
        max_iterations: int = 90,
        max_tool_workers: int = 8,
        tools: Sequence[ToolLike] = (),
        mcp_servers: Optional[Mapping[str, McpServerSettings]] = None,
        mcp_authorize: Optional[Callable[[str], str]] = None,
        enabled_toolsets: Optional[Sequence[str]] = None,
        disabled_toolsets: Optional[Sequence[str]] = None,
        env_passthrough: Optional[Sequence[str]] = None,
        session_id: Optional[str] = None,
        persist_sessions: bool = True,
        session_store: Optional[SessionStore] = None,
        durability: Durability = "full",
        skills: Optional[SkillsSettings] = None,
        stream: bool = True,
        max_tokens: Optional[int] = None,
        temperature: Optional[float] = None,
        ephemeral_system_prompt: str = "",
        max_retries: int = 3,
        timeouts: Optional[Timeouts] = None,
        retry_backoff: Optional[RetryBackoff] = None,
        reasoning_effort: str = "",
        output_schema: Union[Mapping[str, Any], type, None] = None,
        output_name: str = "final_answer",
        output_max_repairs: int = 2,
        fallback_providers: Optional[Sequence[FallbackProvider]] = None,
        compression: bool = True,
        context_length: Optional[int] = None,
        compression_threshold: float = 0.5,
        protect_last_n: int = 20,
        compress_in_place: bool = False,
        idle_compact_after_seconds: float = 0,
        background_review: bool = True,
        memory_nudge_interval: int = 10,
        skill_nudge_interval: int = 10,
        review_max_iterations: int = 8,
        memory_char_limit: int = 2200,
        user_char_limit: int = 1375,
        delegation_max_iterations: int = 50,
        delegation_max_concurrent_children: int = 3,
        memory_provider: Optional[MemoryProviderLike] = None,
        stream_callback: Optional[Callable[[str], Any]] = None,
        reasoning_callback: Optional[Callable[[str], Any]] = None,
        tool_progress_callback: Optional[Callable[[ToolProgressEvent], Any]] = None,
        status_callback: Optional[Callable[[str, str], Any]] = None,
        step_callback: Optional[Callable[[int, list[PreviousTool]], Any]] = None,
        clarify_callback: Optional[Callable[[str, list[str]], Optional[str]]] = None,
        approval_callback: Optional[Callable[[str, str], ApprovalAnswer]] = None,
        approval_mode: ApprovalMode = "manual",
        allowed_commands: Sequence[str] = (),
        approval_timeout: float = 300,
        auth_refresh_callback: Optional[Callable[[dict[str, Any]], Optional[str]]] = None,
        hooks: Optional[Sequence[object]] = None,
        trace_sink: Union[OtlpExporter, TraceSinkLike, None] = None,
        trace_capture_content: bool = False,
        traceparent: str = "",
        tool_use_enforcement: Optional[bool] = None,
        source: str = "cli",
        platform_hint: Optional[str] = None,
    ) -> None: ...
    def chat(self, message: str) -> str:
        """Runs one turn and returns the answer. Raises HermesError when the turn fails."""
    def run_conversation(
        self,
        user_message: str,
        system_message: Optional[str] = None,
        conversation_history: Optional[Sequence[Message]] = None,
        task_id: Optional[str] = None,
        *,
        output_schema: Union[Mapping[str, Any], type, None] = None,
    ) -> ConversationResult:
        """Runs one turn and returns the result dict; output_schema asks this turn for a
        structured answer (result["output"])."""
    def run_skill(self, name: str, instruction: str = "") -> ConversationResult:
        """Runs one turn invoking a skill, as the CLI's /<name> [instruction] does.

        Raises NotFoundError when no enabled skill of the agent's home answers to `name`.
        """
    def stream(
        self,
        user_message: str,
        system_message: Optional[str] = None,
        conversation_history: Optional[Sequence[Message]] = None,
        task_id: Optional[str] = None,
        *,
        output_schema: Union[Mapping[str, Any], type, None] = None,
    ) -> TurnStream:
        """Runs one turn on a background thread; iterate the result for its events."""
    async def arun(
        self,
        message: str,
        *,
        runtime: Optional[Runtime] = None,
        system_message: Optional[str] = None,
        conversation_history: Optional[Sequence[Message]] = None,
        task_id: Optional[str] = None,
        output_schema: Union[Mapping[str, Any], type, None] = None,
    ) -> ConversationResult:
        """Runs one turn on `runtime` (None: Runtime.shared()) without the GIL and returns
        run_conversation()'s result dict. Cancelling the awaiting task interrupts the turn
        and waits for it to stop. Raises HermesError at once when the agent is busy."""
    def astream(
        self,
        message: str,
        *,
        runtime: Optional[Runtime] = None,
        system_message: Optional[str] = None,
        conversation_history: Optional[Sequence[Message]] = None,
        task_id: Optional[str] = None,
        output_schema: Union[Mapping[str, Any], type, None] = None,
    ) -> AsyncTurnStream:
        """As arun(), for `async for`: yields the answer's text deltas; the stream's
        `result` holds the result dict once the loop has ended."""
    def compress(self, focus: Optional[str] = None) -> CompressResult:
        """Compacts the conversation now, giving `focus` most of the summary."""
    def interrupt(self, message: str = "") -> None:
        """Stops the running turn as soon as possible. Safe from any thread."""
    def steer(self, text: str) -> None:
        """Queues guidance for the running turn. Safe from any thread."""
    def new_session(self) -> None:
        """Ends the session and starts an empty one."""
    def resume(self, session_id: str) -> None:
        """Switches to a stored session."""
    @property
    def session_id(self) -> str: ...
    @property
    def history(self) -> list[Message]: ...
    @property
    def system_prompt(self) -> str: ...
    @property
    def options(self) -> dict[str, Any]:
        """Every option of the options document with the agent's value, nested as the
        document is (API keys included)."""
    def mcp_status(self) -> list[McpServerStatus]:
        """One entry per server of mcp_servers, in configuration order."""

Summarizer = Callable[[str], Optional[str]]
"""Receives the whole summarisation request as one prompt; returns the summary (text
with the "## ..." headings the prompt asks for). Raising, or returning anything else,
makes the compressor use its static summary."""

class CompressionReport(TypedDict):
    """What the last ContextCompressor.compress() did."""

    compacted: bool  # A summary replaced the middle of the transcript.
    aborted: bool  # The summariser failed for good; nothing changed.
    used_static_summary: bool  # The summariser failed; a summary built without it stands in.
    error: str  # The summariser's failure, when there was one.
    messages_before: int
    messages_after: int
    tokens_before: int  # Rough estimates.
    tokens_after: int
    pruned_tool_results: int
    shortened_tool_results: int  # Cuts made to tool results too large for the window.
    summarized_messages: int
    savings_percent: float

CONTEXT_SUMMARY_PREFIX: str
"""The first line of every compaction summary message."""
CONTEXT_SUMMARY_END_MARKER: str
"""The last line of every compaction summary message."""
SUMMARY_PREFIX: str
"""CONTEXT_SUMMARY_PREFIX under the upstream runtime's name."""
LEGACY_SUMMARY_PREFIX: str
"""The prefix of summaries written by the earliest releases."""
COMPRESSED_SUMMARY_METADATA_KEY: str
"""The private key that marks a summary message ("_compressed_summary")."""
COMPRESSION_CONTINUATION_USER_CONTENT: str
"""The user message a compaction adds when no human user turn survived."""
DUPLICATE_TOOL_OUTPUT: str
"""What replaces an older copy of a repeated tool result."""
SCREENSHOT_REMOVED: str
"""What replaces an old screenshot in a tool result."""
SUMMARIZED_RESULT_STUB: str
"""The result given to a tool call whose result was summarised away."""
_SUMMARY_END_MARKER: str
_MERGED_PRIOR_CONTEXT_HEADER: str
_MERGED_SUMMARY_DELIMITER: str
_PRUNED_TOOL_PLACEHOLDER: str

def is_context_summary(message: Message) -> bool:
    """Whether a message is a compaction summary, on its own or merged into another one."""

class ContextCompressor:
    """Keeps a long conversation inside a model's window: the agent's compression engine
    for callers that keep their own transcripts. Not for concurrent use: a call while
    compress() runs raises HermesError."""

    def __init__(
        self,
        context_length: int,
        threshold_percent: float = 0.50,
        protect_first_n: int = 3,
        protect_last_n: int = 20,
        summary_target_ratio: float = 0.20,
        summarizer: Optional[Summarizer] = None,
        *,
        model: str = "",
        max_tokens: Optional[int] = None,
    ) -> None:
        """Raises ValueError for out-of-range settings, TypeError for a summarizer that
        is not callable."""
    def should_compress(self, prompt_tokens: int) -> bool:
        """Whether a prompt of this size should be compressed now."""
    def compress(
        self,
        messages: Sequence[Message],
        current_tokens: Optional[int] = None,
        focus_topic: Optional[str] = None,
        *,
        force: bool = False,
    ) -> list[Message]:
        """Head + summary message + tail, oversized tool results shortened; unchanged when
        nothing could be done."""
    def find_tail_cut_by_tokens(
        self, messages: Sequence[Message], head_end: int, token_budget: Optional[int] = None
    ) -> int:
        """The index where the protected tail starts after a head of `head_end` messages."""
    def prune_old_tool_results(
        self,
        messages: Sequence[Message],
        protect_tail_count: int = 20,
        protect_tail_tokens: Optional[int] = None,
    ) -> Tuple[list[Message], int]:
        """(pruned copy, number of messages changed), without a model call."""
    @staticmethod
    def truncate_tool_call_args_json(args: str, head_chars: int = 200) -> str:
        """`args` with long strings inside its JSON cut; unchanged when it is not JSON."""
    @property
    def context_length(self) -> int: ...
    @property
    def threshold_tokens(self) -> int: ...
    @property
    def threshold_percent(self) -> float: ...
    @property
    def tail_token_budget(self) -> int: ...
    @property
    def compression_count(self) -> int: ...
    @property
    def previous_summary(self) -> str: ...
    @property
    def last_report(self) -> CompressionReport: ...
    def status(self) -> dict[str, Any]:
        """Limits and counters for status displays."""

class ApiErrorClassification(TypedDict):
    reason: str
    retryable: bool
    should_compress: bool
    should_rotate_credential: bool
    should_fallback: bool
    status_code: Optional[int]
    message: str
    error_code: str
    error_context: Dict[str, Any]
    billing_unverified: bool
    retry_after: Optional[float]

def classify_api_error(
    *,
    status_code: Optional[int] = None,
    message: str = "",
    body: Union[str, bytes, Json] = None,
    transport: Literal["", "none", "timeout", "connect", "ssl", "disconnect"] = "",
    provider: str = "",
    model: str = "",
    approx_tokens: int = 0,
    context_length: int = 0,
    num_messages: int = 0,
    retry_after: Optional[float] = None,
) -> ApiErrorClassification:
    """Classifies a failed model call the way the agent does."""

def parse_context_limit_from_error(message: str) -> Optional[int]:
    """The context window an error message states, or None."""

def get_model_context_length(
    model: str,
    base_url: str = "",
    provider: str = "",
    config_context_length: Optional[int] = None,
    *,
    api_key: Optional[str] = None,
    home: Union[str, PathLike[str], None] = None,
) -> int:
    """The context window of `model` in tokens."""

def detect_dangerous_command(command: str) -> Tuple[bool, Optional[str]]:
    """(dangerous, description or None): whether a shell command needs approval, and why."""

def detect_hardline_command(command: str) -> Tuple[bool, Optional[str]]:
    """(hardline, description or None): a command refused whatever the approval."""

def sanitize_api_messages(messages: Sequence[Message]) -> list[Message]:
    """A copy of `messages` ready for the wire, as the agent sends them."""

def repair_message_sequence(messages: Sequence[Message]) -> list[Message]:
    """`messages` without tool results that answer no call, consecutive user texts merged."""

def drop_thinking_only_and_merge_users(messages: Sequence[Message]) -> list[Message]:
    """`messages` without thinking-only assistant turns, the users they separated merged."""

def is_thinking_only_assistant(message: Message) -> bool:
    """Whether an assistant message has reasoning but no visible text and no tool calls."""

def sanitize_surrogates(text: str) -> str:
    """`text` with invalid UTF-8 and lone surrogates replaced by U+FFFD."""

def sanitize_messages_surrogates(messages: Sequence[Message]) -> list[Message]:
    """A copy of `messages` with lone surrogates in every string replaced by U+FFFD."""

def repair_tool_call_arguments(raw: Optional[str]) -> str:
    """Tool-call argument text a provider will parse ("{}" when past repair)."""

def close_interrupted_tool_sequence(
    messages: Sequence[Message], final_response: Optional[str] = None
) -> list[Message]:
    """A copy of `messages` closed with an assistant turn when it ends on a tool result."""

def coerce_tool_name(name: str, available: Sequence[str]) -> Optional[str]:
    """The available tool a model meant by `name`, or None."""

def normalize_finish_reason(value: str) -> str:
    """A provider's finish reason as stop, length, tool_calls, content_filter, incomplete or error."""

def redact_sensitive_text(text: str) -> str:
    """`text` with API keys, tokens and other secrets masked."""

def estimate_tokens_rough(text: str) -> int:
    """A rough token count (about four characters per token)."""

def estimate_messages_tokens_rough(messages: Sequence[Message]) -> int:
    """A rough token count of messages as they would be sent (images at 1,600 each)."""

class SkillCommandInfo(TypedDict):
    """A skill reachable as a slash command."""

    name: str
    description: str

def get_skill_commands(
    home: Union[str, PathLike[str], None] = None,
    *,
    external_dirs: Optional[Sequence[Union[str, PathLike[str]]]] = None,
    disabled: Optional[Sequence[str]] = None,
) -> dict[str, SkillCommandInfo]:
    """{"/<slug>": {"name", "description"}} of the enabled skills, in lookup order."""

def build_skill_invocation_message(
    command: str,
    user_instruction: str = "",
    *,
    home: Union[str, PathLike[str], None] = None,
    session_id: Optional[str] = None,
    external_dirs: Optional[Sequence[Union[str, PathLike[str]]]] = None,
    disabled: Optional[Sequence[str]] = None,
) -> Optional[str]:
    """The user message of a `/<skill-name> [instruction]` turn, or None for no such skill."""

def slugify_skill_name(name: str) -> str:
    """The slash-command slug of a skill name ("Deploy Staging" -> "deploy-staging")."""
