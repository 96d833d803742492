// The transcript repairs of hermes/message_utils.hpp (what the agent applies to every
// request's copy of the history, and embedders may apply to their own).
//
// Input: a JSON message list, run through every JSON-form repair; or, when the input is
// not JSON, a synthetic conversation whose texts are the raw input bytes (JSON parsing
// would reject invalid UTF-8 before the sanitiser saw it).
//
// Also: repair_tool_call_arguments of any input parses as JSON.
//
// Invariants of sanitize_api_messages: every text it promises to clean is valid UTF-8,
// every tool call's arguments parse as JSON, each assistant's tool calls are answered by
// exactly the tool results that follow it (orphans gone, missing ones stubbed), and the
// result reads back from its own JSON text. Nothing throws; bad JSON is a Status.
#include <algorithm>
#include <string>
#include <vector>

#include "common/json_text.hpp"
#include "common/utf8.hpp"
#include "fuzz/fuzz_support.hpp"
#include "hermes/message.hpp"
#include "hermes/message_utils.hpp"

namespace {

using hermes::Json;
using hermes::Message;
using hermes::Role;
using hermes::fuzz::require;
using hermes::internal::is_valid_utf8;

std::vector<Message> synthetic_conversation(std::string_view text) {
  const std::string t(text);
  Message assistant = Message::assistant(t);
  assistant.tool_calls.push_back({"c1", t, t, nullptr});
  assistant.tool_calls.push_back({"c2", "terminal", t, nullptr});
  Message thinking = Message::assistant("");
  thinking.reasoning = t;
  Message user = Message::user(t);
  user.api_content = t;
  return {Message::system(t), user, assistant, Message::tool("c1", t, t),
          Message::tool(t, "orphan", t), thinking, Message::user(t)};
}

void check_texts(const Message& m) {
  require(is_valid_utf8(m.content), "content is not valid UTF-8", m.content);
  require(is_valid_utf8(m.reasoning), "reasoning is not valid UTF-8", m.reasoning);
  for (const auto& call : m.tool_calls) {
    require(is_valid_utf8(call.name), "a tool name is not valid UTF-8", call.name);
    require(hermes::internal::parse_json(call.arguments).has_value(),
            "tool call arguments do not parse", call.arguments);
  }
}

// Each assistant's calls are answered, once each, by the tool results right after it.
void check_pairing(const std::vector<Message>& messages) {
  std::vector<std::string> open;
  bool in_group = false;
  for (const Message& m : messages) {
    if (m.role == Role::kTool) {
      require(in_group, "a tool result that follows no assistant", m.tool_call_id);
      auto it = std::find(open.begin(), open.end(), m.tool_call_id);
      require(it != open.end(), "a tool result that answers no open call", m.tool_call_id);
      open.erase(it);
      continue;
    }
    require(open.empty(), "a tool call left without a result", open.empty() ? "" : open.front());
    in_group = m.role == Role::kAssistant;
    for (const auto& call : m.tool_calls) open.push_back(call.id);
  }
  require(open.empty(), "a tool call left without a result at the end");
}

void check_sanitized(std::vector<Message> messages) {
  const std::vector<Message> out = hermes::sanitize_api_messages(std::move(messages));
  for (const Message& m : out) check_texts(m);
  check_pairing(out);
  const std::string text = hermes::internal::dump_json(hermes::messages_to_json(out));
  const std::optional<Json> back = hermes::internal::parse_json(text);
  require(back.has_value(), "the sanitised list's JSON does not parse", text);
  require(hermes::messages_from_json(*back).ok(), "the sanitised list does not read back", text);
}

void check_json_forms(const Json& value) {
  auto reject_only_as_invalid = [](const hermes::Status& s) {
    require(s.ok() || s.code() == hermes::StatusCode::kInvalidArgument,
            "a JSON-form repair failed with something but InvalidArgument", s.to_string());
  };
  reject_only_as_invalid(hermes::repair_message_sequence(value).status());
  reject_only_as_invalid(hermes::drop_thinking_only_and_merge_users(value).status());
  reject_only_as_invalid(hermes::sanitize_api_messages(value).status());
  reject_only_as_invalid(hermes::close_interrupted_tool_sequence(value, "done").status());
  reject_only_as_invalid(hermes::sanitize_messages_surrogates(value).status());
  if (value.is_array() && !value.empty()) {
    reject_only_as_invalid(hermes::is_thinking_only_assistant(value.front()).status());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = hermes::fuzz::as_text(data, size);
  hermes::fuzz::no_throw("message repairs", [&] {
    // Whatever a model wrote as arguments, the repair is JSON a provider parses.
    const std::string arguments = hermes::repair_tool_call_arguments(input);
    require(hermes::internal::parse_json(arguments).has_value(),
            "repaired tool call arguments do not parse", arguments);
    const std::optional<Json> parsed = hermes::internal::parse_json(input);
    if (!parsed) {
      check_sanitized(synthetic_conversation(input));
      return;
    }
    check_json_forms(*parsed);
    auto messages = hermes::messages_from_json(*parsed);
    if (!messages.ok()) return;
    check_sanitized(hermes::repair_message_sequence(*messages));
    check_sanitized(std::move(*messages));
  });
  return 0;
}
