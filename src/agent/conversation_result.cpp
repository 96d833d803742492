// The result of a turn in the upstream runtime's dictionary shape.
#include "hermes/agent.hpp"

namespace hermes {

Json ConversationResult::to_json() const {
  Json j;
  j["final_response"] = final_response ? Json(*final_response) : Json();
  j["last_reasoning"] = last_reasoning.empty() ? Json() : Json(last_reasoning);
  j["messages"] = messages_to_json(messages);
  j["api_calls"] = api_calls;
  j["completed"] = completed;
  j["failed"] = failed;
  j["partial"] = partial;
  j["interrupted"] = interrupted;
  j["turn_exit_reason"] = exit_reason;
  j["exit_reason"] = exit_reason;
  j["session_id"] = session_id;
  j["turn_id"] = turn_id;
  j["model"] = model;
  j["provider"] = provider;
  j["base_url"] = base_url;
  j["input_tokens"] = usage.input_tokens;
  j["output_tokens"] = usage.output_tokens;
  j["cache_read_tokens"] = usage.cache_read_tokens;
  j["cache_write_tokens"] = usage.cache_write_tokens;
  j["reasoning_tokens"] = usage.reasoning_tokens;
  j["prompt_tokens"] = usage.input_tokens;
  j["completion_tokens"] = usage.output_tokens;
  j["total_tokens"] = usage.total_tokens();
  j["last_prompt_tokens"] = last_prompt_tokens;
  j["estimated_cost_usd"] = estimated_cost_usd;
  j["cost_status"] = "unknown";
  if (!error.empty()) j["error"] = error;
  if (!failure_reason.empty()) j["failure_reason"] = failure_reason;
  if (!interrupt_message.empty()) j["interrupt_message"] = interrupt_message;
  if (!pending_steer.empty()) j["pending_steer"] = pending_steer;
  if (output) j["output"] = *output;
  return j;
}

}  // namespace hermes
