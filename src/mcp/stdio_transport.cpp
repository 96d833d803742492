#include "mcp/stdio_transport.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>

#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "safety/log.hpp"

namespace hermes::internal {
namespace {

constexpr std::size_t kReadChunk = 64 * 1024;
constexpr std::chrono::milliseconds kExitGrace{2000};

// Writes all of `data`. SIGPIPE is blocked on this thread for the duration so a server
// that has gone away yields EPIPE instead of killing the host process; a SIGPIPE raised
// meanwhile is consumed before the mask is restored.
bool write_fully(int fd, std::string_view data) {
  sigset_t pipe_set, old_set;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
  bool ok = true;
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ok = false;
      break;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  if (!ok) {
    const timespec zero{0, 0};
    while (sigtimedwait(&pipe_set, nullptr, &zero) > 0) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &old_set, nullptr);
  return ok;
}

}  // namespace

StdioTransport::StdioTransport(StdioTransportOptions options) : options_(std::move(options)) {}

StdioTransport::~StdioTransport() {
  close();
}

Status StdioTransport::start(Handlers handlers) {
  std::lock_guard lock(lifecycle_mu_);
  if (started_) return Status::failed_precondition(options_.label + ": already started");
  handlers_ = std::move(handlers);
  if (Status s = process_.spawn(options_.process); !s.ok()) {
    return Status(s.code(), options_.label + ": " + s.message());
  }
  started_ = true;
  stdout_reader_ = std::thread([this] { read_stdout(); });
  stderr_reader_ = std::thread([this] { read_stderr(); });
  return {};
}

Status StdioTransport::send(const Json& message) {
  std::string line = dump_json(message);
  line += '\n';
  std::lock_guard lock(write_mu_);
  if (closing_ || failed_ || process_.stdin_fd() < 0) {
    std::lock_guard reason_lock(reason_mu_);
    return close_reason_.ok() ? Status::unavailable(options_.label + " is not running")
                              : close_reason_;
  }
  if (!write_fully(process_.stdin_fd(), line)) {
    // Usually the server has exited; its exit status says more than the broken pipe.
    std::unique_lock reason_lock(reason_mu_);
    reason_cv_.wait_for(reason_lock, kExitGrace, [this] { return !close_reason_.ok(); });
    if (!close_reason_.ok()) return close_reason_;
    return Status::unavailable(options_.label + " stopped reading its input");
  }
  return {};
}

void StdioTransport::read_stdout() {
  std::string line;
  std::string chunk(kReadChunk, '\0');
  bool skipping = false;  // Inside an oversized line.
  for (;;) {
    const ssize_t n = ::read(process_.stdout_fd(), chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    std::string_view data(chunk.data(), static_cast<std::size_t>(n));
    while (!data.empty()) {
      const std::size_t newline = data.find('\n');
      const std::string_view piece = data.substr(0, newline);
      if (!skipping) line.append(piece);
      if (line.size() > options_.max_message_bytes) {
        fail(Status::resource_exhausted(options_.label + " sent a message larger than " +
                                        byte_size_text(options_.max_message_bytes) +
                                        "; disconnected"));
        skipping = true;
        line.clear();
      }
      if (newline == std::string_view::npos) break;
      data.remove_prefix(newline + 1);
      if (!skipping) receive_line(line);
      line.clear();
      skipping = false;
    }
  }
  if (closing_ || failed_) return;
  std::string how;
  {
    std::lock_guard lock(process_mu_);
    process_.wait_for_exit(kExitGrace);
    how = process_.describe_exit();
  }
  fail(Status::unavailable(options_.label + " " + how));
}

void StdioTransport::receive_line(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) {
    line.remove_suffix(1);
  }
  if (line.find_first_not_of(" \t") == std::string_view::npos) return;
  Result<Json> message = parse_json_checked(line);
  if (!message.ok() && message.status().code() == StatusCode::kResourceExhausted) {
    // Hostile rather than noise: handled like an oversized message.
    fail(Status::resource_exhausted(options_.label + " sent " + message.status().message() +
                                    "; disconnected"));
    return;
  }
  if (!message.ok() || !message->is_object()) {
    // Servers that print banners or debug output to stdout are common; the protocol
    // stream survives as long as each message is on its own line.
    HERMES_LOG_WARN("{} wrote a line to stdout that is not a JSON-RPC message, skipped: {}",
                    options_.label, excerpt(line));
    return;
  }
  if (handlers_.on_message) handlers_.on_message(*message);
}

void StdioTransport::read_stderr() {
  std::string pending;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(process_.stderr_fd(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    pending.append(buffer, static_cast<std::size_t>(n));
    std::size_t newline;
    while ((newline = pending.find('\n')) != std::string::npos) {
      if (newline > 0)
        HERMES_LOG_INFO("{} stderr: {}", options_.label,
                        excerpt(std::string_view(pending).substr(0, newline)));
      pending.erase(0, newline + 1);
    }
    if (pending.size() > 4096) {
      HERMES_LOG_INFO("{} stderr: {}", options_.label, excerpt(pending));
      pending.clear();
    }
  }
  if (!pending.empty()) HERMES_LOG_INFO("{} stderr: {}", options_.label, excerpt(pending));
}

void StdioTransport::fail(Status reason) {
  if (closing_ || failed_.exchange(true)) return;
  HERMES_LOG_WARN("{}", reason.message());
  {
    std::lock_guard lock(reason_mu_);
    close_reason_ = reason;
  }
  reason_cv_.notify_all();
  {
    std::lock_guard lock(process_mu_);
    process_.stop(kExitGrace);
  }
  if (handlers_.on_closed) handlers_.on_closed(std::move(reason));
}

void StdioTransport::close() {
  std::lock_guard lock(lifecycle_mu_);
  if (!started_ || closed_) return;
  closed_ = true;
  closing_ = true;
  {
    std::lock_guard write_lock(write_mu_);
    process_.close_stdin();  // A well-behaved stdio server exits when its input ends.
  }
  {
    std::lock_guard process_lock(process_mu_);
    if (!process_.wait_for_exit(kExitGrace)) process_.stop(kExitGrace);
  }
  if (stdout_reader_.joinable()) stdout_reader_.join();
  if (stderr_reader_.joinable()) stderr_reader_.join();
}

}  // namespace hermes::internal
