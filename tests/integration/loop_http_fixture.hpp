// What the loop's end-to-end recovery tests share: an agent on the real HTTP path
// (libcurl against the loopback mock server) persisting to SQLite in a temporary home,
// a few tools, and a record of every callback the turn fired.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "hermes/hermes.hpp"
#include "support/mock_responses.hpp"
#include "support/mock_server.hpp"
#include "support/temp_dir.hpp"

namespace hermes::testing {

// A flag one thread raises and another waits for.
class Latch {
 public:
  void open() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      open_ = true;
    }
    cv_.notify_all();
  }
  // True when the latch opened within `timeout`.
  bool wait(std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, timeout, [this] { return open_; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
};

// Everything the callbacks of one agent reported. Tool progress arrives on worker
// threads, so every list is guarded.
struct CallbackLog {
  struct ToolEvent {
    bool started = false;
    std::string name;
    bool is_error = false;
    std::string result;
  };

  std::vector<std::pair<std::string, std::string>> statuses() const { return locked(statuses_); }
  std::vector<ToolEvent> tool_events() const { return locked(tool_events_); }
  std::vector<std::pair<int, std::vector<std::string>>> steps() const { return locked(steps_); }
  std::string streamed() const { return locked(streamed_); }
  std::string reasoning() const { return locked(reasoning_); }

  // True when a status of `kind` whose message contains `text` was reported.
  bool has_status(const std::string& kind, const std::string& text = "") const {
    auto all = statuses();
    return std::any_of(all.begin(), all.end(), [&](const auto& s) {
      return s.first == kind && s.second.find(text) != std::string::npos;
    });
  }
  std::size_t started_tools() const {
    auto events = tool_events();
    return static_cast<std::size_t>(
        std::count_if(events.begin(), events.end(), [](const ToolEvent& e) { return e.started; }));
  }

  void attach(Callbacks& cb) {
    cb.on_status = [this](std::string_view kind, std::string_view message) {
      std::lock_guard<std::mutex> lock(mu_);
      statuses_.emplace_back(std::string(kind), std::string(message));
    };
    cb.on_tool_progress = [this](const ToolProgress& p) {
      std::lock_guard<std::mutex> lock(mu_);
      tool_events_.push_back(
          {p.phase == ToolProgress::Phase::kStarted, p.name, p.is_error, std::string(p.result)});
    };
    cb.on_step = [this](int count, const std::vector<ToolOutcome>& previous) {
      std::vector<std::string> names;
      for (const ToolOutcome& t : previous) names.push_back(t.name);
      std::lock_guard<std::mutex> lock(mu_);
      steps_.emplace_back(count, std::move(names));
    };
    cb.on_stream_delta = [this](std::string_view delta) {
      std::lock_guard<std::mutex> lock(mu_);
      streamed_.append(delta);
    };
    cb.on_reasoning_delta = [this](std::string_view delta) {
      std::lock_guard<std::mutex> lock(mu_);
      reasoning_.append(delta);
    };
  }

 private:
  template <typename T>
  T locked(const T& value) const {
    std::lock_guard<std::mutex> lock(mu_);
    return value;
  }

  mutable std::mutex mu_;
  std::vector<std::pair<std::string, std::string>> statuses_;
  std::vector<ToolEvent> tool_events_;
  std::vector<std::pair<int, std::vector<std::string>>> steps_;
  std::string streamed_;
  std::string reasoning_;
};

// One agent's world: the mock model server, a hermes home and the tools it may call.
//   add           sums a and b (counted in `add_calls`);
//   wait_for_stop opens `tool_started` and blocks until the turn's cancel token fires;
//   slow_step     opens `tool_started` and blocks until `release_tool` opens.
struct LoopHttpFixture {
  MockServer server;
  TempDir home;
  std::shared_ptr<ToolRegistry> tools = std::make_shared<ToolRegistry>();
  std::atomic<int> add_calls{0};
  Latch tool_started;
  Latch release_tool;
  CallbackLog log;

  LoopHttpFixture() {
    register_tool("add", [this](const Json& args, ToolContext&) -> Result<std::string> {
      ++add_calls;
      return Json{{"sum", args.value("a", 0.0) + args.value("b", 0.0)}}.dump();
    });
    register_tool("wait_for_stop", [this](const Json&, ToolContext& ctx) -> Result<std::string> {
      tool_started.open();
      ctx.cancel.wait_for(std::chrono::seconds(30));
      return Status::cancelled("stopped by the turn's interrupt");
    });
    register_tool("slow_step", [this](const Json&, ToolContext&) -> Result<std::string> {
      tool_started.open();
      release_tool.wait();
      return std::string(R"({"done":true})");
    });
  }

  void register_tool(const std::string& name, ToolHandler handler) {
    ToolSpec spec;
    spec.name = name;
    spec.description = "Test tool " + name + ".";
    spec.parameters = Json::parse(
        R"({"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}})");
    spec.handler = std::move(handler);
    REQUIRE(tools->register_tool(spec).ok());
  }

  AgentOptions options(bool stream = true) {
    AgentOptions o;
    o.provider.model = "mock-model";
    o.provider.base_url = server.base_url();
    o.provider.api_key = "sk-test";
    o.home = home.path();
    o.tools = tools;
    o.request.stream = stream;
    o.review.enabled = false;
    log.attach(o.callbacks);
    return o;
  }

  std::unique_ptr<Agent> agent(const AgentOptions& o) {
    auto a = Agent::create(o);
    REQUIRE_MESSAGE(a.ok(), a.status().to_string());
    return std::move(*a);
  }

  // The session's rows as a fresh connection to <home>/state.db reads them.
  std::vector<Message> stored(const std::string& session_id) {
    auto store = open_sqlite_store(default_state_db_path(home.path()));
    REQUIRE_MESSAGE(store.ok(), store.status().to_string());
    auto rows = (*store)->load_messages(session_id);
    REQUIRE_MESSAGE(rows.ok(), rows.status().to_string());
    return std::move(*rows);
  }

  // The `messages` of the n-th request the model server received.
  Json sent_messages(std::size_t n) {
    auto requests = server.requests();
    REQUIRE(requests.size() > n);
    return requests[n].json()["messages"];
  }
};

// The roles of `messages`, e.g. "user assistant tool assistant".
inline std::string roles_of(const std::vector<Message>& messages) {
  std::string out;
  for (const Message& m : messages) {
    if (!out.empty()) out += ' ';
    out += std::string(role_name(m.role));
  }
  return out;
}

// Without the system row, as the transcript holds it.
inline std::string roles_of(const Json& wire) {
  std::string out;
  for (const Json& m : wire) {
    if (m.value("role", "") == "system") continue;
    if (!out.empty()) out += ' ';
    out += m.value("role", "");
  }
  return out;
}

// The transcript and the store agree row by row on role and content.
inline void check_same_rows(const std::vector<Message>& transcript,
                            const std::vector<Message>& stored) {
  REQUIRE(roles_of(stored) == roles_of(transcript));
  for (std::size_t i = 0; i < stored.size(); ++i) {
    CHECK(stored[i].content == transcript[i].content);
    CHECK(stored[i].tool_calls.size() == transcript[i].tool_calls.size());
  }
}

}  // namespace hermes::testing
