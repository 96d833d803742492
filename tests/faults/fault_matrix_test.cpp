// The fault matrix: every fault of fault_case.cpp, in every wire format, streamed and
// not, through the real HTTP path (libcurl) against the loopback mock server, with the
// SQLite store on disk. Each case checks the recovery (or failure), the stored
// transcript, and that the process holds no more threads or descriptors afterwards.
#include <doctest/doctest.h>

#include "faults/fault_run.hpp"
#include "hermes/log.hpp"

using namespace hermes::testing;

namespace {

// The first cases of a process create what lives as long as the process (libcurl's
// global state, the HTTP pool's first session), so one case per wire format runs
// before any counts are compared.
void warm_up_once() {
  static const bool warmed = [] {
    const FaultCase first = fault_cases().front();
    for (Wire wire : kAllWires) run_fault_case(first, wire, true, /*count_leaks=*/false);
    return true;
  }();
  (void)warmed;
}

void run_matrix(Wire wire, bool stream) {
  // The faults are expected; their warnings would only bury a real failure's report.
  hermes::set_log_level(hermes::LogLevel::kError);
  warm_up_once();
  for (const FaultCase& fault : fault_cases()) run_fault_case(fault, wire, stream);
}

}  // namespace

TEST_CASE("every fault over Chat Completions, streamed, recovers or fails as specified") {
  run_matrix(Wire::kChatCompletions, true);
}

TEST_CASE("every fault over Chat Completions, not streamed, recovers or fails as specified") {
  run_matrix(Wire::kChatCompletions, false);
}

TEST_CASE("every fault over the Responses API, streamed, recovers or fails as specified") {
  run_matrix(Wire::kResponses, true);
}

TEST_CASE("every fault over the Responses API, not streamed, recovers or fails as specified") {
  run_matrix(Wire::kResponses, false);
}

TEST_CASE("every fault over Anthropic Messages, streamed, recovers or fails as specified") {
  run_matrix(Wire::kAnthropicMessages, true);
}

TEST_CASE("every fault over Anthropic Messages, not streamed, recovers or fails as specified") {
  run_matrix(Wire::kAnthropicMessages, false);
}
