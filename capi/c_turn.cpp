// The turn document of hermes_agent_run_turn (and _async): the user message and the per-turn
// settings in, the result document out.
#include "c_internal.hpp"

namespace hermes::capi {
namespace {

Status wrong(const std::string& key, const char* expected) {
  return Status::invalid_argument("turn_json: " + key + ": expected " + expected);
}

Result<AgentOptions::Output> output_from_json(const Json& value) {
  if (!value.is_object()) return wrong("output", "an object");
  AgentOptions::Output output;
  for (const auto& [key, field] : value.items()) {
    if (key == "schema") {
      output.schema = field;
    } else if (key == "name") {
      if (!field.is_string()) return wrong("output.name", "a string");
      output.name = field.get<std::string>();
    } else if (key == "max_repairs") {
      if (!field.is_number_integer()) return wrong("output.max_repairs", "an integer");
      output.max_repairs = field.get<int>();
    } else {
      return Status::invalid_argument("turn_json: output." + key + ": unknown key");
    }
  }
  return output;
}

}  // namespace

Result<TurnOptions> turn_options_from_json(const Json& turn, std::string& user_message) {
  if (!turn.is_object()) return Status::invalid_argument("turn_json: expected an object");
  TurnOptions options;
  bool has_message = false;
  for (const auto& [key, value] : turn.items()) {
    if (key == "user_message") {
      if (!value.is_string()) return wrong(key, "a string");
      user_message = value.get<std::string>();
      has_message = true;
    } else if (key == "system_message") {
      if (!value.is_string()) return wrong(key, "a string");
      options.system_message = value.get<std::string>();
    } else if (key == "task_id") {
      if (!value.is_string()) return wrong(key, "a string");
      options.task_id = value.get<std::string>();
    } else if (key == "history") {
      auto messages = messages_from_json(value);
      if (!messages.ok()) {
        return Status::invalid_argument("turn_json: history: " + messages.status().message());
      }
      options.conversation_history = std::move(*messages);
    } else if (key == "output") {
      auto output = output_from_json(value);
      if (!output.ok()) return output.status();
      options.output = std::move(*output);
    } else {
      return Status::invalid_argument("turn_json: " + key + ": unknown key");
    }
  }
  if (!has_message) return Status::invalid_argument("turn_json: user_message: required");
  return options;
}

Result<TurnOptions> parse_turn(const char* turn_json, std::string& user_message) {
  auto document = parse_argument(turn_json, "turn_json");
  if (!document.ok()) return document.status();
  return turn_options_from_json(*document, user_message);
}

std::string turn_result_text(const ConversationResult& result) {
  return to_json_text(result.to_json());
}

}  // namespace hermes::capi
