#include "providers/io_loop.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "providers/http_client.hpp"

namespace hermes::internal {
namespace {

// How often transfers are asked whether to stop (cancel tokens, the stall and total
// timeouts): the same bound a synchronous transfer keeps.
constexpr auto kAbortCheckInterval = std::chrono::milliseconds(100);
// The longest sleep with nothing to do; posts and spawns wake the loop at once.
constexpr long kIdlePollMs = 1000;
// Easy handles kept for reuse; more are made when more transfers run at once.
constexpr std::size_t kMaxIdleEasies = 256;

thread_local IoLoop* loop_of_thread = nullptr;

}  // namespace

struct IoLoop::Pending {
  Fiber* fiber = nullptr;
  const std::function<bool()>* should_abort = nullptr;
  CURLcode code = CURLE_OK;
};

IoLoop::IoLoop(WorkerPool& workers, std::size_t stack_bytes)
    : workers_(workers), stack_bytes_(stack_bytes) {
  HttpClient::shared();  // libcurl's global setup, done once and thread-safely there.
  multi_ = curl_multi_init();
  if (!multi_) throw std::runtime_error("libcurl could not create a multi handle");
  try {
    driver_ = std::make_unique<CurlDriver>(multi_);
    thread_ = std::thread([this] { run(); });
  } catch (...) {
    driver_.reset();
    curl_multi_cleanup(multi_);
    throw;
  }
}

IoLoop::~IoLoop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  driver_->wake();
  thread_.join();
  for (CURL* easy : idle_easies_) curl_easy_cleanup(easy);
  driver_.reset();
  curl_multi_cleanup(multi_);
}

IoLoop* IoLoop::current() {
  return Fiber::current() ? loop_of_thread : nullptr;
}

void IoLoop::spawn(std::function<void()> body) {
  fibers_.fetch_add(1, std::memory_order_relaxed);
  {
    std::lock_guard lock(mu_);
    spawns_.push_back(std::move(body));
  }
  if (loop_of_thread != this) driver_->wake();
}

void IoLoop::post(Fiber& fiber) {
  {
    std::lock_guard lock(mu_);
    posted_.push_back(&fiber);
  }
  if (loop_of_thread != this) driver_->wake();
}

void IoLoop::wake_at(std::chrono::steady_clock::time_point when,
                     std::shared_ptr<FiberWakeup> wakeup) {
  timers_.push(Timer{when, std::move(wakeup)});
}

void IoLoop::run_on_worker(std::function<void()> work) {
  workers_.submit(std::move(work));
}

CURLcode IoLoop::perform(CURL* easy, const std::function<bool()>& should_abort,
                         std::string& multi_error) {
  const CURLMcode added = curl_multi_add_handle(multi_, easy);
  if (added != CURLM_OK) {
    multi_error = curl_multi_strerror(added);
    return CURLE_FAILED_INIT;
  }
  Pending pending;
  pending.fiber = Fiber::current();
  pending.should_abort = &should_abort;
  active_.emplace(easy, &pending);
  transfers_.fetch_add(1, std::memory_order_relaxed);
  pending.fiber->park();  // end_transfer() posts it.
  return pending.code;
}

CURL* IoLoop::take_easy() {
  if (idle_easies_.empty()) return curl_easy_init();
  CURL* easy = idle_easies_.back();
  idle_easies_.pop_back();
  return easy;
}

void IoLoop::give_back_easy(CURL* easy) {
  if (idle_easies_.size() < kMaxIdleEasies) {
    idle_easies_.push_back(easy);
  } else {
    curl_easy_cleanup(easy);
  }
}

void IoLoop::end_transfer(CURL* easy, CURLcode code) {
  auto it = active_.find(easy);
  if (it == active_.end()) return;
  Pending* pending = it->second;
  active_.erase(it);
  transfers_.fetch_sub(1, std::memory_order_relaxed);
  // Removing a handle mid-transfer closes its connection; a finished one stays cached.
  curl_multi_remove_handle(multi_, easy);
  pending->code = code;
  post(*pending->fiber);
}

void IoLoop::finish_transfers() {
  int queued = 0;
  while (CURLMsg* message = curl_multi_info_read(multi_, &queued)) {
    if (message->msg == CURLMSG_DONE) end_transfer(message->easy_handle, message->data.result);
  }
}

void IoLoop::abort_transfers() {
  std::vector<CURL*> stop;
  for (const auto& [easy, pending] : active_) {
    if ((*pending->should_abort)()) stop.push_back(easy);
  }
  for (CURL* easy : stop) end_transfer(easy, CURLE_ABORTED_BY_CALLBACK);
}

void IoLoop::fire_timers(std::chrono::steady_clock::time_point now) {
  while (!timers_.empty() && timers_.top().when <= now) {
    std::shared_ptr<FiberWakeup> wakeup = timers_.top().wakeup;
    timers_.pop();
    wakeup->fire();
  }
}

void IoLoop::resume_ready() {
  // Resuming may post more (a fiber that wakes another); those run on the next round.
  std::vector<Fiber*> ready;
  std::vector<std::function<void()>> spawns;
  {
    std::lock_guard lock(mu_);
    ready.swap(posted_);
    spawns.swap(spawns_);
  }
  for (auto& body : spawns) {
    try {
      auto fiber = std::make_unique<Fiber>(*this, std::move(body), stack_bytes_);
      ready.push_back(fiber.get());
      owned_.emplace(fiber.get(), std::move(fiber));
    } catch (const std::bad_alloc&) {
      // No address space for a stack: the turn runs here instead, blocking this thread.
      body();
      fibers_.fetch_sub(1, std::memory_order_relaxed);
    }
  }
  for (Fiber* fiber : ready) {
    if (fiber->resume()) {
      owned_.erase(fiber);
      fibers_.fetch_sub(1, std::memory_order_relaxed);
    }
  }
}

long IoLoop::poll_timeout_ms(std::chrono::steady_clock::time_point now) const {
  auto until = now + std::chrono::milliseconds(kIdlePollMs);
  if (!active_.empty()) until = std::min(until, next_abort_check_);
  if (!timers_.empty()) until = std::min(until, timers_.top().when);
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(until - now).count();
  return std::max<long>(0, static_cast<long>(ms));
}

void IoLoop::run() {
  loop_of_thread = this;
  for (;;) {
    resume_ready();
    driver_->perform();
    finish_transfers();
    auto now = std::chrono::steady_clock::now();
    if (!active_.empty() && now >= next_abort_check_) {
      abort_transfers();
      next_abort_check_ = now + kAbortCheckInterval;
    }
    fire_timers(now);
    {
      std::lock_guard lock(mu_);
      if (!posted_.empty() || !spawns_.empty()) continue;
      if (stopping_ && fibers_.load() == 0) break;
    }
    driver_->wait(poll_timeout_ms(now));
  }
  loop_of_thread = nullptr;
}

}  // namespace hermes::internal
