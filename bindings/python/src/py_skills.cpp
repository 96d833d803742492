// Skills as slash commands, for Python front ends (a chat UI, a bot) that offer
// `/<skill-name> [instruction]` the way the hermes CLI does: list the commands, then turn
// one into the user message of a turn.
#include <pybind11/stl.h>

#include "hermes/home.hpp"
#include "hermes/skills.hpp"
#include "py_common.hpp"

namespace py = pybind11;

namespace hermes::python {
namespace {

// A list of str (or, for directories, os.PathLike) values.
std::vector<std::string> string_list(const py::object& value, const char* name) {
  std::vector<std::string> out;
  if (value.is_none()) return out;
  // A lone string is iterable too, and would become one entry per character.
  if (py::isinstance<py::str>(value) || !py::isinstance<py::iterable>(value)) {
    throw py::type_error(std::string(name) + ": expected a list, not " +
                         std::string(py::str(py::type::of(value).attr("__name__"))));
  }
  for (const py::handle& item : value) out.push_back(py::str(item));
  return out;
}

std::string home_or_default(const py::object& home) {
  return home.is_none() ? default_home() : std::string(py::str(home));
}

SkillsOptions skills_options(const py::object& external_dirs, const py::object& disabled) {
  SkillsOptions options;
  options.external_dirs = string_list(external_dirs, "external_dirs");
  options.disabled = string_list(disabled, "disabled");
  return options;
}

py::dict skill_commands(const py::object& home, const py::object& external_dirs,
                        const py::object& disabled) {
  const std::string dir = home_or_default(home);
  const SkillsOptions options = skills_options(external_dirs, disabled);
  const std::vector<SkillCommand> commands = [&] {
    py::gil_scoped_release release;  // Reads every SKILL.md.
    return list_skill_commands(dir, options);
  }();
  py::dict out;
  for (const SkillCommand& c : commands) {
    py::dict entry;
    entry["name"] = c.name;
    entry["description"] = c.description;
    out[py::str(c.command)] = std::move(entry);
  }
  return out;
}

py::object invocation_message(const std::string& command, const std::string& instruction,
                              const py::object& home, const py::object& session_id,
                              const py::object& external_dirs, const py::object& disabled) {
  const std::string dir = home_or_default(home);
  const SkillsOptions options = skills_options(external_dirs, disabled);
  const std::string session = session_id.is_none() ? "" : session_id.cast<std::string>();
  Result<std::string> message = [&] {
    py::gil_scoped_release release;
    return build_skill_invocation_message(dir, options, command, instruction, session);
  }();
  // Upstream's callers test the message for None: an unknown command is not an error.
  if (message.status().code() == StatusCode::kNotFound) return py::none();
  if (!message.ok()) raise_status(message.status());
  return py::str(*message);
}

}  // namespace

void register_skills(py::module_& m) {
  m.def("get_skill_commands", &skill_commands, py::arg("home") = py::none(), py::kw_only(),
        py::arg("external_dirs") = py::none(), py::arg("disabled") = py::none(),
        R"doc(The skills a user can invoke as slash commands.

Returns {"/<slug>": {"name", "description"}} in lookup order: the skills under
<home>/skills first, then those of `external_dirs`; when two skills share a slug the first
wins. Skills named in `disabled`, skills for another OS and skills with a broken SKILL.md
are left out. `home` defaults to $HERMES_HOME, else ~/.hermes.)doc");
  m.def("build_skill_invocation_message", &invocation_message, py::arg("command"),
        py::arg("user_instruction") = "", py::kw_only(), py::arg("home") = py::none(),
        py::arg("session_id") = py::none(), py::arg("external_dirs") = py::none(),
        py::arg("disabled") = py::none(),
        R"doc(The user message of a `/<skill-name> [instruction]` turn, or None.

`command` is a key of get_skill_commands() ("/deploy-staging"); the slash may be left out
and "_" stands for "-". The message carries the skill's full SKILL.md, its directory and
supporting files, and `user_instruction`; send it as the turn's user message
(Agent.run_conversation), or use Agent.run_skill. `session_id` fills ${HERMES_SESSION_ID}
in the skill's text. None when no enabled skill answers to `command`.)doc");
  m.def(
      "slugify_skill_name", [](const std::string& name) { return skill_command_slug(name); },
      py::arg("name"),
      "The slash-command slug of a skill name: lower case, spaces to '-', characters other "
      "than letters, digits, '_' and '-' dropped, repeated '-' collapsed (\"Deploy Staging!\" "
      "-> \"deploy-staging\").");
}

}  // namespace hermes::python
