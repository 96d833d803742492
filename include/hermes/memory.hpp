// hermes/memory.hpp — what the agent remembers between sessions.
//
// Built-in memory is two small files under <home>/memories/: MEMORY.md (the agent's notes:
// environment facts, conventions, tool quirks) and USER.md (who the user is). Entries are
// separated by a line holding only "§"; the memory tool adds, replaces and removes them
// within a character budget. At session start both files are rendered once into the
// system prompt and that text never changes mid-session, so the provider's prompt cache
// stays valid; writes reach disk at once and show in the next session.
//
// External memory (a vector store, a hosted service) plugs in as a MemoryProvider.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/export.hpp"
#include "hermes/message.hpp"
#include "hermes/tool.hpp"

namespace hermes {

// Budgets in characters (code points) of each file's joined text. A write that would
// exceed one fails with an error asking the model to consolidate; nothing is truncated.
struct MemoryLimits {
  std::size_t memory_chars = 2200;  // MEMORY.md
  std::size_t user_chars = 1375;    // USER.md
};

// The frozen memory block for the system prompt: the MEMORY and USER PROFILE sections of
// the files under <home>/memories/ that have entries, each headed by its usage, separated
// by a blank line. Entries that look like prompt injection are replaced by a [BLOCKED: ...]
// notice (the file keeps them). Empty when both files are empty. Call once per session.
// Thread-safe; reads the files without locking (writers replace them atomically).
HERMES_API std::string render_memory_snapshot(const std::string& home,
                                              const MemoryLimits& limits = {});

// The guidance added to the system prompt when the memory tool is offered: what is worth
// remembering, what is not, and to write facts rather than instructions.
HERMES_API std::string_view memory_guidance();

// Where the session is going when an agent switches sessions.
struct MemorySessionSwitch {
  std::string new_session_id;
  std::string parent_session_id;  // The session left behind, when the conversation continues.
  bool reset = false;             // A new conversation, not a continuation.
};

// An external memory backend. The agent calls it around each turn; every method has a
// do-nothing default except name().
//
// Thread-safety: an agent calls its provider from its turn thread only; a provider shared
// by several agents must synchronise itself. Methods should return quickly (queue slow
// work) and must not throw; an exception is caught, logged and ignored.
class HERMES_API MemoryProvider {
 public:
  virtual ~MemoryProvider() = default;

  // A short identifier, e.g. "honcho".
  virtual std::string name() const = 0;

  // Called once when the agent starts a session in `home`.
  virtual void initialize(const std::string& /*session_id*/, const std::string& /*home*/) {}

  // Static text for the system prompt (instructions, status); empty to add nothing.
  virtual std::string system_prompt_block() { return ""; }

  // Context recalled for the coming turn, injected with the user message; empty for none.
  virtual std::string prefetch(const std::string& /*query*/, const std::string& /*session_id*/) {
    return "";
  }

  // A completed turn, to persist. `messages` is the transcript after the turn.
  virtual void sync_turn(const std::string& /*user_content*/,
                         const std::string& /*assistant_content*/,
                         const std::string& /*session_id*/,
                         const std::vector<Message>& /*messages*/) {}

  // Extra tools the provider offers; registered by the embedder like any tool.
  virtual std::vector<ToolSpec> tools() { return {}; }

  // The session id changed mid-process (resume, new session, compression).
  virtual void on_session_switch(const MemorySessionSwitch& /*change*/) {}

  // Messages about to be compressed away; the returned text is kept in the summary.
  virtual std::string on_compaction(const std::vector<Message>& /*discarded*/) { return ""; }

  // The built-in memory tool wrote: action is add/replace/remove, target memory/user.
  virtual void on_memory_write(const std::string& /*action*/, const std::string& /*target*/,
                               const std::string& /*content*/) {}

  // The session ended (not after every turn).
  virtual void on_session_end(const std::vector<Message>& /*messages*/) {}

  // Flush queues and close connections.
  virtual void shutdown() {}
};

}  // namespace hermes
