// The rows of the fault matrix: one fault each, with the outcome the recovery chain
// must reach (retry, key rotation, fallback, compaction, or a clear failure).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "faults/wire_faults.hpp"

namespace hermes::testing {

// The recovery a turn takes before it is answered.
enum class Recovery { kRetry, kRotate, kCompress, kFallback };

std::string_view recovery_name(Recovery recovery);

// The question of every case, the tool call answering it and the final answer.
inline constexpr const char* kQuestion = "Please add one and two, then report.";
inline constexpr const char* kFinalAnswer = "One and two make three.";
MockToolCall first_tool_call();

struct FaultCase {
  std::string name;
  // What the serving endpoint answers after the first tool round: the fault, then what
  // recovers from it (for a turn that fails, the faults that exhaust the recovery). Every
  // response is consumed by a correct agent, no more and no fewer.
  std::function<std::vector<MockResponse>(const WireScript&)> script;
  // nullopt: the turn fails, with `failure_reason` and `exit_reason`.
  std::optional<Recovery> recovery;
  std::string failure_reason;
  std::string exit_reason;
  // How often the add tool runs: once for the first round, once more for a second round
  // the script makes. A call cut short must never run.
  int tool_runs = 1;
  bool two_keys = false;  // The agent holds "key-one" and "key-two".
  // A fallback provider ("backup-model" on the same endpoint, "key-backup") is configured.
  bool with_fallback = false;
  bool primary_refuses = false;  // Nothing listens at the primary; the fallback serves.
  // The host interrupts the turn while the fault holds the call: once some text has
  // streamed, or (not streaming) once the request has arrived. The turn must end
  // interrupted, keeping the streamed text as its answer.
  bool interrupt = false;
};

// The text streamed before the interrupt of the interrupt case.
inline constexpr const char* kInterruptedText = "Interrupted reply";

// Every fault of the matrix, each to be run in every wire format, streamed or not.
std::vector<FaultCase> fault_cases();

}  // namespace hermes::testing
