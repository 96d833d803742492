#include "faults/fault_run.hpp"

#include <doctest/doctest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>

#include "faults/process_resources.hpp"
#include "faults/transcript_audit.hpp"
#include "hermes/hermes.hpp"
#include "support/temp_dir.hpp"

namespace hermes::testing {
namespace {

using namespace std::chrono_literals;

constexpr const char* kSessionId = "fault-matrix-session";
constexpr const char* kBackupModel = "backup-model";
constexpr std::string_view kWaitingPrefix = "Operation interrupted: waiting for model response (";

// Short enough that the matrix runs in seconds, long enough that a loaded machine
// answers a healthy loopback request well within them.
HttpTimeouts short_timeouts() {
  HttpTimeouts t;
  t.connect = 2s;
  t.first_byte = 1500ms;
  t.idle = 1500ms;
  t.total = 20s;
  return t;
}

// An address where nothing listens: a port bound and released again.
std::string refusing_base_url() {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t length = sizeof address;
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  close(fd);
  return "http://127.0.0.1:" + std::to_string(ntohs(address.sin_port)) + "/v1";
}

// Earlier turns of the session, so that a compaction has something to summarise.
std::vector<Message> earlier_turns() {
  std::vector<Message> history;
  const char* topics[] = {"tides", "volcanoes", "glaciers", "deserts"};
  for (const char* topic : topics) {
    history.push_back(Message::user(std::string("Tell me something about ") + topic + "."));
    history.push_back(Message::assistant(std::string("Here is a fact about ") + topic +
                                         ": they shape the planet over long times."));
  }
  return history;
}

void seed_session(const std::string& home) {
  auto store = open_sqlite_store(default_state_db_path(home));
  REQUIRE_MESSAGE(store.ok(), store.status().to_string());
  SessionInfo info;
  info.id = kSessionId;
  info.model = "mock-model";
  REQUIRE((*store)->create_session(info).ok());
  REQUIRE((*store)->append_messages(kSessionId, earlier_turns()).ok());
}

std::shared_ptr<ToolRegistry> adding_tools(std::shared_ptr<std::atomic<int>> calls) {
  auto tools = std::make_shared<ToolRegistry>();
  ToolSpec add;
  add.name = "add";
  add.description = "Add two numbers.";
  add.parameters = Json::parse(
      R"({"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}})");
  add.handler = [calls](const Json& args, ToolContext&) -> Result<std::string> {
    ++*calls;
    return Json{{"sum", args.value("a", 0.0) + args.value("b", 0.0)}}.dump();
  };
  REQUIRE(tools->register_tool(add).ok());
  return tools;
}

struct Notices {
  std::mutex mutex;
  std::vector<std::pair<std::string, std::string>> seen;  // kind, text
  std::string streamed;

  bool has(std::string_view kind, std::string_view text = "") {
    std::lock_guard lock(mutex);
    return std::any_of(seen.begin(), seen.end(), [&](const auto& notice) {
      return notice.first == kind && notice.second.find(text) != std::string::npos;
    });
  }
};

// One case: the serving endpoint, the agent's home, the agent, what it reported.
class CaseRun {
 public:
  CaseRun(const FaultCase& fault, Wire wire, bool stream)
      : fault_(fault), wire_(wire), script_(wire, stream) {}

  void run();
  void check_outcome();
  void check_transcript();

 private:
  AgentOptions options();
  void check_recovery(Recovery recovery);
  void check_interrupted();

  const FaultCase& fault_;
  Wire wire_;
  WireScript script_;
  MockServer server_;
  TempDir home_;
  std::shared_ptr<std::atomic<int>> tool_calls_ = std::make_shared<std::atomic<int>>(0);
  std::shared_ptr<Notices> notices_ = std::make_shared<Notices>();
  // The running agent, for callbacks that interrupt it; null outside run_conversation.
  std::shared_ptr<std::atomic<Agent*>> running_ = std::make_shared<std::atomic<Agent*>>(nullptr);
  ConversationResult result_;
};

AgentOptions CaseRun::options() {
  AgentOptions o;
  o.provider.model = "mock-model";
  o.provider.api_mode = std::string(api_mode(wire_));
  o.provider.base_url = fault_.primary_refuses ? refusing_base_url() : server_.base_url();
  o.provider.api_key = "key-one";
  if (fault_.two_keys) o.failover.extra_api_keys = {"key-two"};
  if (fault_.with_fallback) {
    ProviderConfig backup;
    backup.api_mode = o.provider.api_mode;
    backup.provider = "backup";
    backup.base_url = server_.base_url();
    backup.api_key = "key-backup";
    backup.model = kBackupModel;
    backup.timeouts = short_timeouts();
    o.failover.fallback_providers = {backup};
  }
  o.provider.timeouts = short_timeouts();
  o.failover.backoff = {1ms, 10ms, 1ms, 10ms};
  o.request.stream = script_.stream();
  o.home = home_.path();
  o.persistence.session_id = kSessionId;
  o.tools = adding_tools(tool_calls_);
  o.compression.context_length = 200'000;  // Known, so nothing probes the endpoint.
  o.compression.protect_last_n = 4;
  std::shared_ptr<Notices> notices = notices_;
  o.callbacks.on_status = [notices](std::string_view kind, std::string_view text) {
    std::lock_guard lock(notices->mutex);
    notices->seen.emplace_back(kind, text);
  };
  const bool interrupt = fault_.interrupt;
  std::shared_ptr<std::atomic<Agent*>> running = running_;
  o.callbacks.on_stream_delta = [notices, interrupt, running](std::string_view delta) {
    std::lock_guard lock(notices->mutex);
    notices->streamed.append(delta);
    Agent* agent = running->load();
    if (interrupt && agent && notices->streamed.find(kInterruptedText) != std::string::npos) {
      agent->interrupt("stop");
    }
  };
  return o;
}

// Without a stream, the interrupt comes once the stalled request (the second model call)
// has arrived.
void interrupt_at_second_call(MockServer& server, std::shared_ptr<std::atomic<Agent*>> running) {
  auto calls = std::make_shared<std::atomic<int>>(0);
  server.on_request([calls, running](const RecordedRequest&, int) {
    Agent* agent = running->load();
    if (++*calls == 2 && agent) agent->interrupt("stop");
  });
}

void CaseRun::run() {
  std::vector<MockResponse> responses{script_.tool_call(first_tool_call())};
  for (MockResponse& r : fault_.script(script_)) responses.push_back(std::move(r));
  server_.enqueue(std::move(responses));
  seed_session(home_.path());
  auto agent = Agent::create(options());
  REQUIRE_MESSAGE(agent.ok(), agent.status().to_string());
  if (fault_.interrupt && !script_.stream()) interrupt_at_second_call(server_, running_);
  running_->store(agent->get());
  result_ = (*agent)->run_conversation(kQuestion);
  running_->store(nullptr);
}

void CaseRun::check_interrupted() {
  CHECK(result_.interrupted);
  CHECK_FALSE(result_.completed);
  CHECK(result_.exit_reason == fault_.exit_reason);
  CHECK(result_.interrupt_message == "stop");
  REQUIRE_FALSE(result_.messages.empty());
  const Message& last = result_.messages.back();
  CHECK(last.role == Role::kAssistant);
  // Text streamed before the interrupt is kept as the answer; without any, the answer
  // says the turn was interrupted waiting for the model.
  if (script_.stream()) {
    CHECK(result_.final_response == kInterruptedText);
  } else {
    CHECK(result_.final_response.value_or("").rfind(kWaitingPrefix, 0) == 0);
  }
  CHECK(last.content == result_.final_response.value_or("<no answer>"));
}

void CaseRun::check_recovery(Recovery recovery) {
  CHECK_MESSAGE(result_.completed, result_.error);
  CHECK(result_.final_response == kFinalAnswer);
  const bool rotated = notices_->has("retry", "next API key");
  const bool compacted = notices_->has("lifecycle", "compacted");
  const bool fell_back = notices_->has("fallback");
  CHECK(rotated == (recovery == Recovery::kRotate));
  CHECK(compacted == (recovery == Recovery::kCompress));
  CHECK(fell_back == (recovery == Recovery::kFallback));
  if (recovery == Recovery::kRetry) CHECK(notices_->has("retry"));
  const std::vector<RecordedRequest> requests = server_.requests();
  REQUIRE_FALSE(requests.empty());
  const std::string last_key =
      requests.back().header("authorization") + requests.back().header("x-api-key");
  if (recovery == Recovery::kRotate) CHECK(last_key.find("key-two") != std::string::npos);
  if (recovery == Recovery::kFallback) {
    CHECK(result_.model == kBackupModel);
    CHECK(requests.back().json().value("model", "") == kBackupModel);
    CHECK(last_key.find("key-backup") != std::string::npos);
  }
}

// The requests the server answered, one line each, for a failure message.
std::string describe_requests(const MockServer& server) {
  std::string text;
  for (const RecordedRequest& request : server.requests()) {
    const Json body = request.json();
    const Json& messages = body.contains("messages") ? body["messages"] : body["input"];
    text += "\n  " + request.path + " stream=" + body.value("stream", Json(false)).dump() +
            " messages=" + std::to_string(messages.size());
  }
  return text;
}

void CaseRun::check_outcome() {
  INFO("requests:", describe_requests(server_));
  CHECK_MESSAGE(server_.pending() == 0, "scripted responses left unserved: " << server_.pending());
  if (fault_.recovery) {
    check_recovery(*fault_.recovery);
  } else if (fault_.interrupt) {
    check_interrupted();
  } else {
    CHECK_FALSE(result_.completed);
    CHECK(result_.failed);
    CHECK(result_.failure_reason == fault_.failure_reason);
    CHECK(result_.exit_reason == fault_.exit_reason);
  }
  CHECK(tool_calls_->load() == fault_.tool_runs);
}

// Every session of the store (the one compaction ended too) is sound on its own.
void check_every_session(SessionStore& store) {
  ListOptions all;
  all.limit = 100;
  auto sessions = store.list_sessions(all);
  REQUIRE_MESSAGE(sessions.ok(), sessions.status().to_string());
  for (const SessionInfo& session : *sessions) {
    INFO("session ", session.id);
    auto stored = store.load_messages(session.id);
    REQUIRE_MESSAGE(stored.ok(), stored.status().to_string());
    for (const std::string& problem : transcript_problems(*stored, *stored)) FAIL_CHECK(problem);
    CHECK(session.message_count == static_cast<int64_t>(stored->size()));
  }
}

void CaseRun::check_transcript() {
  auto store = open_sqlite_store(default_state_db_path(home_.path()));
  REQUIRE_MESSAGE(store.ok(), store.status().to_string());
  check_every_session(**store);
  if (fault_.recovery == Recovery::kCompress) {
    // The conversation continues in a child of the compacted session, which is ended.
    CHECK(result_.session_id != kSessionId);
    auto child = (*store)->get_session(result_.session_id);
    REQUIRE_MESSAGE(child.ok(), child.status().to_string());
    CHECK(child->parent_session_id == kSessionId);
    auto parent = (*store)->get_session(kSessionId);
    REQUIRE_MESSAGE(parent.ok(), parent.status().to_string());
    CHECK(parent->end_reason == "compression");
  } else {
    CHECK(result_.session_id == kSessionId);
  }
  auto stored = (*store)->load_messages(result_.session_id);
  REQUIRE_MESSAGE(stored.ok(), stored.status().to_string());
  for (const std::string& problem : transcript_problems(*stored, result_.messages)) {
    FAIL_CHECK(problem);
  }
  const auto questions = std::count_if(stored->begin(), stored->end(), [](const Message& m) {
    return m.role == Role::kUser && m.content == kQuestion;
  });
  CHECK(questions == 1);
  for (const Message& m : *stored) {
    CHECK_MESSAGE(m.content.find("Partial answer") == std::string::npos,
                  "text of a failed attempt was stored: " << describe(m));
  }
}

}  // namespace

void run_fault_case(const FaultCase& fault, Wire wire, bool stream, bool count_leaks) {
  const std::string label =
      std::string(wire_name(wire)) + (stream ? ", streamed: " : ", not streamed: ") + fault.name;
  INFO(label);
  const ProcessResources before = count_process_resources();
  {
    CaseRun run(fault, wire, stream);
    run.run();
    run.check_outcome();
    run.check_transcript();
  }
  if (!count_leaks) return;
  const bool leaked = holds_more_than(before);
  CHECK_MESSAGE(!leaked, "before: " << before.to_string()
                                    << "; after: " << count_process_resources().to_string() << ": "
                                    << open_descriptors());
}

}  // namespace hermes::testing
