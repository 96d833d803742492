// Terminal commands run without the secrets of the process that embeds hermes, unless
// the embedder passes them through by name.
#include "safety/secret_env.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include "support/scoped_env.hpp"
#include "tools/builtin_toolsets.hpp"
#include "tools/process_runner.hpp"
#include "unit/tools/tool_harness.hpp"

using namespace hermes;
using hermes::internal::is_secret_env;

TEST_CASE("variables named like credentials are secrets; the shell's own are not") {
  for (const char* name : {"OPENAI_API_KEY",
                           "ANTHROPIC_API_KEY",
                           "OPENROUTER_API_KEY",
                           "GITHUB_TOKEN",
                           "GH_TOKEN",
                           "HF_TOKEN",
                           "github_token",
                           "AWS_ACCESS_KEY_ID",
                           "AWS_SECRET_ACCESS_KEY",
                           "AWS_SESSION_TOKEN",
                           "AWS_BEARER_TOKEN_BEDROCK",
                           "GOOGLE_APPLICATION_CREDENTIALS",
                           "AZURE_CLIENT_ID",
                           "AZURE_TENANT_ID",
                           "DB_PASSWORD",
                           "MYSQL_PWD",
                           "CLIENTSECRET",
                           "SLACK_SIGNING_SECRET",
                           "STRIPE_KEY",
                           "GITHUB_APP_PRIVATE_KEY_PATH",
                           "APIKEY"}) {
    CAPTURE(name);
    CHECK(is_secret_env(name, "x"));
  }
  for (const char* name : {"PATH", "HOME", "PWD", "OLDPWD", "SSH_AUTH_SOCK", "TERM", "LANG",
                           "TOKENIZERS_PARALLELISM", "KEYBOARD_LAYOUT", "XDG_SESSION_TYPE",
                           "HERMES_HOME", "OPENAI_BASE_URL", "AWS_REGION", "AWS_PROFILE"}) {
    CAPTURE(name);
    CHECK_FALSE(is_secret_env(name, "x"));
  }
  CHECK(is_secret_env("DATABASE_URL", "postgres://app:pw@db:5432/app"));
  CHECK_FALSE(is_secret_env("DATABASE_URL", "postgres://db:5432/app"));
  CHECK_FALSE(is_secret_env("HTTPS_PROXY", "http://proxy.internal:3128"));
}

TEST_CASE("the command environment drops secrets, keeps what is passed through or set") {
  testing::ScopedEnv env;
  env.set("OPENAI_API_KEY", "sk-hidden")
      .set("HERMES_PROBE_TOKEN", "passed")
      .set("PROBE_PLAIN", "1");
  TerminalOptions options;
  options.env_passthrough = {"HERMES_PROBE_TOKEN"};
  options.environment = {{"DEPLOY_PASSWORD", "explicit"}};
  const std::vector<std::string> got = internal::command_environment(options);
  auto has = [&](const std::string& entry) {
    return std::find(got.begin(), got.end(), entry) != got.end();
  };
  CHECK_FALSE(has("OPENAI_API_KEY=sk-hidden"));
  CHECK(has("HERMES_PROBE_TOKEN=passed"));
  CHECK(has("PROBE_PLAIN=1"));
  CHECK(has("DEPLOY_PASSWORD=explicit"));
  CHECK(std::any_of(got.begin(), got.end(),
                    [](const std::string& e) { return e.rfind("PATH=", 0) == 0; }));
}

TEST_CASE("a command the model runs cannot print the embedder's keys") {
  testing::ScopedEnv env;
  env.set("ANTHROPIC_API_KEY", "sk-ant-hidden-value")
      .set("AWS_SECRET_ACCESS_KEY", "aws-hidden-value");
  testing::TempDir dir;
  TerminalOptions options;
  options.workdir = std::filesystem::canonical(dir.path()).string();
  auto tools = internal::terminal_tools(options, ApprovalOptions{});
  testing::ToolHarness h;
  Json result = h.call_json(testing::spec_named(tools, "terminal"),
                            {{"command", "env; echo \"[$ANTHROPIC_API_KEY]\""}});
  const std::string output = result["output"].get<std::string>();
  CHECK(output.find("hidden-value") == std::string::npos);
  CHECK(output.find("ANTHROPIC_API_KEY") == std::string::npos);
  CHECK(output.find("[]") != std::string::npos);
}
