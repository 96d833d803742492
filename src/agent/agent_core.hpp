// The state an Agent keeps between turns, shared by the turn's phases.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "agent/hook_runner.hpp"
#include "agent/provider_runtime.hpp"
#include "agent/turn_control.hpp"
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
  std::string system_prompt;         // Built on the first turn, then reused byte for byte.
  std::vector<Message> transcript;   // Without the system prompt.
  ToolSessionState tool_state;
  TurnControl control;
  HookRunner hooks{{}};

  int user_turn_count = 0;
  Usage session_usage;

  // Persists the transcript's unflushed messages. A failure is logged and returned; the
  // messages stay in memory and the next flush retries them.
  Status flush(const std::vector<Message>& messages);
  // Creates the session row (once) now that the system prompt is known.
  Status ensure_session_row();
  // Points the agent at a fresh session id with an empty transcript.
  void start_new_session();
};

}  // namespace hermes::internal
