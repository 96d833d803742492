// The system prompt: built once per session from three tiers (stable, context, volatile)
// and reused byte for byte, so the provider's prefix cache stays warm.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "context/context_file_text.hpp"

namespace hermes::internal {

struct SystemPromptInputs {
  std::string home;                     // SOUL.md is read from here.
  std::string system_message;           // The caller's system message (context tier).
  std::string model;
  std::string provider;
  std::string source;                   // "cli", "cron", "telegram", ...
  // The host's own platform hint, in place of the one for `source`; "" for none.
  std::optional<std::string> platform_hint;
  // When the conversation began (Unix seconds): the start of its lineage's root session,
  // so the date line does not move when a compaction rebuilds the prompt. 0: now.
  double started_at = 0;
  // The project's working directory: its context files are loaded (project_context.hpp)
  // and the environment hints name it. Empty: no project files, and the hints name the
  // process's working directory.
  std::string context_dir;
  int64_t context_length = 0;           // The model's window; it sizes the file cap.
  std::vector<std::string> tool_names;  // Tools offered to the model.
  // The tool-use block of model_guidance.hpp: forced on or off, or by model family.
  std::optional<bool> tool_use_enforcement;
  // Volatile tier, taken once per session: the skills index and the frozen memory
  // snapshot (MEMORY.md / USER.md), and any external memory provider's block.
  std::string skills_index;
  std::string memory_snapshot;
  std::string memory_provider_block;
  // Told of SOUL.md or a project file that was skipped, blocked or truncated.
  ContextFileNotice on_context_notice;
};

std::string build_system_prompt(const SystemPromptInputs& inputs);

// Whether a stored prompt was built for this model and provider (its "Model:" and
// "Provider:" lines match), so a resumed session can reuse it.
bool system_prompt_matches_runtime(const std::string& prompt, const std::string& model,
                                   const std::string& provider);

}  // namespace hermes::internal
