// The hermes CLI (and hermes-batch and hermes-jobs, which choose the same way) picks its
// model service from the environment or --provider: each provider's key is read from its
// own variable and sent the way that service expects, and a missing or wrong setting
// stops the program with one line naming what to set.
#include <doctest/doctest.h>

#include <filesystem>

#include "cli/cli_harness.hpp"
#include "cli/pty_session.hpp"
#include "support/mock_responses.hpp"

namespace hermes::testing {
namespace {

// A home and the mock server, and no key or provider variable: each test adds its own.
std::map<std::string, std::string> bare_env(const CliHarness& h) {
  auto env = h.env();
  env.erase("OPENAI_API_KEY");
  env.erase("OPENAI_BASE_URL");
  return env;
}

// The model call among the requests (a context-length probe may come first).
std::optional<RecordedRequest> model_call(const CliHarness& h) {
  for (const RecordedRequest& request : h.server.requests()) {
    if (request.method == "POST") return request;
  }
  return std::nullopt;
}

bool home_is_empty(const CliHarness& h) {
  return std::filesystem::is_empty(h.home.path());
}

}  // namespace

TEST_CASE("ANTHROPIC_API_KEY alone selects Anthropic Messages, with the key in x-api-key") {
  CliHarness h;
  h.server.enqueue(anthropic::text("The capital of France is Paris.", true));
  auto env = bare_env(h);
  env["ANTHROPIC_API_KEY"] = "sk-ant-test";
  env["HERMES_BASE_URL"] = h.server.base_url();
  PtySession cli(HERMES_CLI_BINARY, {"-q", "Capital of France?"}, env);
  CHECK(cli.expect("Paris."));
  CHECK(cli.wait_exit() == 0);
  auto call = model_call(h);
  REQUIRE(call);
  CHECK(call->path == "/v1/messages");
  CHECK(call->header("x-api-key") == "sk-ant-test");
  CHECK(call->header("authorization").empty());
  CHECK(call->json()["model"] == "test-model");
}

TEST_CASE("OPENROUTER_API_KEY alone selects Chat Completions, with a bearer token") {
  CliHarness h;
  h.server.enqueue(chat::text("The capital of France is Paris.", true));
  auto env = bare_env(h);
  env["OPENROUTER_API_KEY"] = "sk-or-test";
  env["HERMES_BASE_URL"] = h.server.base_url();
  PtySession cli(HERMES_CLI_BINARY, {"-q", "Capital of France?"}, env);
  CHECK(cli.expect("Paris."));
  CHECK(cli.wait_exit() == 0);
  auto call = model_call(h);
  REQUIRE(call);
  CHECK(call->path == "/v1/chat/completions");
  CHECK(call->header("authorization") == "Bearer sk-or-test");
  CHECK(call->header("x-api-key").empty());
}

TEST_CASE("OPENAI_API_KEY with OPENAI_BASE_URL is sent as a bearer token, as before") {
  CliHarness h;
  h.server.enqueue(chat::text("The capital of France is Paris.", true));
  PtySession cli(HERMES_CLI_BINARY, {"-q", "Capital of France?"}, h.env());
  CHECK(cli.expect("Paris."));
  CHECK(cli.wait_exit() == 0);
  auto call = model_call(h);
  REQUIRE(call);
  CHECK(call->path == "/v1/chat/completions");
  CHECK(call->header("authorization") == "Bearer sk-test-key");
}

TEST_CASE("--provider picks the provider when several keys are set") {
  CliHarness h;
  h.server.enqueue(anthropic::text("The capital of France is Paris.", true));
  auto env = h.env();
  env["ANTHROPIC_API_KEY"] = "sk-ant-test";
  env["HERMES_BASE_URL"] = h.server.base_url();
  PtySession cli(HERMES_CLI_BINARY, {"--provider", "anthropic", "-q", "Capital?"}, env);
  CHECK(cli.expect("Paris."));
  CHECK(cli.wait_exit() == 0);
  auto call = model_call(h);
  REQUIRE(call);
  CHECK(call->path == "/v1/messages");
  CHECK(call->header("x-api-key") == "sk-ant-test");
}

TEST_CASE("a local server preset runs without a key and sends none") {
  CliHarness h;
  h.server.enqueue(chat::text("The capital of France is Paris.", true));
  auto env = bare_env(h);
  env["HERMES_PROVIDER"] = "llamacpp";
  PtySession cli(HERMES_CLI_BINARY, {"--base-url", h.server.base_url(), "-q", "Capital?"}, env);
  CHECK(cli.expect("Paris."));
  CHECK(cli.wait_exit() == 0);
  auto call = model_call(h);
  REQUIRE(call);
  CHECK(call->header("authorization").empty());
}

TEST_CASE("with no key set the CLI names the variables to set, exits 2 and writes nothing") {
  CliHarness h;
  PtySession cli(HERMES_CLI_BINARY, {"-q", "Capital?"}, bare_env(h));
  CHECK(
      cli.expect("no API key found: set one of OPENAI_API_KEY, ANTHROPIC_API_KEY, "
                 "OPENROUTER_API_KEY, NOUS_API_KEY"));
  CHECK(cli.wait_exit() == 2);
  CHECK(h.server.request_count() == 0);
  CHECK(home_is_empty(h));
}

TEST_CASE("a provider whose key is missing names its variable") {
  CliHarness h;
  PtySession cli(HERMES_CLI_BINARY, {"--provider", "anthropic", "-q", "Capital?"}, h.env());
  CHECK(cli.expect("provider anthropic needs an API key: set ANTHROPIC_API_KEY"));
  CHECK(cli.wait_exit() == 2);
  CHECK(h.server.request_count() == 0);
}

TEST_CASE("an unknown provider name lists the known ones") {
  CliHarness h;
  auto env = h.env();
  env["HERMES_PROVIDER"] = "antropic";
  PtySession cli(HERMES_CLI_BINARY, {"-q", "Capital?"}, env);
  CHECK(
      cli.expect("unknown provider 'antropic' (HERMES_PROVIDER); choose one of: openai, "
                 "anthropic, openrouter, nous, ollama, vllm, llamacpp, custom"));
  CHECK(cli.wait_exit() == 2);
  CHECK(home_is_empty(h));
}

TEST_CASE("a base URL without a scheme is refused with an example of one") {
  CliHarness h;
  PtySession cli(HERMES_CLI_BINARY, {"--base-url", "localhost:8080/v1", "-q", "Capital?"}, h.env());
  CHECK(cli.expect("base URL 'localhost:8080/v1' (--base-url) has no http:// or https:// scheme"));
  CHECK(cli.wait_exit() == 2);
}

TEST_CASE("an unknown api mode is refused") {
  CliHarness h;
  PtySession cli(HERMES_CLI_BINARY, {"--api-mode", "messages", "-q", "Capital?"}, h.env());
  CHECK(cli.expect("unknown api mode 'messages' (--api-mode)"));
  CHECK(cli.wait_exit() == 2);
}

TEST_CASE("--help lists every provider with its key variable") {
  CliHarness h;
  PtySession cli(HERMES_CLI_BINARY, {"--help"}, bare_env(h));
  CHECK(cli.wait_exit() == 0);
  CHECK(cli.screen().find("--provider NAME") != std::string::npos);
  for (const char* line : {"openai       OPENAI_API_KEY", "anthropic    ANTHROPIC_API_KEY",
                           "openrouter   OPENROUTER_API_KEY", "nous         NOUS_API_KEY",
                           "ollama       OLLAMA_API_KEY (optional)", "vllm", "llamacpp"}) {
    CAPTURE(line);
    CHECK(cli.screen().find(line) != std::string::npos);
  }
}

TEST_CASE("hermes-batch takes an Anthropic key alone and sends it as Anthropic expects") {
  CliHarness h;
  h.server.enqueue(anthropic::text("The capital of France is Paris.", true));
  const std::string prompts = h.home.file("prompts.jsonl");
  const std::string out = h.home.file("out.jsonl");
  write_text(prompts, "{\"id\": \"q\", \"prompt\": \"Capital of France?\"}\n");
  auto env = bare_env(h);
  env["ANTHROPIC_API_KEY"] = "sk-ant-test";
  env["HERMES_BASE_URL"] = h.server.base_url();
  PtySession run(HERMES_BATCH_BINARY, {"--input", prompts, "--output", out, "--quiet"}, env);
  CHECK(run.wait_exit(std::chrono::seconds(120)) == 0);
  auto call = model_call(h);
  REQUIRE(call);
  CHECK(call->path == "/v1/messages");
  CHECK(call->header("x-api-key") == "sk-ant-test");
  CHECK(read_text(out).find("Paris.") != std::string::npos);
}

TEST_CASE("hermes-batch without a key names the variables, exits 2 and writes no output") {
  CliHarness h;
  const std::string prompts = h.home.file("prompts.jsonl");
  const std::string out = h.home.file("out.jsonl");
  write_text(prompts, "{\"id\": \"q\", \"prompt\": \"Capital of France?\"}\n");
  PtySession run(HERMES_BATCH_BINARY, {"--input", prompts, "--output", out}, bare_env(h));
  CHECK(run.expect("hermes-batch: no API key found: set one of OPENAI_API_KEY"));
  CHECK(run.wait_exit() == 2);
  CHECK(h.server.request_count() == 0);
  CHECK_FALSE(std::filesystem::exists(out));
}

TEST_CASE("hermes-jobs names a chosen provider's missing key and starts with it set") {
  CliHarness h;
  auto env = bare_env(h);
  {
    PtySession run(HERMES_JOBS_BINARY, {"--once", "--provider", "openrouter"}, env);
    CHECK(run.expect("hermes-jobs: provider openrouter needs an API key: set OPENROUTER_API_KEY"));
    CHECK(run.wait_exit() == 2);
  }
  env["OPENROUTER_API_KEY"] = "sk-or-test";
  PtySession run(HERMES_JOBS_BINARY, {"--once", "--provider", "openrouter"}, env);
  CHECK(run.wait_exit() == 0);  // No jobs file: nothing is due.
  CHECK(h.server.request_count() == 0);
}

TEST_CASE("hermes-batch and hermes-jobs list the providers in their help") {
  CliHarness h;
  for (const char* program : {HERMES_BATCH_BINARY, HERMES_JOBS_BINARY}) {
    CAPTURE(program);
    PtySession run(program, {"--help"}, bare_env(h));
    CHECK(run.wait_exit() == 0);
    CHECK(run.screen().find("anthropic    ANTHROPIC_API_KEY") != std::string::npos);
    CHECK(run.screen().find("{providers}") == std::string::npos);
  }
}

}  // namespace hermes::testing
