"""hermes through its Python module, as a contender of the agent benchmark.

Runs the same conversations as `bench_agent hermes` (see bench_agent_main.cpp) and prints
one JSON line per measured run:

    PYTHONPATH=build/ci/python python3 benchmarks/agent/bench_agent.py \
        --server http://127.0.0.1:PORT --history DIR/history-100.json --steps 8 --stream 1
"""
import argparse
import itertools
import json
import os
import resource
import sys
import tempfile
import time

import hermes

ADD_SCHEMA = {
    "type": "object",
    "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
    "required": ["a", "b"],
}


def add(args):
    return {"sum": args["a"] + args["b"]}


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--history", required=True)
    parser.add_argument("--opening", required=True)
    parser.add_argument("--steps", type=int, default=8)
    parser.add_argument("--stream", default="1")
    parser.add_argument("--store", default="0")
    parser.add_argument("--conversations", type=int, default=10)
    parser.add_argument("--runs", type=int, default=1)
    return parser.parse_args()


def main():
    args = parse_args()
    with open(args.history) as f:
        history = json.load(f)
    with open(args.opening) as f:
        opening = json.load(f)
    with tempfile.TemporaryDirectory(prefix="hermes-bench-") as home:
        run(args, history, opening, home)


def run(args, history, opening, home):
    store = hermes.SessionStore(os.path.join(home, "state.db")) if args.store == "1" else None
    tool = hermes.Tool(add, name="add", description="Add two numbers and return their sum.",
                       parameters=ADD_SCHEMA, toolset="bench")
    keys = itertools.count()

    def conversation():
        url = f"{args.server}/c/py-{os.getpid()}-{next(keys)}/v1"
        agent = hermes.Agent(model="bench-model", provider="custom", base_url=url,
                             api_key="sk-bench", home=home, tools=[tool],
                             enabled_toolsets=["bench"], stream=args.stream == "1",
                             persist_sessions=store is not None, session_store=store,
                             context_length=1_000_000)
        result = agent.run_conversation(opening, conversation_history=history)
        if not result["completed"] or result["api_calls"] != args.steps:
            sys.exit(f"hermes (python): turn failed: {result.get('exit_reason')} "
                     f"{result.get('error', '')} after {result.get('api_calls')} calls")

    conversation()  # Warm-up.
    name = "hermes_py_store" if store is not None else "hermes_py"
    for _ in range(args.runs):
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(args.conversations):
            conversation()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        steps = args.conversations * args.steps
        print(json.dumps({
            "contender": name, "history": len(history), "stream": args.stream == "1",
            "steps": args.steps, "steps_done": steps,
            "wall_per_step_us": wall * 1e6 / steps, "cpu_per_step_us": cpu * 1e6 / steps,
            "steps_per_s": steps / wall,
            "peak_rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        }), flush=True)


if __name__ == "__main__":
    main()
