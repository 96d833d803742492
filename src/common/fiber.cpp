#include "common/fiber.hpp"

#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdint>
#include <exception>
#include <new>
#include <utility>

#include "common/tracer.hpp"

// The sanitizers must be told about stack switches: AddressSanitizer tracks which stack
// is live (and keeps a fake stack per fiber), ThreadSanitizer keeps a shadow state per
// fiber. Without the annotations both report nonsense on the first switch.
#if defined(__has_feature)
#  if __has_feature(address_sanitizer)
#    define HERMES_FIBER_ASAN 1
#  endif
#  if __has_feature(thread_sanitizer)
#    define HERMES_FIBER_TSAN 1
#  endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(HERMES_FIBER_ASAN)
#  define HERMES_FIBER_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__) && !defined(HERMES_FIBER_TSAN)
#  define HERMES_FIBER_TSAN 1
#endif

#ifdef HERMES_FIBER_ASAN
#  include <sanitizer/common_interface_defs.h>
#endif
#ifdef HERMES_FIBER_TSAN
#  include <sanitizer/tsan_interface.h>
#endif

namespace hermes::internal {
namespace {

thread_local Fiber* running_fiber = nullptr;

#if defined(HERMES_FIBER_ASAN) || defined(HERMES_FIBER_TSAN)
// Instrumented frames are several times larger.
constexpr std::size_t kStackScale = 4;
#else
constexpr std::size_t kStackScale = 1;
#endif

std::size_t page_size() {
  static const std::size_t size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

}  // namespace

struct Fiber::Context {
  ucontext_t fiber{};
  ucontext_t host{};
  void* mapping = nullptr;  // Guard page and stack.
  std::size_t mapping_bytes = 0;
  void* stack = nullptr;  // Lowest usable address.
  std::size_t stack_bytes = 0;
  std::function<void()> body;
  bool finished = false;
  SpanParent span;  // The fiber's current span while it is not running.
  // The host thread's stack, as AddressSanitizer reports it on each switch into the fiber.
  const void* host_stack = nullptr;
  std::size_t host_stack_bytes = 0;
  void* host_fake_stack = nullptr;
  void* fiber_fake_stack = nullptr;
  void* tsan_fiber = nullptr;
  void* tsan_host = nullptr;

  static void entry(unsigned high, unsigned low);
};

void Fiber::Context::entry(unsigned high, unsigned low) {
  auto* self = reinterpret_cast<Fiber*>((static_cast<std::uintptr_t>(high) << 32) | low);
  Context& c = *self->ctx_;
#ifdef HERMES_FIBER_ASAN
  __sanitizer_finish_switch_fiber(nullptr, &c.host_stack, &c.host_stack_bytes);
#endif
  try {
    c.body();
  } catch (...) {
  }
  c.body = nullptr;  // Its captures go now, on the fiber, not when the Fiber is destroyed.
  c.finished = true;
#ifdef HERMES_FIBER_ASAN
  __sanitizer_start_switch_fiber(nullptr, c.host_stack, c.host_stack_bytes);
#endif
#ifdef HERMES_FIBER_TSAN
  __tsan_switch_to_fiber(c.tsan_host, 0);
#endif
  setcontext(&c.host);
}

Fiber::Fiber(FiberHost& host, std::function<void()>&& body, std::size_t stack_bytes)
    : host_(host), ctx_(std::make_unique<Context>()) {
  Context& c = *ctx_;
  const std::size_t page = page_size();
  c.stack_bytes = (stack_bytes * kStackScale + page - 1) / page * page;
  c.mapping_bytes = c.stack_bytes + page;
  c.mapping = mmap(nullptr, c.mapping_bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (c.mapping == MAP_FAILED) throw std::bad_alloc();
  mprotect(c.mapping, page, PROT_NONE);  // Overflowing the stack faults instead of writing on.
  c.stack = static_cast<char*>(c.mapping) + page;
  c.body = std::move(body);
  getcontext(&c.fiber);
  c.fiber.uc_stack.ss_sp = c.stack;
  c.fiber.uc_stack.ss_size = c.stack_bytes;
  c.fiber.uc_link = nullptr;
  const auto address = reinterpret_cast<std::uintptr_t>(this);
  makecontext(&c.fiber, reinterpret_cast<void (*)()>(&Context::entry), 2,
              static_cast<unsigned>(address >> 32), static_cast<unsigned>(address & 0xFFFFFFFFu));
#ifdef HERMES_FIBER_TSAN
  c.tsan_fiber = __tsan_create_fiber(0);
#endif
}

Fiber::~Fiber() {
#ifdef HERMES_FIBER_TSAN
  if (ctx_->tsan_fiber) __tsan_destroy_fiber(ctx_->tsan_fiber);
#endif
  munmap(ctx_->mapping, ctx_->mapping_bytes);
}

bool Fiber::resume() {
  Context& c = *ctx_;
  if (c.finished) return true;
  Fiber* const outer = std::exchange(running_fiber, this);
  swap_current_span(c.span);
#ifdef HERMES_FIBER_ASAN
  __sanitizer_start_switch_fiber(&c.host_fake_stack, c.stack, c.stack_bytes);
#endif
#ifdef HERMES_FIBER_TSAN
  c.tsan_host = __tsan_get_current_fiber();
  __tsan_switch_to_fiber(c.tsan_fiber, 0);
#endif
  swapcontext(&c.host, &c.fiber);
#ifdef HERMES_FIBER_ASAN
  __sanitizer_finish_switch_fiber(c.host_fake_stack, nullptr, nullptr);
#endif
  swap_current_span(c.span);
  running_fiber = outer;
  return c.finished;
}

void Fiber::park() {
  Context& c = *ctx_;
#ifdef HERMES_FIBER_ASAN
  __sanitizer_start_switch_fiber(&c.fiber_fake_stack, c.host_stack, c.host_stack_bytes);
#endif
#ifdef HERMES_FIBER_TSAN
  __tsan_switch_to_fiber(c.tsan_host, 0);
#endif
  swapcontext(&c.fiber, &c.host);
#ifdef HERMES_FIBER_ASAN
  __sanitizer_finish_switch_fiber(c.fiber_fake_stack, &c.host_stack, &c.host_stack_bytes);
#endif
}

Fiber* Fiber::current() {
  return running_fiber;
}

void FiberWakeup::fire() {
  if (armed_.exchange(false, std::memory_order_acq_rel)) fiber_.host().post(fiber_);
}

void park_until(std::chrono::steady_clock::time_point when,
                const std::shared_ptr<FiberWakeup>& wakeup) {
  Fiber* fiber = Fiber::current();
  fiber->host().wake_at(when, wakeup);
  fiber->park();
}

void run_blocking(const std::function<void()>& work) {
  Fiber* fiber = Fiber::current();
  if (!fiber) {
    work();
    return;
  }
  std::exception_ptr failure;
  auto wakeup = std::make_shared<FiberWakeup>(*fiber);
  fiber->host().run_on_worker([&work, &failure, wakeup] {
    try {
      work();
    } catch (...) {
      failure = std::current_exception();
    }
    wakeup->fire();
  });
  fiber->park();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace hermes::internal
