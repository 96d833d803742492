"""Streaming from Python: text as it arrives, tool calls as they run.

    OPENAI_API_KEY=sk-... python3 streaming.py "What is 1234 + 5678?"

Leaving the for loop early interrupts the turn.
"""
import os
import sys

import hermes


def add(args):
    return {"sum": args["a"] + args["b"]}


ADD = {
    "name": "add",
    "description": "Add two numbers and return their sum.",
    "parameters": {
        "type": "object",
        "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
        "required": ["a", "b"],
    },
}


def main():
    agent = hermes.Agent(
        model=os.environ.get("HERMES_MODEL", "gpt-4.1-mini"),
        base_url=os.environ.get("OPENAI_BASE_URL", "https://api.openai.com/v1"),
        api_key=os.environ.get("OPENAI_API_KEY"),
        tools=[(add, ADD)],
        persist_sessions=False,
    )
    question = sys.argv[1] if len(sys.argv) > 1 else "What is 1234 + 5678? Use the add tool."
    for event in agent.stream(question):
        if event["type"] == "text":
            print(event["text"], end="", flush=True)
        elif event["type"] == "done":
            print("\n", event["result"]["api_calls"], "model calls")
    return 0


if __name__ == "__main__":
    sys.exit(main())
