// Fibers on a minimal host: parking and posting, timers, work sent to workers (and
// providers of the caller's own with them), the current span kept per fiber, cancel tokens waking
// parked fibers; the worker pool and the spare threads.
#include "common/fiber.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/provider_call.hpp"
#include "common/spare_threads.hpp"
#include "common/tracer.hpp"
#include "common/worker_pool.hpp"
#include "hermes/cancel.hpp"

using namespace hermes;
using namespace hermes::internal;
using Clock = std::chrono::steady_clock;

namespace {

// Runs its fibers on the calling thread until all have ended.
class OneThreadHost final : public FiberHost {
 public:
  void post(Fiber& fiber) override {
    std::lock_guard lock(mu_);
    ready_.push_back(&fiber);
    ++posts_;
    wake_.notify_one();
  }
  void wake_at(Clock::time_point when, std::shared_ptr<FiberWakeup> wakeup) override {
    timers_.emplace_back(when, std::move(wakeup));
  }
  void run_on_worker(std::function<void()> work) override { workers_.submit(std::move(work)); }

  // Runs `bodies` as fibers until every one has ended.
  void run(std::vector<std::function<void()>> bodies) {
    std::vector<std::unique_ptr<Fiber>> fibers;
    for (auto& body : bodies) {
      fibers.push_back(std::make_unique<Fiber>(*this, std::move(body), 256 * 1024));
      ready_.push_back(fibers.back().get());
    }
    std::size_t live = fibers.size();
    while (live > 0) {
      std::vector<Fiber*> ready;
      {
        std::unique_lock lock(mu_);
        auto next = Clock::now() + std::chrono::seconds(5);
        for (const auto& timer : timers_) next = std::min(next, timer.first);
        wake_.wait_until(lock, next, [&] { return !ready_.empty(); });
        ready.swap(ready_);
      }
      const auto now = Clock::now();
      for (auto it = timers_.begin(); it != timers_.end();) {
        if (it->first <= now) {
          it->second->fire();
          it = timers_.erase(it);
        } else {
          ++it;
        }
      }
      for (Fiber* fiber : ready) {
        if (fiber->resume()) --live;
      }
    }
  }
  std::size_t posts() {
    std::lock_guard lock(mu_);
    return posts_;
  }

 private:
  std::mutex mu_;
  std::condition_variable wake_;
  std::vector<Fiber*> ready_;
  std::size_t posts_ = 0;
  std::vector<std::pair<Clock::time_point, std::shared_ptr<FiberWakeup>>> timers_;
  WorkerPool workers_{2};
};

}  // namespace

TEST_CASE("fibers interleave on one thread, each resumed once per post") {
  OneThreadHost host;
  std::vector<std::string> trace;
  Fiber* first = nullptr;
  host.run({[&] {
              first = Fiber::current();
              trace.push_back("a1");
              first->park();  // Until the second fiber posts it.
              trace.push_back("a2");
            },
            [&] {
              trace.push_back("b1");
              first->host().post(*first);
              trace.push_back("b2");
            }});
  CHECK(trace == std::vector<std::string>{"a1", "b1", "b2", "a2"});
  CHECK(Fiber::current() == nullptr);
}

TEST_CASE("a post that arrives before the park still wakes the fiber once") {
  OneThreadHost host;
  int resumed = 0;
  host.run({[&] {
    Fiber& self = *Fiber::current();
    std::thread([&self] { self.host().post(self); }).join();  // Posted while still running.
    self.park();
    ++resumed;
  }});
  CHECK(resumed == 1);
  CHECK(host.posts() == 1);
}

TEST_CASE("a fiber's wakeup fires once however many events race") {
  OneThreadHost host;
  host.run({[&] {
    auto wakeup = std::make_shared<FiberWakeup>(*Fiber::current());
    std::thread a([wakeup] { wakeup->fire(); });
    std::thread b([wakeup] { wakeup->fire(); });
    a.join();
    b.join();
    park_until(Clock::now() + std::chrono::milliseconds(20), wakeup);
  }});
  CHECK(host.posts() == 1);
}

TEST_CASE("run_blocking runs the work on a worker and rethrows what it threw") {
  OneThreadHost host;
  std::thread::id fiber_thread;
  std::thread::id work_thread;
  std::string caught;
  host.run({[&] {
    fiber_thread = std::this_thread::get_id();
    run_blocking([&] { work_thread = std::this_thread::get_id(); });
    try {
      run_blocking([] { throw std::runtime_error("handler failed"); });
    } catch (const std::runtime_error& e) {
      caught = e.what();
    }
  }});
  CHECK(work_thread != fiber_thread);
  CHECK(caught == "handler failed");
  // Off a fiber it simply calls the work.
  std::thread::id here;
  run_blocking([&] { here = std::this_thread::get_id(); });
  CHECK(here == std::this_thread::get_id());
}

namespace {

// Answers with the thread it ran on.
template <typename Base>
class ThreadReportingProvider final : public Base {
 public:
  const ProviderInfo& info() const override { return info_; }
  Result<ProviderResponse> complete(const ProviderRequest&, const CallContext&) override {
    ran_on = std::this_thread::get_id();
    ProviderResponse response;
    response.message = Message::assistant("ok");
    return response;
  }
  std::thread::id ran_on;

 private:
  ProviderInfo info_{"custom", "chat_completions", "", "m"};
};

}  // namespace

TEST_CASE("call_provider sends a provider of the caller's own to a worker, not a loop-aware one") {
  OneThreadHost host;
  ThreadReportingProvider<Provider> own;
  ThreadReportingProvider<LoopAwareProvider> built_in;
  std::thread::id fiber_thread;
  host.run({[&] {
    fiber_thread = std::this_thread::get_id();
    CHECK(call_provider(own, ProviderRequest{}, CallContext{}).ok());
    CHECK(call_provider(built_in, ProviderRequest{}, CallContext{}).ok());
  }});
  CHECK(own.ran_on != fiber_thread);
  CHECK(built_in.ran_on == fiber_thread);
  // Off a fiber both run on the caller's thread.
  REQUIRE(call_provider(own, ProviderRequest{}, CallContext{}).ok());
  CHECK(own.ran_on == std::this_thread::get_id());
}

TEST_CASE("each fiber keeps its own current span across switches") {
  OneThreadHost host;
  bool a_kept = false;
  bool b_saw_none = false;
  Fiber* a = nullptr;
  host.run({[&] {
              a = Fiber::current();
              SpanParent marked;
              marked.capture_content = true;
              SpanScope scope(marked);
              a->park();
              a_kept = current_span().capture_content;
            },
            [&] {
              b_saw_none = !current_span().capture_content;
              a->host().post(*a);
            }});
  CHECK(a_kept);
  CHECK(b_saw_none);
  CHECK_FALSE(current_span().capture_content);
}

TEST_CASE("a cancel token's wait parks the fiber on a timer and cancel() wakes it") {
  OneThreadHost host;
  CancelToken quiet;
  CancelToken stopped;
  bool quiet_result = true;
  bool stopped_result = false;
  Clock::duration quiet_took{};
  Clock::duration stopped_took{};
  host.run({[&] {
              const auto t0 = Clock::now();
              quiet_result = quiet.wait_for(std::chrono::milliseconds(50));
              quiet_took = Clock::now() - t0;
            },
            [&] {
              std::thread([stopped] {
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
                stopped.cancel();
              }).detach();
              const auto t0 = Clock::now();
              stopped_result = stopped.wait_for(std::chrono::seconds(10));
              stopped_took = Clock::now() - t0;
            }});
  CHECK_FALSE(quiet_result);
  CHECK(quiet_took >= std::chrono::milliseconds(50));
  CHECK(stopped_result);
  CHECK(stopped_took < std::chrono::seconds(5));
}

TEST_CASE("the worker pool runs every job, also those queued at its destruction") {
  std::atomic<int> done{0};
  {
    WorkerPool pool(3);
    CHECK(pool.size() == 3);
    for (int i = 0; i < 100; ++i) pool.submit([&] { ++done; });
  }
  CHECK(done == 100);
}

TEST_CASE("spare threads take each job at once and are reused once free") {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::thread::id> ids;
  auto record = [&] {
    std::lock_guard lock(mu);
    ids.push_back(std::this_thread::get_id());
    cv.notify_all();
  };
  auto wait_for_count = [&](std::size_t n) {
    std::unique_lock lock(mu);
    return cv.wait_for(lock, std::chrono::seconds(5), [&] { return ids.size() >= n; });
  };
  run_on_spare_thread(record);
  REQUIRE(wait_for_count(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // It goes back to idle.
  run_on_spare_thread(record);
  REQUIRE(wait_for_count(2));
  CHECK(ids[0] == ids[1]);
  // A job that blocks does not hold up the next one. What the blocked job touches is
  // shared with it, and the test waits for it to end: it must not outlive the test.
  struct Gate {
    std::promise<void> open;
    std::promise<void> passed;
  };
  auto gate = std::make_shared<Gate>();
  std::shared_future<void> opened = gate->open.get_future().share();
  std::future<void> passed = gate->passed.get_future();
  run_on_spare_thread([gate, opened] {
    opened.wait();
    gate->passed.set_value();
  });
  run_on_spare_thread(record);
  CHECK(wait_for_count(3));
  gate->open.set_value();
  CHECK(passed.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
}
