// Which environment variables hold secrets, so that the processes hermes starts on a
// model's behalf (terminal commands, MCP servers) do not inherit the keys of the process
// that embeds it. A command the model runs can print its environment, and what it prints
// goes to the model provider and into the session store.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::internal {

// Whether the variable `name` (with `value`) is a secret: a name with a word TOKEN, KEY,
// APIKEY, SECRET, PASSWORD, PASSWD, CREDENTIAL(S) or PWD in it (OPENAI_API_KEY,
// GITHUB_TOKEN, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, MYSQL_PWD, CLIENTSECRET), any
// AZURE_ variable, GOOGLE_APPLICATION_CREDENTIALS, and a *_URL, *_URI or *_DSN whose
// value carries a password (postgres://user:pass@host). Names are compared in upper case.
bool is_secret_env(std::string_view name, std::string_view value);

// This process's environment without its secrets, except the variables named in
// `pass_through`, which are kept as they are.
std::map<std::string, std::string> inherited_environment(
    const std::vector<std::string>& pass_through);

}  // namespace hermes::internal
