#include "providers/tool_call_accumulator.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>

#include "common/json_text.hpp"

namespace hermes::internal {
namespace {

// An id for a call the server sent without one, unique within the process and unlikely
// to collide across processes.
std::string generated_call_id() {
  static std::atomic<uint64_t> counter{0};
  const uint64_t now =
      static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
  const uint64_t n = counter.fetch_add(1, std::memory_order_relaxed);
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "call_%012llx%06llx",
                static_cast<unsigned long long>(now & 0xFFFFFFFFFFFFULL),
                static_cast<unsigned long long>(n & 0xFFFFFFULL));
  return buffer;
}

}  // namespace

int ToolCallAccumulator::slot_for(const ToolCallDelta& delta) {
  const int raw = delta.has_index ? delta.index : 0;
  for (auto& [index, slot] : slot_of_index_) {
    if (index != raw) continue;
    // A different id at a used index is a new call (Ollama puts every call at 0).
    const std::string& known = slots_[slot].id;
    if (!delta.id.empty() && !known.empty() && known != delta.id) {
      slots_.emplace_back();
      slot = static_cast<int>(slots_.size()) - 1;
    }
    return slot;
  }
  slots_.emplace_back();
  const int slot = static_cast<int>(slots_.size()) - 1;
  slot_of_index_.emplace_back(raw, slot);
  return slot;
}

ToolCallAccumulator::Update ToolCallAccumulator::apply(const ToolCallDelta& delta) {
  Update update;
  update.slot = slot_for(delta);
  Slot& slot = slots_[update.slot];
  if (!delta.id.empty()) slot.id = delta.id;
  // Some servers resend the full name with every fragment: assign, never append.
  if (!delta.name.empty()) slot.name = delta.name;
  if (!delta.extra_content.empty()) slot.extra_content = delta.extra_content;
  if (!delta.arguments.empty()) slot.argument_parts.emplace_back(delta.arguments);
  if (!slot.started && !slot.name.empty()) {
    slot.started = true;
    update.started = true;
    joined_.clear();
    for (const std::string& part : slot.argument_parts) joined_ += part;
    update.arguments = joined_;
  } else if (slot.started) {
    update.arguments = delta.arguments;
  }
  return update;
}

std::vector<ToolCall> ToolCallAccumulator::finish() {
  std::vector<ToolCall> calls;
  calls.reserve(slots_.size());
  for (Slot& slot : slots_) {
    ToolCall call;
    call.id = slot.id.empty() ? generated_call_id() : std::move(slot.id);
    call.name = std::move(slot.name);
    std::size_t size = 0;
    for (const std::string& part : slot.argument_parts) size += part.size();
    call.arguments.reserve(size);
    for (const std::string& part : slot.argument_parts) call.arguments += part;
    if (call.arguments.empty()) call.arguments = "{}";  // A call without arguments.
    if (!slot.extra_content.empty()) {
      if (auto extra = parse_json(slot.extra_content)) {
        call.extra = Json::object({{"extra_content", std::move(*extra)}});
      }
    }
    calls.push_back(std::move(call));
  }
  slots_.clear();
  slot_of_index_.clear();
  return calls;
}

}  // namespace hermes::internal
