#include "tools/background_processes.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <random>

#include "safety/shell_lexer.hpp"

namespace hermes::internal {
namespace {

using Clock = std::chrono::steady_clock;

std::string new_process_id() {
  static std::mutex mu;
  static std::mt19937_64 rng{std::random_device{}()};
  std::lock_guard<std::mutex> lock(mu);
  char id[32];
  std::snprintf(id, sizeof id, "proc_%012llx",
                static_cast<unsigned long long>(rng() & 0xFFFFFFFFFFFFull));
  return id;
}

// Whether a shell reading `text` has a complete command: it ends in a newline that is not
// a line continuation, and no quote is left open.
bool completes_line(const std::string& text) {
  if (text.empty() || text.back() != '\n') return false;
  std::size_t backslashes = 0;
  for (std::size_t i = text.size() - 1; i > 0 && text[i - 1] == '\\'; --i) ++backslashes;
  if (backslashes % 2 == 1) return false;
  return shell_words(text).has_value();
}

}  // namespace

BackgroundProcess::BackgroundProcess(std::string id, std::string command, ChildProcess child,
                                     std::chrono::milliseconds kill_grace)
    : id_(std::move(id)), command_(std::move(command)), child_(child), kill_grace_(kill_grace) {
  if (child_.input_fd >= 0)
    ::fcntl(child_.input_fd, F_SETFL, ::fcntl(child_.input_fd, F_GETFL) | O_NONBLOCK);
  reader_ = std::thread([this] { read_loop(); });
}

BackgroundProcess::~BackgroundProcess() {
  stop();
  if (reader_.joinable()) reader_.join();
  if (child_.output_fd >= 0) ::close(child_.output_fd);
  if (child_.input_fd >= 0) ::close(child_.input_fd);
}

// Reads what the pipe holds now, without blocking; sets `eof` at end of file or on error.
void BackgroundProcess::drain(bool& eof) {
  char buf[65536];
  while (!eof) {
    const ssize_t n = ::read(child_.output_fd, buf, sizeof buf);
    if (n > 0) {
      std::lock_guard<std::mutex> lock(mu_);
      output_.append(std::string_view(buf, static_cast<std::size_t>(n)));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      eof = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
      break;
    }
  }
}

void BackgroundProcess::read_loop() {
  bool eof = false;
  while (!stop_requested_) {
    if (eof) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));  // Waiting for the exit only.
    } else {
      pollfd pfd{child_.output_fd, POLLIN, 0};
      ::poll(&pfd, 1, 100);
    }
    drain(eof);
    int status = 0;
    bool just_reaped = false;
    {
      std::lock_guard<std::mutex> lock(mu_);
      just_reaped = !reaped_ && ::waitpid(child_.pid, &status, WNOHANG) == child_.pid;
      if (just_reaped) {
        reaped_ = true;
        wait_status_ = status;
      }
    }
    if (just_reaped) {
      // What the process wrote before exiting is in the pipe by now: read it before
      // anyone waiting hears of the exit, so its last lines are never missing.
      drain(eof);
      std::lock_guard<std::mutex> lock(mu_);
      exited_ = true;
      finished_at_ = Clock::now();
      exited_cv_.notify_all();
    }
    std::lock_guard<std::mutex> lock(mu_);
    // After the shell exits its children may still hold the pipe: read until end of file.
    if (eof && reaped_) break;
  }
}

bool BackgroundProcess::running() const {
  std::lock_guard<std::mutex> lock(mu_);
  return !exited_;
}

std::optional<int> BackgroundProcess::exit_code() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (!exited_) return std::nullopt;
  return exit_code_of(wait_status_);
}

std::optional<Clock::time_point> BackgroundProcess::finished_at() const {
  std::lock_guard<std::mutex> lock(mu_);
  return finished_at_;
}

RollingBuffer::Slice BackgroundProcess::poll() {
  std::lock_guard<std::mutex> lock(mu_);
  RollingBuffer::Slice slice = output_.read_from(poll_offset_);
  poll_offset_ = slice.next;
  return slice;
}

std::string BackgroundProcess::log(std::size_t max_bytes) const {
  std::lock_guard<std::mutex> lock(mu_);
  const std::size_t end = output_.end_offset();
  return output_.read_from(end > max_bytes ? end - max_bytes : 0).text;
}

bool BackgroundProcess::wait(std::chrono::milliseconds timeout,
                             const std::function<bool()>& cancelled) {
  const auto deadline = Clock::now() + timeout;
  std::unique_lock<std::mutex> lock(mu_);
  while (!exited_ && Clock::now() < deadline && !cancelled()) {
    exited_cv_.wait_for(lock, std::chrono::milliseconds(50));
  }
  return exited_;
}

std::string BackgroundProcess::unfinished_input() const {
  std::lock_guard<std::mutex> lock(mu_);
  return unfinished_input_;
}

Status BackgroundProcess::write_input(const std::string& data) {
  std::unique_lock<std::mutex> lock(mu_);
  if (child_.input_fd < 0) return Status::failed_precondition("the process's input is closed");
  std::string sent = unfinished_input_ + data;
  unfinished_input_ = completes_line(sent) ? std::string() : std::move(sent);
  std::string_view rest = data;
  const auto deadline = Clock::now() + std::chrono::seconds(2);
  while (!rest.empty()) {
    const ssize_t n = ::write(child_.input_fd, rest.data(), rest.size());
    if (n > 0) {
      rest.remove_prefix(static_cast<std::size_t>(n));
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) &&
               Clock::now() < deadline) {
      lock.unlock();
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      lock.lock();
    } else {
      return Status::unavailable("the process is not reading its input");
    }
  }
  return {};
}

Status BackgroundProcess::close_input() {
  std::lock_guard<std::mutex> lock(mu_);
  if (child_.input_fd < 0)
    return Status::failed_precondition("the process's input is already closed");
  ::close(child_.input_fd);
  child_.input_fd = -1;
  return {};
}

void BackgroundProcess::stop() {
  stop_requested_ = true;
  bool reaped;
  int status;
  {
    std::lock_guard<std::mutex> lock(mu_);
    reaped = reaped_;
    status = wait_status_;
  }
  if (reaped) {
    ::kill(-child_.pid, SIGKILL);  // Children left behind by the shell.
    return;
  }
  status = stop_process_group(child_.pid, kill_grace_, false, status);
  std::lock_guard<std::mutex> lock(mu_);
  if (!reaped_) {
    reaped_ = exited_ = true;
    wait_status_ = status;
    finished_at_ = Clock::now();
  }
  exited_cv_.notify_all();
}

Result<std::shared_ptr<BackgroundProcess>> BackgroundProcesses::start(
    const ShellCommand& cmd, std::chrono::milliseconds kill_grace) {
  auto child = spawn_shell(cmd, true);
  if (!child.ok()) return child.status();
  auto proc =
      std::make_shared<BackgroundProcess>(new_process_id(), cmd.command, *child, kill_grace);
  std::lock_guard<std::mutex> lock(mu_);
  procs_[proc->id()] = proc;
  evict_locked();
  return proc;
}

std::shared_ptr<BackgroundProcess> BackgroundProcesses::find(const std::string& id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = procs_.find(id);
  return it == procs_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<BackgroundProcess>> BackgroundProcesses::list() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::shared_ptr<BackgroundProcess>> out;
  for (const auto& [id, p] : procs_) out.push_back(p);
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a->started() < b->started(); });
  return out;
}

bool BackgroundProcesses::remove(const std::string& id) {
  std::shared_ptr<BackgroundProcess> doomed;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = procs_.find(id);
    if (it == procs_.end()) return false;
    doomed = std::move(it->second);
    procs_.erase(it);
  }
  doomed->stop();
  return true;
}

// Finished processes are forgotten after half an hour, anything older than a day is
// stopped, and past 64 entries the oldest finished (else the oldest running) goes.
void BackgroundProcesses::evict_locked() {
  const auto now = Clock::now();
  const auto wall_now = std::chrono::system_clock::now();
  for (auto it = procs_.begin(); it != procs_.end();) {
    const auto finished = it->second->finished_at();
    const bool expired = finished && now - *finished > kKeepFinished;
    const bool too_old = wall_now - it->second->started() > kMaxAge;
    it = (expired || too_old) ? procs_.erase(it) : std::next(it);
  }
  while (procs_.size() > kMaxTracked) {
    auto oldest = procs_.end();
    for (auto it = procs_.begin(); it != procs_.end(); ++it) {
      const bool candidate_done = !it->second->running();
      const bool oldest_done = oldest != procs_.end() && !oldest->second->running();
      if (oldest == procs_.end() || (candidate_done && !oldest_done) ||
          (candidate_done == oldest_done && it->second->started() < oldest->second->started())) {
        oldest = it;
      }
    }
    procs_.erase(oldest);
  }
}

}  // namespace hermes::internal
