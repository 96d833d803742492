// BatchRunner: runs every prompt of a prompts file in a fresh agent, a bounded number at
// a time, and appends one trajectory per line to the output file as each finishes.
//
// Prompts whose id is already in the output are skipped, so an interrupted run is
// resumed by running the same command again. Lines are written whole, under a lock, and
// flushed, so a crash leaves at most one cut line (ignored on resume).
#pragma once

#include <string>

#include "hermes/hermes.hpp"

namespace hermes_batch {

struct BatchConfig {
  std::string input;
  std::string output;
  int workers = 4;
  // The model, tools and limits of every agent. No session is persisted.
  hermes::AgentOptions agent;
  bool show_progress = true;
};

struct BatchSummary {
  int prompts = 0;  // Valid prompts in the file.
  int skipped = 0;  // Already in the output.
  int completed = 0;
  int failed = 0;        // Ran but did not complete.
  int broken_lines = 0;  // Input lines that could not be read.
  hermes::Usage usage;
  int api_calls = 0;
  double seconds = 0;
  bool input_readable = true;
  bool output_writable = true;
};

BatchSummary run_batch(const BatchConfig& config);

}  // namespace hermes_batch
