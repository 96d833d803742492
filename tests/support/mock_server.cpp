// The server's threads: one accepts connections, one per connection serves requests in
// order (keep-alive), answering each with the next scripted response.
#include "support/mock_server.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <deque>
#include <list>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_map>

#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "support/http_request_reader.hpp"
#include "support/mock_control_api.hpp"
#include "support/prepared_response.hpp"
#include "support/socket_io.hpp"
#include "support/stop_signal.hpp"

namespace hermes::testing {
namespace {

constexpr std::string_view kBadRequest =
    "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";

std::shared_ptr<const PreparedResponse> nothing_left_response() {
  MockResponse response;
  response.status = 500;
  response.body = R"({"error":{"message":"mock server: no scripted response left"}})";
  return prepare_response(response);
}

// What a metadata probe nothing was scripted for gets: many model servers have no model
// list or metadata endpoint and answer like this, and clients must cope.
std::shared_ptr<const PreparedResponse> not_scripted_response() {
  MockResponse response;
  response.status = 404;
  response.body = R"({"error":{"message":"mock server: nothing scripted for this path"}})";
  return prepare_response(response);
}

// The endpoints clients probe for a model's metadata (context window) and a local
// server's kind: /models lists, llama.cpp's /props, Ollama's /api/show and /api/tags,
// vLLM's /version. Only responses scripted for their path serve
// them, so a probe never eats a scripted model answer.
bool is_metadata_probe(std::string_view path) {
  path = path.substr(0, path.find('?'));
  auto ends_with = [&](std::string_view suffix) {
    return path.size() >= suffix.size() && path.substr(path.size() - suffix.size()) == suffix;
  };
  return ends_with("/models") || path.find("/models/") != std::string_view::npos ||
         ends_with("/props") || ends_with("/api/show") || ends_with("/api/tags") ||
         ends_with("/version");
}

// The <key> of a /c/<key>/... path, or "" for any other path.
std::string_view conversation_key(std::string_view path) {
  constexpr std::string_view kPrefix = "/c/";
  if (path.substr(0, kPrefix.size()) != kPrefix) return {};
  std::size_t end = path.find('/', kPrefix.size());
  if (end == std::string_view::npos) return {};
  return path.substr(kPrefix.size(), end - kPrefix.size());
}

[[noreturn]] void throw_errno(const std::string& what) {
  throw std::runtime_error("mock server: " + what + ": " + std::strerror(errno));
}

}  // namespace

Json RecordedRequest::json() const {
  return internal::parse_json(body).value_or(Json());
}

std::string RecordedRequest::header(const std::string& name) const {
  auto it = headers.find(internal::lower_ascii(name));
  return it == headers.end() ? std::string() : it->second;
}

struct MockServer::Impl {
  using Observer = std::function<void(const RecordedRequest&, int)>;
  using ShutdownHandler = std::function<void()>;

  // A client connection. `fd` and `finished` are guarded by connections_mutex_; the
  // thread closes its own socket, so the destructor never races a close with a reuse.
  struct Connection {
    int fd = -1;
    bool finished = false;
    std::thread thread;
  };

  explicit Impl(MockServer& owner) : owner_(owner) {}
  ~Impl();

  void listen_on(int requested_port);
  void accept_loop();
  void start_connection(int fd);
  void reap_finished_connections();
  void serve_connection(Connection* connection);
  bool serve_request(int fd, HttpRequestReader& reader);
  bool serve_control(int fd, const RecordedRequest& request);
  // The next scripted response for `path`; null for a metadata probe nothing was
  // scripted for.
  std::shared_ptr<const PreparedResponse> take_response(const std::string& path);
  void record(RecordedRequest request, int status);

  MockServer& owner_;
  int listen_fd_ = -1;
  int wake_read_ = -1;  // A byte on this pipe tells the accept loop to stop.
  int wake_write_ = -1;
  int port_ = 0;
  StopSignal stop_;
  std::thread acceptor_;

  std::mutex connections_mutex_;
  std::list<Connection> connections_;  // A list, so a serving thread's entry never moves.

  mutable std::mutex mutex_;  // Guards everything below.
  std::deque<std::shared_ptr<const PreparedResponse>> queue_;
  std::vector<std::shared_ptr<const PreparedResponse>> conversation_script_;
  std::unordered_map<std::string, std::size_t> conversation_steps_;  // Requests per key.
  std::shared_ptr<const PreparedResponse> fallback_;
  std::size_t body_limit_ = 0;  // 0: no limit.
  std::shared_ptr<const PreparedResponse> oversized_;
  const std::shared_ptr<const PreparedResponse> nothing_left_ = nothing_left_response();
  const std::shared_ptr<const PreparedResponse> not_scripted_ = not_scripted_response();
  bool looping_ = false;
  bool recording_ = true;
  std::vector<RecordedRequest> recorded_;
  std::size_t request_count_ = 0;
  std::shared_ptr<const Observer> observer_;
  std::shared_ptr<const ShutdownHandler> shutdown_handler_;
};

void MockServer::Impl::listen_on(int requested_port) {
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) throw_errno("pipe");
  wake_read_ = pipe_fds[0];
  wake_write_ = pipe_fds[1];
  listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0) throw_errno("socket");
  int on = 1;
  setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(requested_port));
  if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    throw_errno("bind 127.0.0.1:" + std::to_string(requested_port));
  }
  if (listen(listen_fd_, SOMAXCONN) != 0) throw_errno("listen");
  socklen_t length = sizeof address;
  getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&address), &length);
  port_ = ntohs(address.sin_port);
}

MockServer::Impl::~Impl() {
  stop_.raise();
  if (acceptor_.joinable()) {
    char byte = 0;
    while (write(wake_write_, &byte, 1) < 0 && errno == EINTR) {
    }
    acceptor_.join();
  }
  {
    // Wakes threads blocked in recv() or send(); each then closes its own socket.
    std::lock_guard lock(connections_mutex_);
    for (Connection& connection : connections_) {
      if (connection.fd >= 0) shutdown(connection.fd, SHUT_RDWR);
    }
  }
  for (Connection& connection : connections_) connection.thread.join();
  close_fd(listen_fd_);
  close_fd(wake_read_);
  close_fd(wake_write_);
}

void MockServer::Impl::accept_loop() {
  for (;;) {
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_read_, POLLIN, 0}};
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents != 0) return;
    int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    set_no_delay(fd);
    reap_finished_connections();
    start_connection(fd);
  }
}

void MockServer::Impl::start_connection(int fd) {
  std::lock_guard lock(connections_mutex_);
  Connection& connection = connections_.emplace_back();
  connection.fd = fd;
  connection.thread = std::thread(&Impl::serve_connection, this, &connection);
}

// Joins the threads of closed connections, so a long benchmark that opens many
// connections keeps neither their threads nor their entries.
void MockServer::Impl::reap_finished_connections() {
  std::list<Connection> finished;
  {
    std::lock_guard lock(connections_mutex_);
    for (auto it = connections_.begin(); it != connections_.end();) {
      auto next = std::next(it);
      if (it->finished) finished.splice(finished.end(), connections_, it);
      it = next;
    }
  }
  for (Connection& connection : finished) connection.thread.join();
}

void MockServer::Impl::serve_connection(Connection* connection) {
  int fd;
  {
    std::lock_guard lock(connections_mutex_);
    fd = connection->fd;
  }
  HttpRequestReader reader(fd);
  while (!stop_.raised() && serve_request(fd, reader)) {
  }
  std::lock_guard lock(connections_mutex_);
  close_fd(connection->fd);
  connection->finished = true;
}

// Serves one request; false when the connection must close.
bool MockServer::Impl::serve_request(int fd, HttpRequestReader& reader) {
  RecordedRequest request;
  RequestFraming framing;
  ReadResult result = reader.read_head(request, framing);
  if (result == ReadResult::kOk && framing.expects_continue &&
      (framing.chunked || framing.content_length > 0) && !send_all(fd, {kContinue})) {
    return false;
  }
  if (result == ReadResult::kOk) result = reader.read_body(framing, request);
  if (result == ReadResult::kMalformed) send_all(fd, {kBadRequest});
  if (result != ReadResult::kOk) return false;

  if (request.path.compare(0, kControlPrefix.size(), kControlPrefix) == 0) {
    return serve_control(fd, request) && framing.keep_alive;
  }
  std::shared_ptr<const PreparedResponse> response;
  {
    std::lock_guard lock(mutex_);
    if (body_limit_ > 0 && request.body.size() > body_limit_) response = oversized_;
  }
  if (response == nullptr) response = take_response(request.path);
  if (response == nullptr) return write_response(fd, *not_scripted_, stop_) && framing.keep_alive;
  record(std::move(request), response->close_before_headers ? 0 : response->status);
  return write_response(fd, *response, stop_) && framing.keep_alive;
}

bool MockServer::Impl::serve_control(int fd, const RecordedRequest& request) {
  std::shared_ptr<const ShutdownHandler> handler;
  {
    std::lock_guard lock(mutex_);
    handler = shutdown_handler_;
  }
  ControlReply reply = handle_control_request(owner_, request, handler != nullptr);
  bool keep_alive = write_response(fd, *prepare_response(reply.response), stop_);
  if (reply.shutdown) (*handler)();
  return keep_alive;
}

std::shared_ptr<const PreparedResponse> MockServer::Impl::take_response(const std::string& path) {
  const bool probe = is_metadata_probe(path);
  std::lock_guard lock(mutex_);
  if (std::string_view key = conversation_key(path);
      !probe && !key.empty() && !conversation_script_.empty()) {
    std::size_t& step = conversation_steps_[std::string(key)];
    return conversation_script_[step++ % conversation_script_.size()];
  }
  for (auto it = queue_.begin(); it != queue_.end(); ++it) {
    if (probe && (*it)->path_prefix.empty()) continue;
    if (path.compare(0, (*it)->path_prefix.size(), (*it)->path_prefix) != 0) continue;
    std::shared_ptr<const PreparedResponse> response = std::move(*it);
    queue_.erase(it);
    if (looping_) queue_.push_back(response);
    return response;
  }
  if (!probe) return fallback_ ? fallback_ : nothing_left_;
  if (fallback_ && !fallback_->path_prefix.empty() &&
      path.compare(0, fallback_->path_prefix.size(), fallback_->path_prefix) == 0) {
    return fallback_;
  }
  return nullptr;
}

// Recorded before the response is written, so a client that has its answer also finds
// its request in requests().
void MockServer::Impl::record(RecordedRequest request, int status) {
  std::shared_ptr<const Observer> notify;
  {
    std::lock_guard lock(mutex_);
    notify = observer_;
  }
  if (notify) (*notify)(request, status);
  std::lock_guard lock(mutex_);
  ++request_count_;
  if (recording_) recorded_.push_back(std::move(request));
}

MockServer::MockServer(int port) : impl_(std::make_unique<Impl>(*this)) {
  impl_->listen_on(port);
  // Started only now: a control request on the accept thread may already call back
  // into this object through impl_.
  impl_->acceptor_ = std::thread(&Impl::accept_loop, impl_.get());
}

MockServer::~MockServer() = default;

int MockServer::port() const {
  return impl_->port_;
}

std::string MockServer::url() const {
  return "http://127.0.0.1:" + std::to_string(port());
}

std::string MockServer::base_url() const {
  return url() + "/v1";
}

void MockServer::enqueue(MockResponse response) {
  auto prepared = prepare_response(response);
  std::lock_guard lock(impl_->mutex_);
  impl_->queue_.push_back(std::move(prepared));
}

void MockServer::enqueue(std::vector<MockResponse> responses) {
  std::vector<std::shared_ptr<const PreparedResponse>> prepared;
  prepared.reserve(responses.size());
  for (const MockResponse& response : responses) prepared.push_back(prepare_response(response));
  std::lock_guard lock(impl_->mutex_);
  impl_->queue_.insert(impl_->queue_.end(), prepared.begin(), prepared.end());
}

void MockServer::set_default(std::optional<MockResponse> response) {
  std::shared_ptr<const PreparedResponse> prepared;
  if (response) prepared = prepare_response(*response);
  std::lock_guard lock(impl_->mutex_);
  impl_->fallback_ = std::move(prepared);
}

void MockServer::refuse_bodies_over(std::size_t max_bytes, MockResponse refusal) {
  std::shared_ptr<const PreparedResponse> prepared = prepare_response(refusal);
  std::lock_guard lock(impl_->mutex_);
  impl_->body_limit_ = max_bytes;
  impl_->oversized_ = max_bytes > 0 ? std::move(prepared) : nullptr;
}

void MockServer::set_conversation_script(std::vector<MockResponse> script) {
  std::vector<std::shared_ptr<const PreparedResponse>> prepared;
  prepared.reserve(script.size());
  for (const MockResponse& response : script) prepared.push_back(prepare_response(response));
  std::lock_guard lock(impl_->mutex_);
  impl_->conversation_script_ = std::move(prepared);
  impl_->conversation_steps_.clear();
}

void MockServer::set_looping(bool looping) {
  std::lock_guard lock(impl_->mutex_);
  impl_->looping_ = looping;
}

void MockServer::set_recording(bool recording) {
  std::lock_guard lock(impl_->mutex_);
  impl_->recording_ = recording;
}

std::vector<RecordedRequest> MockServer::requests() const {
  std::lock_guard lock(impl_->mutex_);
  return impl_->recorded_;
}

std::size_t MockServer::request_count() const {
  std::lock_guard lock(impl_->mutex_);
  return impl_->request_count_;
}

std::size_t MockServer::pending() const {
  std::lock_guard lock(impl_->mutex_);
  return impl_->queue_.size();
}

void MockServer::reset() {
  std::lock_guard lock(impl_->mutex_);
  impl_->queue_.clear();
  impl_->recorded_.clear();
  impl_->conversation_steps_.clear();
  impl_->request_count_ = 0;
}

void MockServer::on_request(std::function<void(const RecordedRequest&, int status)> observer) {
  auto shared = observer ? std::make_shared<const Impl::Observer>(std::move(observer)) : nullptr;
  std::lock_guard lock(impl_->mutex_);
  impl_->observer_ = std::move(shared);
}

void MockServer::on_shutdown_request(std::function<void()> handler) {
  auto shared =
      handler ? std::make_shared<const Impl::ShutdownHandler>(std::move(handler)) : nullptr;
  std::lock_guard lock(impl_->mutex_);
  impl_->shutdown_handler_ = std::move(shared);
}

}  // namespace hermes::testing
