#include "providers/anthropic_message_conversion.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "common/text_utils.hpp"
#include "providers/anthropic_blocks.hpp"

namespace hermes::internal {
namespace {

using anthropic::is_blank_text;
using anthropic::is_cacheable;
using anthropic::is_thinking;
using anthropic::kEmptyPlaceholder;
using anthropic::text_block;

// One converted message. Only user messages may hold a plain string.
struct Turn {
  bool assistant = false;
  Json content;
  // Its thinking blocks were signed against blocks since removed: they no longer verify.
  bool signature_dead = false;
};

std::string type_of(const Json& block) {
  if (!block.is_object()) return {};
  auto it = block.find("type");
  return it != block.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::set<std::string> ids_of(const Json& blocks, std::string_view type, const char* key) {
  std::set<std::string> ids;
  if (!blocks.is_array()) return ids;
  for (const Json& block : blocks) {
    if (type_of(block) == type && block.contains(key) && block[key].is_string()) {
      ids.insert(block[key].get<std::string>());
    }
  }
  return ids;
}

const Json& ephemeral_marker() {
  static const Json marker = {{"type", "ephemeral"}};
  return marker;
}

Json without_thinking(const Json& blocks) {
  Json out = Json::array();
  for (const Json& block : blocks) {
    if (!is_thinking(block)) out.push_back(block);
  }
  return out;
}

class Converter {
 public:
  Converter(const AnthropicDialect& dialect, std::string_view model)
      : dialect_(dialect), model_(model) {}

  AnthropicConversation run(const std::vector<Message>& messages);
  Json run_one(const std::vector<Message>& messages, const AnthropicRunPlan& plan, std::size_t r);

 private:
  std::optional<Json> replay_ordered(const Message& message) const;
  Json assistant_blocks(const Message& message) const;
  void add_assistant(const Message& message, bool marked);
  void add_tool_result(const Message& message, bool marked);
  void add_user(const Message& message, bool marked);
  void add_message(const Message& message, bool marked);
  void strip_unanswered_calls(const std::set<std::string>& answered_after_last);
  std::set<std::string> kept_calls() const;
  void strip_unasked_results(const std::set<std::string>& asked);
  void merge_roles();
  void apply_thinking_policy(std::size_t last_assistant);
  Json kept_thinking(const Json& blocks, bool signature_dead) const;
  void scrub_blank_text();

  const AnthropicDialect& dialect_;
  const std::string_view model_;
  const Json& marker_ = ephemeral_marker();
  std::vector<Turn> turns_;
};

Json system_of(const std::vector<Message>& messages, bool marked) {
  std::string text;
  for (const Message& message : messages) {
    if (message.role != Role::kSystem || trim_ascii(message.wire_text()).empty()) continue;
    if (!text.empty()) text += "\n\n";
    text += message.wire_text();
  }
  if (text.empty()) return nullptr;
  if (!marked) return text;
  // A plain-string system prompt cannot carry a breakpoint.
  Json block = text_block(std::move(text));
  block["cache_control"] = ephemeral_marker();
  return Json::array({std::move(block)});
}

// The ordered blocks a thinking turn stored, replayed as they were (their signatures
// cover the blocks before them). tool_use inputs come from the stored tool calls, which
// the history may have edited since.
std::optional<Json> Converter::replay_ordered(const Message& message) const {
  const Json& stored = message.anthropic_content_blocks;
  // The same test anthropic_tool_use_ids makes: they must agree on which blocks go.
  if (!anthropic::replays_stored_blocks(stored)) return std::nullopt;
  std::map<std::string, Json> inputs;
  for (const ToolCall& call : message.tool_calls) {
    inputs[anthropic::sanitize_tool_id(call.id)] = anthropic::parse_arguments(call.arguments);
  }
  Json out = Json::array();
  bool dropped_text = false;
  for (const Json& block : stored) {
    std::optional<Json> clean = anthropic::replayable_block(block);
    if (!clean) {
      dropped_text = dropped_text || type_of(block) == "text";
      continue;
    }
    if (type_of(*clean) == "tool_use") {
      auto it = inputs.find((*clean)["id"].get<std::string>());
      if (it != inputs.end()) (*clean)["input"] = it->second;
    }
    out.push_back(std::move(*clean));
  }
  bool cacheable = false;
  for (const Json& block : out) cacheable = cacheable || is_cacheable(block);
  if (!cacheable && dropped_text) out.push_back(text_block(kEmptyPlaceholder));
  if (out.empty()) return std::nullopt;
  return out;
}

Json Converter::assistant_blocks(const Message& message) const {
  Json blocks = Json::array();
  if (message.reasoning_details.is_array()) {
    for (const Json& detail : message.reasoning_details) {
      if (!is_thinking(detail)) continue;
      if (auto block = anthropic::replayable_block(detail)) blocks.push_back(std::move(*block));
    }
  }
  if (message.parts.is_array()) {
    for (const Json& part : message.parts) {
      std::optional<Json> block = anthropic::block_from_part(part);
      if (block && !is_blank_text(*block)) blocks.push_back(std::move(*block));
    }
  } else if (!trim_ascii(message.content).empty()) {
    blocks.push_back(text_block(message.content));
  }
  for (const ToolCall& call : message.tool_calls) {
    blocks.push_back({{"type", "tool_use"},
                      {"id", anthropic::sanitize_tool_id(call.id)},
                      {"name", call.name},
                      {"input", anthropic::parse_arguments(call.arguments)}});
  }
  // Kimi wants a thinking block (possibly empty) on replayed tool-call turns; DeepSeek
  // wants its unsigned reasoning back. Both get it from the plain reasoning text.
  bool has_thinking = false;
  for (const Json& block : blocks) has_thinking = has_thinking || is_thinking(block);
  const bool kimi = dialect_.replay == ThinkingReplay::kKimi;
  const bool deepseek = dialect_.replay == ThinkingReplay::kDeepSeek;
  if (!has_thinking && ((kimi && (!message.reasoning.empty() || !message.tool_calls.empty())) ||
                        (deepseek && !message.reasoning.empty()))) {
    blocks.insert(blocks.begin(), Json{{"type", "thinking"}, {"thinking", message.reasoning}});
  }
  return blocks;
}

void Converter::add_assistant(const Message& message, bool marked) {
  Json blocks = replay_ordered(message).value_or(Json());
  if (blocks.is_null()) blocks = assistant_blocks(message);
  if (blocks.empty()) blocks.push_back(text_block(kEmptyPlaceholder));
  if (marked) anthropic::mark_last_cacheable(blocks, marker_);
  turns_.push_back({true, std::move(blocks), false});
}

void Converter::add_tool_result(const Message& message, bool marked) {
  Json content = message.wire_text().empty() ? Json("(no output)") : Json(message.wire_text());
  if (message.parts.is_array()) {
    Json blocks = Json::array();
    bool has_image = false;
    for (const Json& part : message.parts) {
      std::optional<Json> block = anthropic::block_from_part(part);
      if (!block || is_blank_text(*block)) continue;
      has_image = has_image || type_of(*block) == "image";
      blocks.push_back(std::move(*block));
    }
    if (has_image) content = std::move(blocks);
  }
  Json result = {{"type", "tool_result"},
                 {"tool_use_id", anthropic::sanitize_tool_id(message.tool_call_id)},
                 {"content", std::move(content)}};
  if (marked) result["cache_control"] = marker_;
  // Parallel results share the user message that follows their calls.
  if (!turns_.empty() && !turns_.back().assistant && turns_.back().content.is_array() &&
      !turns_.back().content.empty() && type_of(turns_.back().content[0]) == "tool_result") {
    turns_.back().content.push_back(std::move(result));
    return;
  }
  turns_.push_back({false, Json::array({std::move(result)}), false});
}

void Converter::add_user(const Message& message, bool marked) {
  if (message.parts.is_array()) {
    Json blocks = Json::array();
    for (const Json& part : message.parts) {
      if (std::optional<Json> block = anthropic::block_from_part(part)) {
        blocks.push_back(std::move(*block));
      }
    }
    if (!blocks.empty()) {
      if (marked) blocks.back()["cache_control"] = marker_;
      turns_.push_back({false, std::move(blocks), false});
      return;
    }
  }
  std::string text = message.wire_text();
  if (trim_ascii(text).empty()) text = "(empty message)";
  if (!marked) {
    turns_.push_back({false, std::move(text), false});
    return;
  }
  Json block = text_block(std::move(text));
  block["cache_control"] = marker_;
  turns_.push_back({false, Json::array({std::move(block)}), false});
}

void Converter::add_message(const Message& message, bool marked) {
  if (message.role == Role::kAssistant) {
    add_assistant(message, marked);
  } else if (message.role == Role::kTool) {
    add_tool_result(message, marked);
  } else {
    add_user(message, marked);
  }
}

// Compression and truncation can leave either half of a tool pair behind; the API wants
// every tool_use answered in the very next message and every tool_result asked for.
// `answered_after_last`: the results of the message after the last one held, if any.
void Converter::strip_unanswered_calls(const std::set<std::string>& answered_after_last) {
  for (std::size_t i = 0; i < turns_.size(); ++i) {
    Turn& turn = turns_[i];
    if (!turn.assistant || !turn.content.is_array()) continue;
    const std::set<std::string> uses = ids_of(turn.content, "tool_use", "id");
    if (uses.empty()) continue;
    std::set<std::string> answered;
    if (i + 1 == turns_.size()) {
      answered = answered_after_last;
    } else if (!turns_[i + 1].assistant) {
      answered = ids_of(turns_[i + 1].content, "tool_result", "tool_use_id");
    }
    Json kept = Json::array();
    bool had_thinking = false;
    for (const Json& block : turn.content) {
      had_thinking = had_thinking || is_thinking(block);
      const bool orphan =
          type_of(block) == "tool_use" && !answered.count(block["id"].get<std::string>());
      if (!orphan) kept.push_back(block);
    }
    if (kept.size() == turn.content.size()) continue;
    turn.signature_dead = turn.signature_dead || had_thinking;
    turn.content =
        kept.empty() ? Json::array({text_block("(tool call removed)")}) : std::move(kept);
  }
}

std::set<std::string> Converter::kept_calls() const {
  std::set<std::string> kept;
  for (const Turn& turn : turns_) {
    if (!turn.assistant) continue;
    const std::set<std::string> uses = ids_of(turn.content, "tool_use", "id");
    kept.insert(uses.begin(), uses.end());
  }
  return kept;
}

void Converter::strip_unasked_results(const std::set<std::string>& asked) {
  for (Turn& turn : turns_) {
    if (turn.assistant || !turn.content.is_array()) continue;
    Json kept = Json::array();
    for (const Json& block : turn.content) {
      const bool orphan = type_of(block) == "tool_result" &&
                          !asked.count(block.value("tool_use_id", std::string()));
      if (!orphan) kept.push_back(block);
    }
    if (kept.size() == turn.content.size()) continue;
    turn.content =
        kept.empty() ? Json::array({text_block("(tool result removed)")}) : std::move(kept);
  }
}

// Strings become text blocks and are never joined, so the bytes of a turn stay the bytes
// a later request replays (a joined string would move the prompt-cache prefix).
void Converter::merge_roles() {
  std::vector<Turn> merged;
  for (Turn& turn : turns_) {
    if (merged.empty() || merged.back().assistant != turn.assistant) {
      merged.push_back(std::move(turn));
      continue;
    }
    Turn& previous = merged.back();
    auto as_blocks = [](Json content) {
      return content.is_string() ? Json::array({text_block(content.get<std::string>())}) : content;
    };
    Json combined = as_blocks(std::move(previous.content));
    // The second turn's thinking was signed against another turn boundary.
    Json appended = as_blocks(std::move(turn.content));
    if (turn.assistant) appended = without_thinking(appended);
    for (Json& block : appended) combined.push_back(std::move(block));
    previous.content = std::move(combined);
    previous.signature_dead = previous.signature_dead || turn.signature_dead;
  }
  turns_ = std::move(merged);
}

// Signed blocks stay unless their signature no longer verifies; readable unsigned (or
// invalidated) thinking is demoted to text, and dataless redacted thinking is dropped.
Json Converter::kept_thinking(const Json& blocks, bool signature_dead) const {
  Json out = Json::array();
  for (const Json& block : blocks) {
    if (!is_thinking(block)) {
      out.push_back(block);
      continue;
    }
    const bool redacted = type_of(block) == "redacted_thinking";
    const std::string signature = block.value(redacted ? "data" : "signature", std::string());
    const std::string text = block.value("thinking", std::string());
    if (!signature.empty() && !signature_dead) {
      out.push_back(block);
    } else if ((signature_dead || !redacted) && !trim_ascii(text).empty()) {
      out.push_back(text_block(text));
    }
  }
  return out;
}

// `last_assistant`: the index of the conversation's last assistant turn, if held.
void Converter::apply_thinking_policy(std::size_t last_assistant) {
  const bool keep_prior = model_preserves_prior_thinking(model_);
  for (std::size_t i = 0; i < turns_.size(); ++i) {
    Turn& turn = turns_[i];
    if (!turn.assistant || !turn.content.is_array()) continue;
    switch (dialect_.replay) {
      case ThinkingReplay::kKimi:
        break;
      case ThinkingReplay::kDeepSeek: {
        Json kept = Json::array();
        for (const Json& block : turn.content) {
          const bool signed_block = block.value("signature", std::string()) != "" ||
                                    block.value("data", std::string()) != "";
          if (!is_thinking(block) || !signed_block) kept.push_back(block);
        }
        turn.content =
            kept.empty() ? Json::array({text_block(kEmptyPlaceholder)}) : std::move(kept);
        break;
      }
      case ThinkingReplay::kThirdParty:
      case ThinkingReplay::kNative:
        if (dialect_.replay == ThinkingReplay::kThirdParty ||
            (i != last_assistant && !keep_prior)) {
          Json kept = without_thinking(turn.content);
          turn.content =
              kept.empty() ? Json::array({text_block("(thinking elided)")}) : std::move(kept);
        } else {
          Json kept = kept_thinking(turn.content, turn.signature_dead);
          turn.content =
              kept.empty() ? Json::array({text_block(kEmptyPlaceholder)}) : std::move(kept);
        }
        break;
    }
    // A breakpoint on a thinking block breaks its signature check.
    for (Json& block : turn.content) {
      if (is_thinking(block)) block.erase("cache_control");
    }
  }
}

// Drops blank text blocks (the API rejects them), moving a breakpoint one carried onto
// the last block that can hold it, and fills an emptied list with a placeholder.
Json scrubbed(const Json& blocks, const char* placeholder) {
  Json kept = Json::array();
  Json moved_marker;
  for (const Json& block : blocks) {
    if (!is_blank_text(block)) {
      kept.push_back(block);
    } else if (block.contains("cache_control")) {
      moved_marker = block["cache_control"];
    }
  }
  if (kept.empty()) kept.push_back(text_block(placeholder));
  if (!moved_marker.is_null()) anthropic::mark_last_cacheable(kept, moved_marker);
  return kept;
}

void Converter::scrub_blank_text() {
  for (Turn& turn : turns_) {
    if (!turn.content.is_array()) continue;
    turn.content = scrubbed(turn.content, turn.assistant ? kEmptyPlaceholder : "(empty message)");
    for (Json& block : turn.content) {
      if (type_of(block) != "tool_result") continue;
      Json& inner = block["content"];
      if (inner.is_array() && !inner.empty()) inner = scrubbed(inner, "(no output)");
    }
  }
}

AnthropicConversation Converter::run(const std::vector<Message>& messages) {
  const AnthropicSources sources = anthropic_sources(messages, dialect_);
  AnthropicConversation out;
  out.system = system_of(messages, dialect_.prompt_caching);
  for (std::size_t i : sources.others) add_message(messages[i], sources.marked[i]);
  strip_unanswered_calls({});
  strip_unasked_results(kept_calls());
  merge_roles();
  if (turns_.empty() || turns_.front().assistant) {
    turns_.insert(turns_.begin(), Turn{false, Json::array({text_block(kEmptyPlaceholder)}), false});
  }
  std::size_t last_assistant = turns_.size();
  for (std::size_t i = 0; i < turns_.size(); ++i) {
    if (turns_[i].assistant) last_assistant = i;
  }
  apply_thinking_policy(last_assistant);
  scrub_blank_text();
  out.messages = Json::array();
  for (Turn& turn : turns_) {
    out.messages.push_back(
        {{"role", turn.assistant ? "assistant" : "user"}, {"content", std::move(turn.content)}});
  }
  return out;
}

// The steps of run() on one run's messages, with what the rest of the conversation would
// have told them from the plan.
Json Converter::run_one(const std::vector<Message>& messages, const AnthropicRunPlan& plan,
                        std::size_t r) {
  const AnthropicRun& run = plan.runs[r];
  for (std::size_t k = run.from; k < run.to; ++k) {
    const std::size_t i = plan.sources.others[k];
    add_message(messages[i], plan.sources.marked[i]);
  }
  if (run.assistant) {
    strip_unanswered_calls(anthropic_opening_result_ids(messages, plan, r + 1));
  } else {
    strip_unasked_results(anthropic_asked_result_ids(messages, plan, run));
  }
  merge_roles();
  apply_thinking_policy(run.last_assistant ? 0 : turns_.size());
  scrub_blank_text();
  Turn& turn = turns_.front();
  return {{"role", turn.assistant ? "assistant" : "user"}, {"content", std::move(turn.content)}};
}

}  // namespace

AnthropicConversation convert_to_anthropic(const std::vector<Message>& messages,
                                           const AnthropicDialect& dialect,
                                           std::string_view model) {
  return Converter(dialect, model).run(messages);
}

Json anthropic_system_prompt(const std::vector<Message>& messages,
                             const AnthropicDialect& dialect) {
  return system_of(messages, dialect.prompt_caching);
}

Json convert_anthropic_run(const std::vector<Message>& messages, const AnthropicRunPlan& plan,
                           std::size_t r, const AnthropicDialect& dialect, std::string_view model) {
  return Converter(dialect, model).run_one(messages, plan, r);
}

Json anthropic_leading_placeholder() {
  return {{"role", "user"}, {"content", Json::array({text_block(kEmptyPlaceholder)})}};
}

}  // namespace hermes::internal
