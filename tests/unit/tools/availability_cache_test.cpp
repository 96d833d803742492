#include <doctest/doctest.h>

#include <stdexcept>

#include "hermes/tool.hpp"
#include "tools/availability_cache.hpp"

using hermes::ToolSpec;
using hermes::internal::AvailabilityCache;
using namespace std::chrono_literals;

namespace {

// A probe whose answer the test sets, counting how often it is asked.
struct Probe {
  bool answer = true;
  bool throws = false;
  int calls = 0;
};

ToolSpec probed_tool(Probe& probe, const std::string& name = "probed") {
  ToolSpec spec;
  spec.name = name;
  spec.check_available = [&probe] {
    ++probe.calls;
    if (probe.throws) throw std::runtime_error("probe exploded");
    return probe.answer;
  };
  return spec;
}

struct FakeClock {
  AvailabilityCache::Clock::time_point now{};
  AvailabilityCache cache{[this] { return now; }};
};

}  // namespace

TEST_CASE("a probe's answer is remembered for thirty seconds") {
  FakeClock clock;
  Probe probe;
  ToolSpec spec = probed_tool(probe);
  CHECK(clock.cache.available(spec));
  clock.now += 29s;
  CHECK(clock.cache.available(spec));
  CHECK(probe.calls == 1);
  clock.now += 2s;
  CHECK(clock.cache.available(spec));
  CHECK(probe.calls == 2);
}

TEST_CASE("a failure soon after a success is a flake: offered, and asked again next time") {
  FakeClock clock;
  Probe probe;
  ToolSpec spec = probed_tool(probe);
  REQUIRE(clock.cache.available(spec));
  clock.now += 31s;
  probe.answer = false;
  CHECK(clock.cache.available(spec));  // 31 s after the success: within the grace.
  CHECK(probe.calls == 2);
  clock.now += 1s;
  CHECK(clock.cache.available(spec));  // Not remembered: asked again.
  CHECK(probe.calls == 3);
  clock.now += 30s;                     // 62 s after the success: the failure counts.
  CHECK_FALSE(clock.cache.available(spec));
  clock.now += 10s;
  CHECK_FALSE(clock.cache.available(spec));
  CHECK(probe.calls == 4);  // And is remembered.
}

TEST_CASE("a probe that never succeeded gets no grace, and one that throws says no") {
  FakeClock clock;
  Probe probe;
  probe.answer = false;
  ToolSpec spec = probed_tool(probe);
  CHECK_FALSE(clock.cache.available(spec));
  Probe thrower;
  thrower.throws = true;
  ToolSpec other = probed_tool(thrower, "thrower");
  CHECK_FALSE(clock.cache.available(other));
}

TEST_CASE("a tool without a probe is available, and a zero TTL asks every time") {
  FakeClock clock;
  ToolSpec plain;
  plain.name = "plain";
  CHECK(clock.cache.available(plain));
  Probe probe;
  ToolSpec live = probed_tool(probe);
  live.availability_ttl = 0s;
  CHECK(clock.cache.available(live));
  probe.answer = false;
  CHECK_FALSE(clock.cache.available(live));  // No grace either: the flag is the truth.
  CHECK(probe.calls == 2);
}

TEST_CASE("forgetting a tool, as re-registering does, asks its probe again") {
  FakeClock clock;
  Probe probe;
  ToolSpec spec = probed_tool(probe);
  REQUIRE(clock.cache.available(spec));
  clock.cache.forget("probed");
  probe.answer = false;
  CHECK_FALSE(clock.cache.available(spec));
}

TEST_CASE("the cache holds at most 512 answers") {
  FakeClock clock;
  Probe probe;
  std::vector<ToolSpec> specs;
  specs.reserve(600);
  for (int i = 0; i < 600; ++i) specs.push_back(probed_tool(probe, "tool" + std::to_string(i)));
  for (int i = 0; i < 600; ++i) {
    clock.now += 1ms;
    REQUIRE(clock.cache.available(specs[static_cast<std::size_t>(i)]));
  }
  CHECK(probe.calls == 600);
  // The oldest answers made room; the newest are still remembered.
  REQUIRE(clock.cache.available(specs[599]));
  CHECK(probe.calls == 600);
  REQUIRE(clock.cache.available(specs[0]));
  CHECK(probe.calls == 601);
}

TEST_CASE("the registry offers a tool by its remembered answer") {
  hermes::ToolRegistry registry;
  Probe probe;
  ToolSpec spec = probed_tool(probe);
  spec.handler = [](const hermes::Json&, hermes::ToolContext&) -> hermes::Result<std::string> { return std::string("ok"); };
  REQUIRE(registry.register_tool(spec).ok());
  CHECK(registry.resolve({}, {}) == std::vector<std::string>{"probed"});
  CHECK(registry.resolve({}, {}) == std::vector<std::string>{"probed"});
  CHECK(probe.calls == 1);
  // Registering again starts over.
  probe.answer = false;
  REQUIRE(registry.register_tool(spec).ok());
  CHECK(registry.resolve({}, {}).empty());
}
