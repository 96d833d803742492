// Rebuilds whole tool calls from streamed Chat Completions fragments.
//
// Servers disagree on how they fragment calls: OpenAI sends the id and name once and
// then argument pieces keyed by index; Ollama sends each call whole, every one at index
// 0; some servers omit the index, resend the name with every fragment, interleave two
// calls, or send integer ids. The rules that cope with all of them: key on the index
// (0 when absent), open a new slot when a new id appears at an index already used,
// assign names (never append them), and join the argument pieces once at the end.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hermes/message.hpp"
#include "providers/chat_chunk.hpp"

namespace hermes::internal {

class ToolCallAccumulator {
 public:
  // What applying one fragment did to its slot.
  struct Update {
    int slot = 0;                // The call's position in the final list.
    bool started = false;        // Its name just became known.
    std::string_view arguments;  // The argument text to report: the fragment, or, when
                                 // the call just started, everything so far.
  };

  // Applies one fragment. The returned views are valid until the next call.
  Update apply(const ToolCallDelta& delta);

  bool empty() const { return slots_.empty(); }
  std::size_t size() const { return slots_.size(); }
  const std::string& id(int slot) const { return slots_[slot].id; }
  const std::string& name(int slot) const { return slots_[slot].name; }

  // The calls in slot order, arguments joined ("{}" for a call without arguments) and
  // missing ids generated.
  std::vector<ToolCall> finish();

 private:
  struct Slot {
    std::string id;
    std::string name;
    std::vector<std::string> argument_parts;
    std::string extra_content;  // Gemini thought signature, JSON text.
    bool started = false;
  };

  int slot_for(const ToolCallDelta& delta);

  std::vector<Slot> slots_;
  std::vector<std::pair<int, int>> slot_of_index_;  // Raw index -> current slot.
  std::string joined_;                              // Backing text for Update::arguments.
};

}  // namespace hermes::internal
