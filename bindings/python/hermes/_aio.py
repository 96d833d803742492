"""Agent.arun() and Agent.astream(): turns on a hermes.Runtime, awaited from asyncio.

The turn runs on a runtime thread without the GIL; its text deltas and its result come
back to the event loop through loop.call_soon_threadsafe. Cancelling the task that awaits
a turn interrupts the turn and waits (briefly: an interrupted turn stops within about
100 ms) until it has ended, so that the agent is free again when the cancellation
arrives.
"""
import asyncio
import collections

from ._native import Agent

__all__ = ["AsyncTurnStream"]


class _Turn:
    """The loop's end of one turn: its result future and, when streaming, its text."""

    def __init__(self, loop, streaming):
        self.loop = loop
        self.done = loop.create_future()
        self.deltas = collections.deque() if streaming else None
        self.wake = None
        self.native = None

    def start(self, agent, runtime, message, system_message, conversation_history, task_id,
              output_schema):
        self.native = agent._start_async(
            runtime, self.loop, self._on_done, self._on_text if self.deltas is not None else None,
            message, system_message, conversation_history, task_id, output_schema)

    # Both run on the loop, scheduled by the runtime thread.
    def _on_done(self, result, _keepalive):
        self._take_text()
        if not self.done.done():
            self.done.set_result(result)
        self._wake_up()

    def _on_text(self):
        self._take_text()
        self._wake_up()

    def _take_text(self):
        if self.deltas is not None and self.native is not None:
            self.deltas.extend(self.native.take_text())

    def _wake_up(self):
        if self.wake is not None and not self.wake.done():
            self.wake.set_result(None)

    async def wait_until(self, future):
        """Awaits `future`; cancelled, interrupts the turn, waits for its end, re-raises."""
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            await self.stop()
            raise

    async def stop(self):
        """Interrupts the turn if it still runs and waits until it has ended."""
        if self.done.done():
            return
        self.native.interrupt()
        while not self.done.done():
            try:
                await asyncio.shield(self.done)
            except asyncio.CancelledError:
                continue  # Cancelled again: the turn is already stopping.


async def _arun(self, message, *, runtime=None, system_message=None, conversation_history=None,
                task_id=None, output_schema=None):
    turn = _Turn(asyncio.get_running_loop(), streaming=False)
    turn.start(self, runtime, message, system_message, conversation_history, task_id,
               output_schema)
    return await turn.wait_until(turn.done)


class AsyncTurnStream:
    """The text of one turn, from Agent.astream(), for ``async for``.

    ::

        stream = agent.astream("Summarise README.md")
        async for delta in stream:
            print(delta, end="", flush=True)
        print(stream.result["final_response"])

    Yields the answer's text deltas (str) as they stream in and ends when the turn ends;
    ``result`` then holds the result dict arun() would have returned (None before). The
    turn starts at the first iteration; a refusal (the agent is busy) raises there.
    aclose(), leaving an ``async with`` block, or cancelling the task that iterates
    interrupts the turn and waits for it to stop; a stream dropped unfinished (after a
    break) is closed by the event loop, which interrupts its turn too.
    """

    def __init__(self, agent, message, runtime, system_message, conversation_history, task_id,
                 output_schema):
        self.result = None
        self._agent = agent
        self._args = (runtime, message, system_message, conversation_history, task_id,
                      output_schema)
        self._text = None

    def __aiter__(self):
        return self

    async def __anext__(self):
        if self._text is None:
            self._text = self._deltas()
        return await self._text.__anext__()

    async def aclose(self):
        """Interrupts the turn if it still runs and waits for it to stop. Idempotent."""
        if self._text is not None:
            await self._text.aclose()

    async def __aenter__(self):
        return self

    async def __aexit__(self, exc_type, exc, tb):
        await self.aclose()

    async def _deltas(self):
        # An async generator: one the loop collects unfinished (the caller broke out of
        # its loop) is closed by the loop, which interrupts the turn.
        turn = _Turn(asyncio.get_running_loop(), streaming=True)
        runtime, message, system_message, conversation_history, task_id, output_schema = self._args
        turn.start(self._agent, runtime, message, system_message, conversation_history, task_id,
                   output_schema)
        self._agent = None
        try:
            while True:
                while turn.deltas:
                    yield turn.deltas.popleft()
                if turn.done.done():
                    break
                turn.wake = turn.loop.create_future()
                await turn.wait_until(turn.wake)
            self.result = turn.done.result()
        finally:
            await turn.stop()


def _astream(self, message, *, runtime=None, system_message=None, conversation_history=None,
             task_id=None, output_schema=None):
    return AsyncTurnStream(self, message, runtime, system_message, conversation_history, task_id,
                           output_schema)


_arun.__name__, _arun.__qualname__ = "arun", "Agent.arun"
_arun.__doc__ = """Runs one turn on a hermes.Runtime and returns its result dict, as
run_conversation() does. Use with await:

    result = await agent.arun("What is 2 + 40?")

runtime: the hermes.Runtime to run on (None: hermes.Runtime.shared()). The other keyword
arguments are run_conversation()'s. The turn runs without the GIL; callbacks and Python
tools run on the runtime's threads. Raises hermes.HermesError at once when the agent is
busy. Cancelling the awaiting task interrupts the turn and waits for it to stop."""
_astream.__name__, _astream.__qualname__ = "astream", "Agent.astream"
_astream.__doc__ = """Runs one turn on a hermes.Runtime and returns a hermes.AsyncTurnStream
of its text deltas, for async for; its result attribute holds the result dict afterwards.

    stream = agent.astream("Tell me a story.")
    async for delta in stream:
        print(delta, end="")
    print(stream.result["api_calls"])

Keyword arguments as arun(). Cancelling the iterating task, aclose() or dropping the stream
unfinished interrupts the turn (see hermes.AsyncTurnStream)."""
Agent.arun = _arun
Agent.astream = _astream
