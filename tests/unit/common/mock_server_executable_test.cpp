// hermes-mock-server as the tests of the other languages use it: a child process that
// reports its port, is scripted over its control API and exits when told.
#include <doctest/doctest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "hermes/json.hpp"
#include "support/loopback_client.hpp"
#include "support/temp_dir.hpp"

extern char** environ;

using hermes::Json;
using hermes::testing::HttpReply;
using hermes::testing::LoopbackClient;

namespace {

const std::string kExecutableFixtures = HERMES_FIXTURES_DIR "/mock_server/";

std::string read_all(int fd) {
  std::string text;
  char buffer[4096];
  ssize_t got;
  while ((got = read(fd, buffer, sizeof buffer)) > 0)
    text.append(buffer, static_cast<std::size_t>(got));
  return text;
}

// The executable running as a child, with its stdout and stderr read through pipes.
class MockServerProcess {
 public:
  explicit MockServerProcess(std::vector<std::string> args) {
    args.insert(args.begin(), HERMES_MOCK_SERVER);
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    int out[2];
    int err[2];
    REQUIRE(pipe(out) == 0);
    REQUIRE(pipe(err) == 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    posix_spawn_file_actions_addclose(&actions, err[0]);
    int spawned = posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(out[1]);
    close(err[1]);
    stdout_ = fdopen(out[0], "r");
    stderr_fd_ = err[0];
    REQUIRE(spawned == 0);
  }

  ~MockServerProcess() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (stdout_ != nullptr) fclose(stdout_);
    close(stderr_fd_);
  }

  // The first line of stdout ("" when the process wrote nothing before exiting).
  std::string first_line() {
    char line[256];
    if (std::fgets(line, sizeof line, stdout_) == nullptr) return "";
    return line;
  }

  // The port from the "PORT=<n>" line.
  int port() {
    std::string line = first_line();
    REQUIRE(line.rfind("PORT=", 0) == 0);
    REQUIRE(line.back() == '\n');
    return std::stoi(line.substr(5));
  }

  // Waits for the exit and returns the exit status (-1 when killed by a signal).
  int wait_exit() {
    int status = 0;
    REQUIRE(waitpid(pid_, &status, 0) == pid_);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  void signal(int number) { kill(pid_, number); }
  std::string stdout_rest() { return read_all(fileno(stdout_)); }
  std::string stderr_text() { return read_all(stderr_fd_); }

 private:
  pid_t pid_ = -1;
  FILE* stdout_ = nullptr;
  int stderr_fd_ = -1;
};

}  // namespace

TEST_CASE("the executable reports its port, obeys its control API and shuts down on request") {
  MockServerProcess process({"--quiet"});
  int port = process.port();
  {
    LoopbackClient client(port);
    HttpReply queued = client.request(
        "POST", "/_mock/enqueue",
        R"({"chat_text": "from the child", "stream": true, "usage": {"prompt_tokens": 4}})");
    CHECK(queued.status == 200);
    CHECK(Json::parse(client.request("GET", "/_mock/pending").body)["pending"] == 1);

    HttpReply reply = client.request("POST", "/v1/chat/completions", R"({"stream":true})",
                                     {{"Authorization", "Bearer k"}});
    CHECK(reply.status == 200);
    CHECK(reply.complete);
    CHECK(reply.body.find(R"("content":" the")") != std::string::npos);
    CHECK(reply.chunks.back() == "data: [DONE]\n\n");

    Json requests = Json::parse(client.request("GET", "/_mock/requests").body);
    REQUIRE(requests.size() == 1);
    CHECK(requests[0]["path"] == "/v1/chat/completions");
    CHECK(requests[0]["body"] == R"({"stream":true})");
    CHECK(requests[0]["headers"]["authorization"] == "Bearer k");

    CHECK(client.request("POST", "/_mock/shutdown").status == 200);
  }
  CHECK(process.wait_exit() == 0);
  CHECK(process.stdout_rest().empty());  // "PORT=" is the only line on stdout.
  CHECK(process.stderr_text().empty());  // --quiet.
}

TEST_CASE("the executable serves a script in a loop, with its default for other paths") {
  MockServerProcess process({"--script", kExecutableFixtures + "loop_script.json", "--loop"});
  int port = process.port();
  {
    LoopbackClient client(port);
    std::vector<std::string> answers;
    for (int i = 0; i < 3; ++i)
      answers.push_back(client.request("POST", "/v1/chat/completions").body);
    CHECK(answers[0].find(R"("content":"first")") != std::string::npos);
    CHECK(answers[1].find(R"("content":"second")") != std::string::npos);
    CHECK(answers[2].find(R"("content":"first")") != std::string::npos);
    HttpReply other = client.request("GET", "/v1/files");
    CHECK(other.status == 503);
    CHECK(Json::parse(other.body)["error"]["message"] == "no script for this path");
    CHECK(Json::parse(client.request("GET", "/_mock/pending").body)["pending"] == 2);
  }
  process.signal(SIGTERM);
  CHECK(process.wait_exit() == 0);
  CHECK(process.stderr_text().find("GET /v1/files -> 503") != std::string::npos);
}

TEST_CASE("the executable stops on SIGINT") {
  MockServerProcess process({"--quiet", "--port", "0"});
  process.port();
  process.signal(SIGINT);
  CHECK(process.wait_exit() == 0);
}

TEST_CASE("the executable refuses a bad script, naming the problem") {
  hermes::testing::TempDir dir;
  {
    std::FILE* file = std::fopen(dir.file("bad.json").c_str(), "w");
    REQUIRE(file != nullptr);
    std::fputs(R"([{"chat_text": "ok"}, {"chat_txt": "typo"}])", file);
    std::fclose(file);
  }
  MockServerProcess process({"--script", dir.file("bad.json")});
  CHECK(process.first_line().empty());
  CHECK(process.wait_exit() == 2);
  std::string error = process.stderr_text();
  CHECK(error.find("response 1") != std::string::npos);
  CHECK(error.find("\"chat_txt\"") != std::string::npos);
}

TEST_CASE("the executable refuses unknown flags") {
  MockServerProcess process({"--colour"});
  CHECK(process.wait_exit() == 2);
  CHECK(process.stderr_text().find("usage:") != std::string::npos);
}
