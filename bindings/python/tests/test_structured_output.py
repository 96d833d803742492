"""Structured output from Python: output_schema= takes a dict or a pydantic-style class,
the parsed answer is result["output"], and a bad schema is refused before any call."""
import json

import pytest

import hermes

SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "population": {"type": "integer"}},
    "required": ["city", "population"],
    "additionalProperties": False,
}


class CityAnswer:
    """Stands in for a pydantic model: the binding only calls model_json_schema()."""

    @classmethod
    def model_json_schema(cls):
        return SCHEMA


def make_agent(mock_server, tmp_path, **kwargs):
    return hermes.Agent(model="mock-model", base_url=mock_server.base_url, api_key="sk-test",
                        home=str(tmp_path), persist_sessions=False, **kwargs)


@pytest.mark.parametrize("schema", [SCHEMA, CityAnswer], ids=["dict", "class"])
def test_the_answer_is_parsed_into_output(mock_server, tmp_path, schema):
    mock_server.enqueue({"chat_text": '{"city": "Paris"}', "stream": True},
                        {"chat_text": '{"city": "Paris", "population": 2100000}', "stream": True})
    agent = make_agent(mock_server, tmp_path, output_schema=schema, output_name="city")
    result = agent.run_conversation("Which city?")
    assert result["completed"] is True, result.get("error")
    assert result["output"] == {"city": "Paris", "population": 2100000}
    sent = mock_server.requests()
    assert len(sent) == 2  # One repair round.
    body = json.loads(sent[0]["body"])
    assert body["response_format"]["json_schema"] == {"name": "city", "schema": SCHEMA, "strict": True}


def test_without_a_schema_there_is_no_output(mock_server, tmp_path):
    mock_server.enqueue({"chat_text": "Plain.", "stream": True})
    result = make_agent(mock_server, tmp_path).run_conversation("Hi")
    assert "output" not in result


def test_a_bad_schema_is_refused_before_any_call(mock_server, tmp_path):
    with pytest.raises(ValueError, match="output.schema: the answer must be a JSON object"):
        make_agent(mock_server, tmp_path, output_schema={"type": "string"})
    with pytest.raises(TypeError, match="output_schema: expected a JSON Schema dict"):
        make_agent(mock_server, tmp_path, output_schema=["not", "a", "schema"])
    assert mock_server.requests() == []


def test_a_schema_for_one_turn(mock_server, tmp_path):
    mock_server.enqueue({"chat_text": '{"city": "Paris", "population": 2100000}', "stream": True},
                        {"chat_text": "Just words.", "stream": True})
    agent = make_agent(mock_server, tmp_path)
    result = agent.run_conversation("Which city?", output_schema=CityAnswer)
    assert result["output"] == {"city": "Paris", "population": 2100000}
    assert "output" not in agent.run_conversation("And now?")
    sent = [json.loads(r["body"]) for r in mock_server.requests()]
    assert "response_format" in sent[0] and "response_format" not in sent[1]
    with pytest.raises(TypeError, match="output_schema: expected a JSON Schema dict"):
        agent.run_conversation("Bad", output_schema=42)
