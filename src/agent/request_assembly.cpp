// Request assembly: the wire copy of the transcript. The stored transcript is never
// changed by wire fixes; everything here works on a copy.
#include "agent/turn_runner.hpp"
#include "common/text_utils.hpp"
#include "hermes/message_utils.hpp"

namespace hermes::internal {

ProviderRequest TurnRunner::assemble_request(bool with_tools) const {
  const AgentOptions& opts = core_.options;
  ProviderRequest request;
  request.model = opts.provider.model;
  request.max_tokens = opts.request.max_tokens;
  request.temperature = opts.request.temperature;
  request.reasoning_effort =
      wire_reasoning_effort(opts.request.reasoning_effort, core_.reasoning_rejections);
  request.stream = opts.request.stream;

  std::string system = core_.system_prompt;
  if (std::string eph = strip(opts.ephemeral_system_prompt); !eph.empty()) {
    system = system.empty() ? eph : system + "\n\n" + eph;
  }

  std::vector<Message> wire;
  wire.reserve(st_.messages.size() + 1);
  if (!system.empty()) wire.push_back(Message::system(std::move(system)));
  wire.insert(wire.end(), st_.messages.begin(), st_.messages.end());
  request.messages = sanitize_api_messages(repair_message_sequence(std::move(wire)));

  if (with_tools && !st_.offered_tools.empty()) {
    request.tools = core_.tools->definitions(st_.offered_tools);
  }
  return request;
}

}  // namespace hermes::internal
