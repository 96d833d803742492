"""Skills as slash commands: listing them, building the /<skill> message, running the turn."""
import json
import os
import shutil
from pathlib import Path

import pytest

import hermes
from helpers import make_agent, tool_results

FIXTURES = Path(os.environ.get("HERMES_FIXTURES_DIR", Path(__file__).parents[3] / "tests" / "fixtures"))


def install(skills_root, directory, fixture):
    """Copies a SKILL.md fixture to <skills_root>/<directory>/SKILL.md."""
    target = Path(skills_root) / directory
    target.mkdir(parents=True)
    shutil.copy(FIXTURES / "tools" / fixture, target / "SKILL.md")
    return target


@pytest.fixture
def home(tmp_path):
    install(tmp_path / "skills", "release-notes", "release_notes_SKILL.md")
    install(tmp_path / "skills" / "devops", "deploy-staging", "deploy_staging_SKILL.md")
    return tmp_path


def test_the_commands_of_a_home_are_keyed_by_slash_slug(home):
    commands = hermes.get_skill_commands(home)
    assert set(commands) == {"/deploy-staging", "/release-notes"}
    assert commands["/deploy-staging"] == {
        "name": "deploy-staging",
        "description": "Deploy the current branch to the staging cluster.",
    }


def test_the_home_defaults_to_hermes_home(home, monkeypatch):
    monkeypatch.setenv("HERMES_HOME", str(home))
    assert set(hermes.get_skill_commands()) == {"/deploy-staging", "/release-notes"}


def test_disabled_skills_are_left_out_and_external_dirs_add_theirs(home, tmp_path_factory):
    shared = tmp_path_factory.mktemp("shared-skills")
    install(shared, "team-notes", "release_notes_SKILL.md")  # Also named release-notes.
    (shared / "team-notes" / "SKILL.md").write_text(
        (shared / "team-notes" / "SKILL.md").read_text().replace("name: release-notes", "name: team-notes")
    )
    commands = hermes.get_skill_commands(home, external_dirs=[shared], disabled=["deploy-staging"])
    assert list(commands) == ["/release-notes", "/team-notes"]


def test_the_message_carries_the_skill_its_directory_and_the_instruction(home):
    message = hermes.build_skill_invocation_message("/release-notes", "for v2.1 only", home=home)
    assert message.startswith('[IMPORTANT: The user has invoked the "release-notes" skill')
    assert "group them by area" in message
    assert "[Skill directory: %s]" % (home / "skills" / "release-notes") in message
    assert message.endswith(
        "The user has provided the following instruction alongside the skill invocation: for v2.1 only"
    )


def test_a_command_may_drop_the_slash_and_use_underscores(home):
    expected = hermes.build_skill_invocation_message("/deploy-staging", home=home)
    assert expected is not None
    assert hermes.build_skill_invocation_message("deploy_staging", home=home) == expected
    assert "instruction alongside" not in expected


def test_supporting_files_are_listed_and_the_session_id_is_filled_in(home):
    skill = home / "skills" / "release-notes"
    (skill / "templates").mkdir()
    (skill / "templates" / "notes.md").write_text("# Notes\n")
    with open(skill / "SKILL.md", "a") as f:
        f.write("Record the run as ${HERMES_SESSION_ID}.\n")
    message = hermes.build_skill_invocation_message("release-notes", home=home, session_id="s-42")
    assert "- templates/notes.md" in message
    assert "Record the run as s-42." in message


def test_an_unknown_or_disabled_skill_gives_none(home):
    assert hermes.build_skill_invocation_message("/no-such-skill", home=home) is None
    assert hermes.build_skill_invocation_message("/release-notes", home=home, disabled=["release-notes"]) is None


def test_bad_arguments_raise_type_errors(home):
    with pytest.raises(TypeError):
        hermes.get_skill_commands(home, external_dirs="/one/dir/not/a/list")
    with pytest.raises(TypeError):
        hermes.build_skill_invocation_message("/release-notes", home=home, disabled="release-notes")
    with pytest.raises(TypeError):
        hermes.build_skill_invocation_message(None, home=home)


def test_skill_names_slugify_as_the_cli_does():
    assert hermes.slugify_skill_name("Deploy Staging!") == "deploy-staging"
    assert hermes.slugify_skill_name("git_helper") == "git_helper"
    assert hermes.slugify_skill_name("--a  b--") == "a-b"


def test_run_skill_sends_the_skill_message_as_the_turns_user_message(mock_server, home):
    mock_server.enqueue({"chat_text": "Here are the notes.", "stream": True})
    agent = make_agent(mock_server, home)
    expected = hermes.build_skill_invocation_message(
        "/release-notes", "for v2.1 only", home=home, session_id=agent.session_id
    )

    result = agent.run_skill("release_notes", "for v2.1 only")

    assert result["completed"] is True
    assert result["final_response"] == "Here are the notes."
    first = result["messages"][0]
    assert (first["role"], first["content"]) == ("user", expected)
    sent = mock_server.requests()
    assert len(sent) == 1
    assert '"for v2.1 only"' not in sent[0]["body"]  # Inside the skill message, not alone.
    assert "group them by area" in sent[0]["body"]


def test_run_skill_with_an_unknown_name_raises_and_calls_no_model(mock_server, home):
    agent = make_agent(mock_server, home)
    with pytest.raises(hermes.NotFoundError, match="no-such-skill"):
        agent.run_skill("/no-such-skill")
    assert mock_server.requests() == []
    # The agent is free again for the next call.
    mock_server.enqueue({"chat_text": "Hello.", "stream": True})
    assert agent.chat("Hi") == "Hello."


def test_an_agents_skills_setting_reaches_run_skill_and_its_tools(mock_server, home, tmp_path_factory):
    shared = tmp_path_factory.mktemp("shared-skills")
    install(shared, "team-notes", "release_notes_SKILL.md")
    (shared / "team-notes" / "SKILL.md").write_text(
        (shared / "team-notes" / "SKILL.md").read_text().replace("name: release-notes", "name: team-notes")
    )
    mock_server.enqueue(
        {"chat_tool_calls": [{"id": "list", "name": "skills_list", "arguments": {}}], "stream": True},
        {"chat_text": "Done.", "stream": True},
    )
    agent = make_agent(mock_server, home, skills={"external_dirs": [shared], "disabled": ["deploy-staging"]})

    with pytest.raises(hermes.NotFoundError):
        agent.run_skill("/deploy-staging")
    result = agent.run_skill("/team-notes")

    assert result["completed"] is True
    assert '"team-notes" skill' in result["messages"][0]["content"]
    listed = [s["name"] for s in json.loads(tool_results(result)[0])["skills"]]
    assert sorted(listed) == ["release-notes", "team-notes"]


def test_a_malformed_skills_setting_is_refused(mock_server, home):
    with pytest.raises(ValueError, match="extenal_dirs"):
        make_agent(mock_server, home, skills={"extenal_dirs": ["/x"]})
    with pytest.raises(TypeError, match="skills.disabled"):
        make_agent(mock_server, home, skills={"disabled": "deploy-staging"})
    with pytest.raises(TypeError, match="skills.template_vars"):
        make_agent(mock_server, home, skills={"template_vars": "yes"})
    with pytest.raises(TypeError, match="skills"):
        make_agent(mock_server, home, skills=["/x"])
