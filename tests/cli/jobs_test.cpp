// hermes-jobs --once with a fixed clock (--now) against the mock model server.
#include <doctest/doctest.h>

#include "cli/cli_harness.hpp"
#include "cli/pty_session.hpp"

namespace hermes::testing {
namespace {

struct JobsRun {
  int status = -1;
  std::string screen;
};

JobsRun run_jobs(const CliHarness& h, const std::string& now) {
  PtySession run(HERMES_JOBS_BINARY, {"--once", "--now", now}, h.env());
  std::optional<int> status = run.wait_exit(std::chrono::seconds(120));
  REQUIRE(status.has_value());
  return {*status, run.screen()};
}

Json state_of(const CliHarness& h) {
  return Json::parse(read_text(h.home.file("jobs_state.json")));
}

struct JobsHarness : CliHarness {
  JobsHarness() {
    write_text(home.file("jobs.json"), read_text(cli_fixture("jobs.json")));
    server.set_default(
        mock_response_from_json(Json{{"chat_text", "All quiet."}, {"stream", true}}).value());
  }
};

}  // namespace

TEST_CASE("a job seen for the first time is scheduled, not run") {
  JobsHarness h;
  run_jobs(h, "2024-05-01T10:02:00Z");
  CHECK(h.server.request_count() == 0);
  Json state = state_of(h);
  CHECK(state["jobs"]["every-five"]["next_run_at"] == "2024-05-01T10:05:00Z");
  CHECK(state["jobs"]["half-hourly"]["next_run_at"] == "2024-05-01T10:32:00Z");
}

TEST_CASE("malformed jobs are named with their key and the valid jobs still run") {
  JobsHarness h;
  JobsRun first = run_jobs(h, "2024-05-01T10:02:00Z");
  CHECK(first.screen.find("job \"bad-minute\": \"schedule\": bad minute field \"61\"") !=
        std::string::npos);
  CHECK(first.screen.find("job \"typo\": unknown key \"toolset\"") != std::string::npos);
  CHECK(first.screen.find("job #5: \"id\" must be a non-empty string") != std::string::npos);
  CHECK(first.status == 1);
  run_jobs(h, "2024-05-01T10:05:30Z");
  CHECK(h.server.request_count() == 1);
  CHECK_FALSE(state_of(h)["jobs"].contains("bad-minute"));
}

TEST_CASE(
    "a due job runs once per slot, across restarts, and its answer is appended to its output") {
  JobsHarness h;
  run_jobs(h, "2024-05-01T10:02:00Z");
  run_jobs(h, "2024-05-01T10:05:30Z");
  REQUIRE(h.server.request_count() == 1);
  CHECK(h.server.requests()[0].json()["messages"].dump().find("five-minute status") !=
        std::string::npos);
  const std::string output = read_text(h.home.file("jobs/output/every-five.md"));
  CHECK(output.find("## every-five \xE2\x80\x94 2024-05-01T10:05:00Z\n\nAll quiet.") !=
        std::string::npos);
  Json record = state_of(h)["jobs"]["every-five"];
  CHECK(record["last_run_at"] == "2024-05-01T10:05:00Z");
  CHECK(record["next_run_at"] == "2024-05-01T10:10:00Z");
  CHECK(record["last_status"] == "ok");

  // A restart within the same slot runs nothing.
  run_jobs(h, "2024-05-01T10:06:00Z");
  CHECK(h.server.request_count() == 1);

  // Later both jobs are due; each runs once.
  run_jobs(h, "2024-05-01T10:40:00Z");
  CHECK(h.server.request_count() == 3);
  CHECK(read_text(h.home.file("jobs/output/digest.md")).find("All quiet.") != std::string::npos);
  CHECK(state_of(h)["jobs"]["half-hourly"]["next_run_at"] == "2024-05-01T11:10:00Z");
}

TEST_CASE("a job whose run fails is recorded as failed with the reason, and exits non-zero") {
  JobsHarness h;
  h.server.set_default(mock_response_from_json(Json{{"chat_error",
                                                     {{"status", 401},
                                                      {"message", "Incorrect API key provided"},
                                                      {"code", "invalid_api_key"}}}})
                           .value());
  write_text(h.home.file("jobs.json"),
             R"({"jobs": [{"id": "nightly", "prompt": "Report.", "schedule": "0 2 * * *"}]})");
  run_jobs(h, "2024-05-01T01:00:00Z");
  JobsRun r = run_jobs(h, "2024-05-01T02:00:10Z");
  CHECK(r.status == 1);
  Json record = state_of(h)["jobs"]["nightly"];
  CHECK(record["last_status"] == "failed");
  CHECK_FALSE(record["last_error"].get<std::string>().empty());
  CHECK(record["next_run_at"] == "2024-05-02T02:00:00Z");
  CHECK(read_text(h.home.file("jobs/output/nightly.md")).find("(failed)") != std::string::npos);
}

}  // namespace hermes::testing
