"""hermes from Python: one tool, one question.

    OPENAI_API_KEY=sk-... python3 minimal.py "What is 1234 + 5678?"

HERMES_MCP_CONFIG names an mcp.json file whose MCP servers add their tools.
"""
import json
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


def mcp_servers():
    """The "mcpServers" object of the file HERMES_MCP_CONFIG names, or None."""
    path = os.environ.get("HERMES_MCP_CONFIG")
    if not path:
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)["mcpServers"]


def main():
    agent = hermes.Agent(
        model=os.environ.get("HERMES_MODEL", "gpt-4.1-mini"),
        base_url=os.environ.get("OPENAI_BASE_URL", "https://api.openai.com/v1"),
        api_key=os.environ.get("OPENAI_API_KEY"),
        tools=[(add, ADD)],
        mcp_servers=mcp_servers(),
        persist_sessions=False,
    )
    question = sys.argv[1] if len(sys.argv) > 1 else "What is 1234 + 5678? Use the add tool."
    result = agent.run_conversation(question)
    if not result["completed"]:
        print("turn failed:", result["exit_reason"], result.get("error", ""), file=sys.stderr)
        return 1
    print(result["final_response"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
