// hermes-batch run on files against the mock model server.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <set>
#include <vector>

#include "cli/cli_harness.hpp"
#include "cli/pty_session.hpp"
#include "support/scoped_env.hpp"

namespace hermes::testing {
namespace {

std::vector<Json> read_lines(const std::string& path) {
  std::vector<Json> lines;
  std::istringstream in(read_text(path));
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(Json::parse(line));
  }
  return lines;
}

int run_batch(const CliHarness& h, const std::vector<std::string>& args) {
  PtySession run(HERMES_BATCH_BINARY, args, h.env());
  std::optional<int> status = run.wait_exit(std::chrono::seconds(120));
  REQUIRE(status.has_value());
  return *status;
}

}  // namespace

TEST_CASE("each prompt becomes one ShareGPT trajectory line with its tool calls and results") {
  CliHarness h;
  h.script("todo_then_answer.json");
  h.script("plain_answer.json");
  const std::string out = h.home.file("out.jsonl");
  PtySession run(HERMES_BATCH_BINARY,
                 {"--input", cli_fixture("batch_prompts.jsonl"), "--output", out, "--workers", "1",
                  "--toolsets", "todo"},
                 h.env());
  CHECK(run.expect("batch_prompts.jsonl:2: not valid JSON; skipped"));
  CHECK(run.expect("batch_prompts.jsonl:4: \"prompt\" must be a non-empty string; skipped"));
  CHECK(run.expect("2 prompts: 2 completed, 0 failed, 0 skipped"));
  CHECK(run.wait_exit() == 1);  // Broken lines make the run unclean, though every prompt ran.

  std::vector<Json> lines = read_lines(out);
  REQUIRE(lines.size() == 2);
  const Json& picnic = lines[0];
  CHECK(picnic["id"] == "picnic");
  CHECK(picnic["completed"] == true);
  CHECK(picnic["api_calls"] == 2);
  CHECK(picnic["usage"]["input_tokens"] == 460);
  CHECK(picnic["tool_stats"]["todo_list"]["calls"] == 1);
  const Json& conv = picnic["conversations"];
  REQUIRE(conv.size() == 5);
  CHECK(conv[0]["from"] == "system");
  CHECK(conv[0]["value"].get<std::string>().find("\"name\":\"todo_list\"") != std::string::npos);
  CHECK(conv[1] == Json{{"from", "human"}, {"value", "Make me a picnic list"}});
  CHECK(conv[2]["from"] == "gpt");
  CHECK(conv[2]["value"].get<std::string>().find(
            "<think>\n</think>\n<tool_call>\n{\"name\":\"todo_list\"") == 0);
  CHECK(conv[3]["from"] == "tool");
  CHECK(conv[3]["value"].get<std::string>().find(
            "<tool_response>\n{\"tool_call_id\":\"call_todo_1\"") == 0);
  CHECK(conv[4] ==
        Json{{"from", "gpt"},
             {"value", "<think>\n</think>\nYour list has one item: pack the picnic basket."}});
  CHECK(lines[1]["id"] == "capital");
  CHECK(lines[1]["conversations"].size() == 3);
}

TEST_CASE("trajectories are written with secrets masked, to a file only the user can read") {
  CliHarness h;
  h.script("secret_in_answer.json");
  write_text(h.home.file("prompts.jsonl"),
             "{\"id\": \"keys\", \"prompt\": \"Rotate the key ghp_abcdefghij0123456789ABCD\"}\n");
  const std::string out = h.home.file("out.jsonl");
  {
    ScopedUmask open_umask(0);
    CHECK(run_batch(h, {"--input", h.home.file("prompts.jsonl"), "--output", out, "--toolsets",
                        "todo"}) == 0);
  }
  const std::string text = read_text(out);
  for (const char* secret : {"ghp_1234567890abcdefghijklmnopqrst", "ghp_abcdefghij0123456789ABCD",
                             "sk-proj-abcdefghijklmnopqrstuvwx1234", "Hunter2Hunter2"}) {
    CAPTURE(secret);
    CHECK(text.find(secret) == std::string::npos);
  }
  CHECK(text.find("Rotated. The old key was sk-pro") != std::string::npos);
  struct stat info {};
  REQUIRE(::stat(out.c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0600);
}

TEST_CASE("by default a batch offers no shell, no file tools and no memory") {
  CliHarness h;
  h.script("plain_answer.json");
  write_text(h.home.file("prompts.jsonl"), "{\"id\": \"only\", \"prompt\": \"hello\"}\n");
  const std::string out = h.home.file("out.jsonl");
  CHECK(run_batch(h, {"--input", h.home.file("prompts.jsonl"), "--output", out}) == 0);
  std::vector<Json> lines = read_lines(out);
  REQUIRE(lines.size() == 1);
  const std::string system = lines[0]["conversations"][0]["value"].get<std::string>();
  CHECK(system.find("\"name\":\"todo_list\"") != std::string::npos);
  for (const char* tool : {"terminal", "process_manage", "write_file", "patch", "read_file",
                           "memory", "delegate_task"}) {
    CAPTURE(tool);
    CHECK(system.find(std::string("\"name\":\"") + tool + "\"") == std::string::npos);
  }
}

TEST_CASE("a batch resumes: prompts already in the output are not run again") {
  CliHarness h;
  h.script("plain_answer.json");
  const std::string out = h.home.file("out.jsonl");
  // A finished "picnic" line and a line cut short by a crash.
  write_text(out, "{\"id\": \"picnic\", \"completed\": true}\n{\"id\": \"capi");
  PtySession run(HERMES_BATCH_BINARY,
                 {"--input", cli_fixture("batch_prompts.jsonl"), "--output", out}, h.env());
  CHECK(run.expect("1 completed, 0 failed, 1 skipped"));
  run.wait_exit();
  CHECK(h.server.request_count() == 1);
  std::vector<std::string> ids;
  std::istringstream in(read_text(out));
  for (std::string line; std::getline(in, line);) {
    Json j = Json::parse(line, nullptr, false);
    if (!j.is_discarded()) ids.push_back(j["id"]);
  }
  CHECK(ids == std::vector<std::string>{"picnic", "capital"});
}

TEST_CASE("prompts run in parallel workers and every one is written once") {
  CliHarness h;
  h.server.set_default(
      mock_response_from_json(Json{{"chat_text", "ok"}, {"stream", true}}).value());
  std::string prompts;
  for (int i = 0; i < 7; ++i)
    prompts += "{\"id\": \"p" + std::to_string(i) + "\", \"prompt\": \"hello\"}\n";
  write_text(h.home.file("prompts.jsonl"), prompts);
  const std::string out = h.home.file("out.jsonl");
  CHECK(run_batch(
            h, {"--input", h.home.file("prompts.jsonl"), "--output", out, "--workers", "3"}) == 0);
  std::set<std::string> ids;
  for (const Json& line : read_lines(out)) {
    CHECK(line["completed"] == true);
    ids.insert(line["id"].get<std::string>());
  }
  CHECK(ids.size() == 7);
  CHECK(read_lines(out).size() == 7);
}

TEST_CASE(
    "a prompt whose model call fails is written as not completed and the exit status says so") {
  CliHarness h;
  h.server.set_default(mock_response_from_json(Json{{"chat_error",
                                                     {{"status", 401},
                                                      {"message", "Incorrect API key provided"},
                                                      {"code", "invalid_api_key"}}}})
                           .value());
  write_text(h.home.file("prompts.jsonl"), "{\"id\": \"only\", \"prompt\": \"hello\"}\n");
  const std::string out = h.home.file("out.jsonl");
  CHECK(run_batch(h, {"--input", h.home.file("prompts.jsonl"), "--output", out}) == 1);
  std::vector<Json> lines = read_lines(out);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0]["completed"] == false);
  CHECK_FALSE(lines[0]["exit_reason"].get<std::string>().empty());
}

}  // namespace hermes::testing

namespace hermes::testing {

TEST_CASE("with OTEL_EXPORTER_OTLP_ENDPOINT set, each prompt's spans reach the collector") {
  CliHarness h;
  h.script("plain_answer.json");
  OtlpCollector collector;
  write_text(h.home.file("prompts.jsonl"),
             "{\"id\": \"one\", \"prompt\": \"Capital of France?\"}\n");
  std::map<std::string, std::string> env = h.env();
  env["OTEL_EXPORTER_OTLP_ENDPOINT"] = collector.server.url();
  env["OTEL_SERVICE_NAME"] = "batch-under-test";
  PtySession run(HERMES_BATCH_BINARY,
                 {"--input", h.home.file("prompts.jsonl"), "--output", h.home.file("out.jsonl"),
                  "--workers", "1"},
                 env);
  CHECK(run.wait_exit(std::chrono::seconds(120)) == 0);

  // The exporter is flushed at exit: the turn's spans are there, under the service name.
  const auto [service, names] = collector.spans();
  CHECK(service == "batch-under-test");
  CHECK(names.count("invoke_agent hermes") == 1);
  CHECK(names.count("hermes.step") == 1);
  CHECK(names.count("chat test-model") == 1);
}

}  // namespace hermes::testing
