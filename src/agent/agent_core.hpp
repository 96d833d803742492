// The state an Agent keeps between turns, shared by the turn's phases.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "agent/background_review.hpp"
#include "agent/hook_runner.hpp"
#include "agent/provider_runtime.hpp"
#include "agent/request_repair.hpp"
#include "agent/review_nudges.hpp"
#include "agent/timed_tool_group.hpp"
#include "agent/turn_control.hpp"
#include "agent/turn_slot.hpp"
#include "hermes/agent.hpp"

namespace hermes::internal {

struct AgentCore {
  AgentOptions options;
  std::string home;
  std::shared_ptr<Provider> provider;  // The primary.
  std::unique_ptr<ProviderRuntime> runtime;
  std::shared_ptr<SessionStore> store;  // nullptr: nothing is persisted.
  std::shared_ptr<ToolRegistry> tools;

  std::string session_id;
  bool session_row_created = false;
  TranscriptWriter writer;
  std::string system_prompt;        // Built on the first turn, then reused byte for byte.
  std::vector<Message> transcript;  // Without the system prompt.
  ToolSessionState tool_state;
  // Workers of tool calls that overran their deadline; they use tool_state, the hooks
  // and the callbacks, so the agent waits for them before going away.
  std::shared_ptr<ToolWorkers> tool_workers = std::make_shared<ToolWorkers>();
  TurnControl control;
  TurnSlot turn_slot;  // Held while a turn runs, synchronous or not.
  HookRunner hooks{{}};

  int user_turn_count = 0;
  // Reasoning settings the route refused; later requests leave them out.
  ReasoningRejections reasoning_rejections;
  bool memory_provider_started = false;  // initialize() was called.
  Usage session_usage;

  // Context management.
  std::shared_ptr<ContextEngine> engine;  // nullptr: compression is off.
  int compression_count = 0;
  int64_t last_compaction_tokens = 0;  // The request estimate after the last compaction.
  int64_t primary_context_length = 0;  // The engine's window before a fallback took over.
  bool rebuild_system_prompt = false;  // Set by a compaction; the prompt is rebuilt.
  // The host was told (status "store_cannot_compact") that the store keeps compactions in
  // memory only; it is told once per agent.
  bool store_cannot_compact_reported = false;
  // Text appended as a user message after a compaction (the active todo list), if any.
  std::function<std::string()> after_compaction_injection;

  // Self-improvement: when a turn earns a background review, and the review running.
  // Declared last so it is cancelled before anything it could read goes away.
  ReviewNudges nudges;
  BackgroundReview review;

  // Persists the transcript's unflushed messages. A failure is logged and returned; the
  // messages stay in memory and the next flush retries them.
  Status flush(const std::vector<Message>& messages);
  // Creates the session row (once) now that the system prompt is known.
  Status ensure_session_row();
  // Points the agent at a fresh session id with an empty transcript.
  void start_new_session();
  // The toolsets `tool_names` belong to, sorted (for the skills' toolset conditions).
  std::vector<std::string> toolsets_of(const std::vector<std::string>& tool_names) const;
  // Tells the memory provider the session changed (no-op without one).
  void switch_memory_session(MemorySessionSwitch change);
};

}  // namespace hermes::internal
