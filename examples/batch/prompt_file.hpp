// The prompts file of a batch: JSON Lines, one {"id": "...", "prompt": "..."} object per
// line ("system" optional). Blank lines are skipped; a line that is not such an object is
// reported by its number and skipped, and the rest of the file still runs. Without an
// id, a prompt is known by its line number ("line-7"), which is stable only while the
// file is not edited, so ids are recommended.
#pragma once

#include <string>
#include <vector>

namespace hermes_batch {

struct Prompt {
  std::string id;
  std::string prompt;
  std::string system;  // Added to the system prompt, when set.
  int line = 0;        // 1-based line number in the file.
};

struct PromptFile {
  std::vector<Prompt> prompts;
  std::vector<std::string> problems;  // "prompts.jsonl:3: ..." for each skipped line.
  bool readable = true;
};

PromptFile read_prompt_file(const std::string& path);

// The ids already present in an output file (for resuming). Lines that do not parse (a
// line cut short by a crash) are ignored.
std::vector<std::string> finished_ids(const std::string& output_path);

}  // namespace hermes_batch
