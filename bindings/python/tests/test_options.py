"""The options document: every option of tests/fixtures/options/every_option.json reaches
the agent through options=, and a bad document is refused naming the option."""
import json
import os
from pathlib import Path

import pytest

import hermes

FIXTURES = Path(os.environ.get("HERMES_FIXTURES_DIR", Path(__file__).resolve().parents[3] / "tests" / "fixtures"))
FIXTURE = FIXTURES / "options" / "every_option.json"


def leaf_names(document, prefix=""):
    names = set()
    for key, value in document.items():
        name = f"{prefix}.{key}" if prefix else key
        # An option whose value is an object (a schema) is a leaf.
        names |= leaf_names(value, name) if isinstance(value, dict) and name != "output.schema" else {name}
    return names


def every_option(tmp_path):
    document = json.loads(FIXTURE.read_text())
    # The agent makes its home: one of the test's own.
    document["home"] = str(tmp_path)
    return document


def test_the_description_names_every_option_of_the_fixture():
    described = hermes.describe_options()
    assert {option["name"] for option in described} == leaf_names(json.loads(FIXTURE.read_text()))
    threshold = next(o for o in described if o["name"] == "compression.threshold_percent")
    assert threshold["type"] == "number" and threshold["default"] == 0.5
    assert threshold["maximum"] == 1 and threshold["exclusive_minimum"] is True
    assert next(o for o in described if o["name"] == "tool_use.approvals.mode")["values"][0] == "manual"


@pytest.mark.parametrize("as_text", [False, True])
def test_every_option_reaches_the_agent(tmp_path, as_text):
    document = every_option(tmp_path)
    agent = hermes.Agent(options=json.dumps(document) if as_text else document)
    assert agent.options == document


def test_a_keyword_beside_the_document_wins(tmp_path):
    agent = hermes.Agent(options={"provider": {"model": "from-document"}, "max_iterations": 5,
                                  "home": str(tmp_path), "persistence": {"enabled": False}},
                         max_iterations=7)
    assert agent.options["provider"]["model"] == "from-document"
    assert agent.options["max_iterations"] == 7


def test_a_bad_document_names_the_option(tmp_path):
    base = {"provider": {"model": "m"}, "home": str(tmp_path), "persistence": {"enabled": False}}
    with pytest.raises(ValueError, match=r"options: compression\.threshold_percent: must be at most 1"):
        hermes.Agent(options={**base, "compression": {"threshold_percent": 2}})
    with pytest.raises(ValueError, match=r"options: modle: unknown option"):
        hermes.Agent(options={**base, "modle": "x"})
    with pytest.raises(ValueError, match="options: not valid JSON text"):
        hermes.Agent(options="{")
    with pytest.raises(TypeError, match="options: expected a dict"):
        hermes.Agent(options=["model"])
    with pytest.raises(TypeError, match="missing required keyword argument 'model'"):
        hermes.Agent(options={"home": str(tmp_path)})


def test_durability_is_a_keyword_and_an_option(tmp_path):
    base = {"model": "m", "home": str(tmp_path), "persist_sessions": False}
    assert hermes.Agent(**base).options["persistence"]["durability"] == "full"
    assert hermes.Agent(**base, durability="normal").options["persistence"]["durability"] == "normal"
    with pytest.raises(ValueError, match="durability: expected 'full' or 'normal'"):
        hermes.Agent(**base, durability="eventually")
