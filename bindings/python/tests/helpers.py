"""Shared helpers of the tests: an agent pointed at the mock server."""
import contextlib
import sys

import hermes


def make_agent(server, tmp_path, **kwargs):
    kwargs.setdefault("home", str(tmp_path))
    return hermes.Agent(model="mock-model", base_url=server.base_url, api_key="sk-test", **kwargs)


def tool_results(result):
    """The contents of the tool messages of a run_conversation() result."""
    return [m["content"] for m in result["messages"] if m["role"] == "tool"]


@contextlib.contextmanager
def reported_errors():
    """Collects what callbacks report through sys.unraisablehook, as (context, exception)."""
    seen = []
    previous = sys.unraisablehook
    sys.unraisablehook = lambda u: seen.append((u.err_msg or str(u.object), u.exc_value))
    try:
        yield seen
    finally:
        sys.unraisablehook = previous
