// Request assembly: the wire copy of the transcript (wire_transcript.hpp). The stored
// transcript is never changed by wire fixes; everything here works on the wire copy.
#include "agent/turn_runner.hpp"
#include "common/text_utils.hpp"
#include "hermes/message_utils.hpp"
#include "hermes/token_estimate.hpp"

namespace hermes::internal {

std::string TurnRunner::wire_system_prompt() const {
  const std::string& system = core_.system_prompt;
  std::string eph = strip(core_.options.ephemeral_system_prompt);
  if (eph.empty()) return system;
  return system.empty() ? eph : system + "\n\n" + eph;
}

Json TurnRunner::offered_tool_definitions() const {
  if (st_.offered_tools.empty()) return Json::array();
  return core_.tools->definitions(st_.offered_tools);
}

int64_t TurnRunner::wire_estimate() {
  wire_.update(wire_system_prompt(), st_.messages);
  return wire_.estimate() + estimate_tools_tokens_rough(offered_tool_definitions());
}

ProviderRequest TurnRunner::assemble_request(bool with_tools, uint64_t& lease, bool wire_current) {
  const AgentOptions& opts = core_.options;
  ProviderRequest request;
  request.model = opts.provider.model;
  request.max_tokens = opts.request.max_tokens;
  request.temperature = opts.request.temperature;
  request.reasoning_effort =
      wire_reasoning_effort(opts.request.reasoning_effort, core_.reasoning_rejections);
  request.stream = opts.request.stream;

  if (!wire_current) wire_.update(wire_system_prompt(), st_.messages);
  request.messages = wire_.lend(lease);
  request.encoding_cache = wire_.encoding_cache();
  if (with_tools && !st_.offered_tools.empty()) request.tools = offered_tool_definitions();
  return request;
}

ModelCall TurnRunner::call_model_on_transcript(bool with_tools, std::optional<int64_t> max_tokens,
                                               bool wire_current) {
  uint64_t lease = 0;
  ProviderRequest request = assemble_request(with_tools, lease, wire_current);
  if (max_tokens) request.max_tokens = max_tokens;
  ModelCall call = call_model(request);
  wire_.take_back(std::move(request.messages), lease);
  return call;
}

}  // namespace hermes::internal
