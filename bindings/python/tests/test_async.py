"""Agent.arun() and Agent.astream(): turns on a hermes.Runtime, awaited from asyncio."""
import asyncio
import threading

import pytest

import hermes
from helpers import make_agent

ADD_SCHEMA = {"name": "add", "description": "Add two numbers.",
              "parameters": {"type": "object",
                             "properties": {"a": {"type": "number"}, "b": {"type": "number"}}}}


def slow_answer(seconds=60):
    """A model call still waiting for its first byte until the turn is interrupted."""
    return {"chat_text": "Too late.", "stream": True, "first_byte_delay_ms": seconds * 1000}


async def until(predicate, timeout=10):
    """Waits on the loop (without blocking it) until predicate() holds."""
    for _ in range(int(timeout / 0.01)):
        if predicate():
            return True
        await asyncio.sleep(0.01)
    return predicate()


def test_many_agents_run_at_once_on_one_runtime(mock_server, tmp_path):
    # Each agent has its own path on the server, so that its tool call and its answer
    # reach it whatever the interleaving.
    count = 12
    for i in range(count):
        prefix = "/a%d/" % i
        mock_server.enqueue(
            {"chat_tool_calls": [{"id": "c%d" % i, "name": "add", "arguments": {"a": i, "b": 40}}],
             "stream": True, "first_byte_delay_ms": 300, "path_prefix": prefix},
            {"chat_text": "The sum is %d." % (i + 40), "stream": True, "path_prefix": prefix})
    tool_threads = set()

    def add(args):
        tool_threads.add(threading.get_ident())
        return {"sum": args["a"] + args["b"]}

    agents = [hermes.Agent(model="mock-model", base_url="%s/a%d/v1" % (mock_server.url, i),
                           api_key="sk-test", home=str(tmp_path), persist_sessions=False,
                           background_review=False, context_length=64000,
                           tools=[(add, ADD_SCHEMA)])
              for i in range(count)]

    async def main():
        with hermes.Runtime(io_threads=1, tool_workers=4) as runtime:
            most = 0

            def watch():
                nonlocal most
                most = max(most, runtime.stats()["transfers"])
                return False

            turns = asyncio.gather(*(a.arun("What is %d + 40?" % i, runtime=runtime)
                                     for i, a in enumerate(agents)))
            # The loop keeps running while the turns wait for the model: the GIL is free.
            watcher = asyncio.ensure_future(until(watch, timeout=30))
            results = await turns
            watcher.cancel()
            return results, most, runtime.stats()

    results, most, stats = asyncio.run(main())
    assert [r["final_response"] for r in results] == ["The sum is %d." % (i + 40) for i in range(count)]
    assert all(r["completed"] and r["api_calls"] == 2 for r in results)
    assert most == count  # Every turn's model call was in flight at the same time.
    assert stats["turns_started"] == count
    assert threading.get_ident() not in tool_threads


def test_arun_returns_what_run_conversation_returns(mock_server, tmp_path):
    mock_server.enqueue({"chat_text": "Hello there.", "stream": True},
                        {"chat_text": "Hello there.", "stream": True})
    agent = make_agent(mock_server, tmp_path, persist_sessions=False)
    other = make_agent(mock_server, tmp_path, persist_sessions=False)
    expected = other.run_conversation("Hi", system_message="Be brief.")
    result = asyncio.run(agent.arun("Hi", system_message="Be brief."))  # The shared runtime.
    assert type(result) is dict
    assert set(result) == set(expected)
    assert result["final_response"] == expected["final_response"] == "Hello there."
    assert hermes.Runtime.shared() is hermes.Runtime.shared()
    assert hermes.Runtime.shared().stats()["turns_started"] >= 1


def test_astream_yields_the_deltas_of_the_final_answer(mock_server, tmp_path):
    mock_server.enqueue({"chat_text": "One two three four five.", "stream": True})
    agent = make_agent(mock_server, tmp_path, persist_sessions=False)

    async def main():
        stream = agent.astream("Count.")
        assert stream.result is None
        deltas = [delta async for delta in stream]
        return deltas, stream.result

    deltas, result = asyncio.run(main())
    assert len(deltas) > 1 and all(isinstance(d, str) for d in deltas)
    assert "".join(deltas) == result["final_response"] == "One two three four five."
    assert result["completed"] is True


def test_cancelling_the_awaiting_task_interrupts_the_turn(mock_server, tmp_path):
    mock_server.enqueue(slow_answer(), {"chat_text": "Still here.", "stream": True})
    agent = make_agent(mock_server, tmp_path, persist_sessions=False)

    async def main():
        with hermes.Runtime() as runtime:
            task = asyncio.ensure_future(agent.arun("Wait.", runtime=runtime))
            assert await until(lambda: runtime.stats()["transfers"] == 1)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await asyncio.wait_for(task, 10)  # Not the minute the model would take.
            # The turn has ended: the agent takes the next one at once.
            again = await asyncio.wait_for(agent.arun("Again.", runtime=runtime), 10)
            return again, agent.history

    again, history = asyncio.run(main())
    assert again["final_response"] == "Still here."
    assert [m["content"] for m in history if m["role"] == "user"] == ["Wait.", "Again."]


def test_a_second_turn_is_refused_while_one_runs(mock_server, tmp_path):
    mock_server.enqueue(slow_answer())
    agent = make_agent(mock_server, tmp_path, persist_sessions=False)

    async def main():
        with hermes.Runtime() as runtime:
            first = asyncio.ensure_future(agent.arun("Wait.", runtime=runtime))
            await asyncio.sleep(0)
            with pytest.raises(hermes.HermesError, match="busy"):
                await agent.arun("Me too.", runtime=runtime)
            with pytest.raises(hermes.HermesError, match="busy"):
                agent.chat("And me.")
            assert await until(lambda: runtime.stats()["transfers"] == 1)
            agent.interrupt()
            return await asyncio.wait_for(first, 10)

    result = asyncio.run(main())
    assert result["interrupted"] is True


def test_leaving_an_astream_early_interrupts_the_turn(mock_server, tmp_path):
    mock_server.enqueue({"chat_text": "Word " * 50, "stream": True, "chunk_delay_ms": 200},
                        {"chat_text": "Next.", "stream": True})
    agent = make_agent(mock_server, tmp_path, persist_sessions=False)

    async def main():
        async with agent.astream("Talk.") as stream:
            async for delta in stream:
                assert delta.strip() == "Word"
                break
        # aclose() waited for the turn: the agent is free, long before the 10 s stream ends.
        return stream.result, await asyncio.wait_for(agent.arun("Next?"), 5)

    interrupted, after = asyncio.run(main())
    assert interrupted is None
    assert after["final_response"] == "Next."


def test_closing_the_runtime_ends_its_turns(mock_server, tmp_path):
    mock_server.enqueue(slow_answer())
    agent = make_agent(mock_server, tmp_path, persist_sessions=False)

    async def main():
        runtime = hermes.Runtime(tool_workers=2)
        task = asyncio.ensure_future(agent.arun("Wait.", runtime=runtime))
        assert await until(lambda: runtime.stats()["transfers"] == 1)
        runtime.close()
        runtime.close()
        with pytest.raises(hermes.HermesError, match="closed"):
            runtime.stats()
        with pytest.raises(hermes.HermesError, match="closed"):
            await agent.arun("Again.", runtime=runtime)
        return await asyncio.wait_for(task, 10)

    result = asyncio.run(main())
    assert result["interrupted"] is True


def test_runtime_arguments_are_checked():
    with pytest.raises(hermes.InvalidArgumentError, match="io_threads"):
        hermes.Runtime(io_threads=0)
    with pytest.raises(hermes.InvalidArgumentError, match="tool_workers"):
        hermes.Runtime(tool_workers=5000)
    with pytest.raises(hermes.InvalidArgumentError, match="stack_bytes"):
        hermes.Runtime(stack_bytes=-1)
    with pytest.raises(TypeError):
        hermes.Runtime(2)  # Keywords only.
    with pytest.raises(hermes.HermesError, match="shared"):
        hermes.Runtime.shared().close()
    runtime = hermes.Runtime(io_threads=2, tool_workers=3)
    assert (runtime.io_threads, runtime.tool_workers) == (2, 3)
    assert runtime.stats() == {"turns_running": 0, "transfers": 0, "tool_jobs": 0,
                               "turns_started": 0}
    runtime.close()


def test_bad_turn_arguments_raise_before_anything_runs(tmp_path):
    agent = hermes.Agent(model="m", base_url="http://127.0.0.1:9/v1", home=str(tmp_path),
                         persist_sessions=False)

    async def main():
        with pytest.raises(TypeError, match="runtime"):
            await agent.arun("Hi", runtime="fast")
        with pytest.raises(ValueError, match="conversation_history"):
            await agent.arun("Hi", conversation_history=[{"role": "robot"}])
        with pytest.raises(TypeError):
            await agent.arun("Hi", temperature=0.5)

    asyncio.run(main())
    coroutine = agent.arun("Hi")
    with pytest.raises(RuntimeError, match="no running event loop"):
        coroutine.send(None)
