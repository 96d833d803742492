#include "hermes/runtime.hpp"

#include <algorithm>
#include <exception>
#include <string>
#include <utility>

#include "agent/runtime_impl.hpp"

namespace hermes {
namespace {

Status check_options(const RuntimeOptions& options) {
  if (options.io_threads < 1 || options.io_threads > 4) {
    return Status::invalid_argument("RuntimeOptions.io_threads must be 1 to 4, got " +
                                    std::to_string(options.io_threads));
  }
  if (options.tool_workers < 1 || options.tool_workers > 1024) {
    return Status::invalid_argument("RuntimeOptions.tool_workers must be 1 to 1024, got " +
                                    std::to_string(options.tool_workers));
  }
  if (options.stack_bytes < (std::size_t{64} << 10) ||
      options.stack_bytes > (std::size_t{64} << 20)) {
    return Status::invalid_argument("RuntimeOptions.stack_bytes must be 64 KiB to 64 MiB, got " +
                                    std::to_string(options.stack_bytes));
  }
  return {};
}

}  // namespace

Runtime::Impl::Impl(RuntimeOptions options)
    : options_(options), workers_(static_cast<std::size_t>(options.tool_workers)) {
  for (int i = 0; i < options.io_threads; ++i) {
    loops_.push_back(std::make_unique<internal::IoLoop>(workers_, options.stack_bytes));
  }
}

Runtime::Impl::~Impl() {
  {
    std::lock_guard lock(mu_);
    for (auto& [id, interrupt] : running_) interrupt();
  }
  loops_.clear();  // Each loop waits for its fibers to end.
}

void Runtime::Impl::start(std::function<void(uint64_t)> turn, std::function<void()> interrupt) {
  uint64_t id = 0;
  {
    std::lock_guard lock(mu_);
    id = next_id_++;
    running_.emplace(id, std::move(interrupt));
    ++started_;
  }
  internal::IoLoop& loop =
      **std::min_element(loops_.begin(), loops_.end(),
                         [](const auto& a, const auto& b) { return a->fibers() < b->fibers(); });
  loop.spawn([turn = std::move(turn), id] { turn(id); });
}

void Runtime::Impl::finish(uint64_t id) {
  std::lock_guard lock(mu_);
  running_.erase(id);
}

RuntimeStats Runtime::Impl::stats() const {
  RuntimeStats stats;
  {
    std::lock_guard lock(mu_);
    stats.turns_started = started_;
    stats.turns_running = running_.size();
  }
  for (const auto& loop : loops_) stats.transfers += loop->transfers();
  stats.tool_jobs = workers_.pending();
  return stats;
}

Result<std::unique_ptr<Runtime>> Runtime::create(RuntimeOptions options) {
  if (Status s = check_options(options); !s.ok()) return s;
  try {
    return std::unique_ptr<Runtime>(new Runtime(std::make_unique<Impl>(options)));
  } catch (const std::exception& e) {
    return Status::unavailable(std::string("the runtime could not start: ") + e.what());
  }
}

Runtime::Runtime(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Runtime::~Runtime() = default;

RuntimeStats Runtime::stats() const {
  return impl_->stats();
}

const RuntimeOptions& Runtime::options() const {
  return impl_->options();
}

}  // namespace hermes
