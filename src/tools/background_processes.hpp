// Commands started with background=true: one agent's registry of them, each with a
// reader thread that keeps a rolling window of its output. Processes die with the agent
// (its ToolSessionState), so none outlives the code that could manage it.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "hermes/status.hpp"
#include "tools/output_buffer.hpp"
#include "tools/process_runner.hpp"

namespace hermes::internal {

class BackgroundProcess {
 public:
  static constexpr std::size_t kOutputWindow = 200000;

  BackgroundProcess(std::string id, std::string command, ChildProcess child,
                    std::chrono::milliseconds kill_grace);
  ~BackgroundProcess();  // Stops the process group and joins the reader.
  BackgroundProcess(const BackgroundProcess&) = delete;
  BackgroundProcess& operator=(const BackgroundProcess&) = delete;

  const std::string& id() const { return id_; }
  const std::string& command() const { return command_; }
  pid_t pid() const { return child_.pid; }
  std::chrono::system_clock::time_point started() const { return started_; }

  bool running() const;
  std::optional<int> exit_code() const;
  std::optional<std::chrono::steady_clock::time_point> finished_at() const;

  // Output that arrived since the last poll (or wait).
  RollingBuffer::Slice poll();
  // The last `max_bytes` of the output window.
  std::string log(std::size_t max_bytes) const;
  // Blocks until the process exits, `timeout` passes, or `cancelled` says stop.
  bool wait(std::chrono::milliseconds timeout, const std::function<bool()>& cancelled);

  // The text sent to stdin since the last complete line: a shell has not run it yet, so
  // what is written next is checked together with it (`rm -r` then `f ~/x\n`).
  std::string unfinished_input() const;
  // Writes `data`, which joins unfinished_input() unless it completes the line (ends in a
  // newline that is no line continuation, outside quotes).
  Status write_input(const std::string& data);
  Status close_input();
  // Stops the process group (SIGTERM, grace, SIGKILL).
  void stop();

 private:
  void read_loop();
  void drain(bool& eof);

  std::string id_;
  std::string command_;
  ChildProcess child_;
  std::chrono::milliseconds kill_grace_;
  std::chrono::system_clock::time_point started_ = std::chrono::system_clock::now();

  mutable std::mutex mu_;
  std::condition_variable exited_cv_;
  RollingBuffer output_{kOutputWindow};
  std::size_t poll_offset_ = 0;
  std::string unfinished_input_;
  bool exited_ = false;
  bool reaped_ = false;
  int wait_status_ = 0;
  std::optional<std::chrono::steady_clock::time_point> finished_at_;
  std::atomic<bool> stop_requested_{false};
  std::thread reader_;
};

// The background processes of one agent. Thread-safe.
class BackgroundProcesses {
 public:
  static constexpr std::size_t kMaxTracked = 64;
  static constexpr std::chrono::seconds kKeepFinished{1800};
  static constexpr std::chrono::hours kMaxAge{24};

  Result<std::shared_ptr<BackgroundProcess>> start(const ShellCommand& cmd,
                                                   std::chrono::milliseconds kill_grace);
  std::shared_ptr<BackgroundProcess> find(const std::string& id) const;
  std::vector<std::shared_ptr<BackgroundProcess>> list() const;
  // Forgets a process (stopping it first if it runs).
  bool remove(const std::string& id);

 private:
  void evict_locked();

  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<BackgroundProcess>> procs_;
};

}  // namespace hermes::internal
