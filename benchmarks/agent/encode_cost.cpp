#include "encode_cost.hpp"

#include <string>
#include <utility>
#include <vector>

#include "common/json_text.hpp"
#include "measure.hpp"
#include "providers/anthropic_request_builder.hpp"
#include "providers/chat_request_builder.hpp"
#include "providers/message_encoding_cache.hpp"
#include "workload.hpp"

namespace hermes::bench {
namespace {

using internal::MessageEncodingCache;

// One step of the loop: the model's call of `add` and its result.
std::vector<Message> tool_step(int n) {
  ToolCall call;
  call.id = "toolu_step_" + std::to_string(n);
  call.name = "add";
  call.arguments = "{\"a\": " + std::to_string(n) + ", \"b\": 1}";
  Message assistant = Message::assistant("");
  assistant.tool_calls.push_back(call);
  return {std::move(assistant),
          Message::tool(call.id, "add", "{\"sum\": " + std::to_string(n + 1) + "}")};
}

// Repeats `call` for about `seconds`; CPU µs per call.
template <typename Call>
double cpu_per_call(double seconds, Call call) {
  Stopwatch watch;
  std::size_t calls = 0;
  do {
    call();
    ++calls;
  } while (watch.elapsed().wall < seconds);
  return watch.elapsed().cpu * 1e6 / static_cast<double>(calls);
}

// A later call of a turn: the last step replaced by a new one, the cache told so, the
// body written. The history keeps its size from call to call.
template <typename Encode>
double later_call_cost(ProviderRequest request, double seconds, Encode encode) {
  MessageEncodingCache cache;
  request.encoding_cache = &cache;
  std::vector<Message> step = tool_step(0);
  for (Message& m : step) request.messages.push_back(std::move(m));
  std::size_t bytes = encode(request).size();
  int n = 1;
  const double us = cpu_per_call(seconds, [&] {
    request.messages.resize(request.messages.size() - 2);
    cache.keep_first(request.messages.size());
    for (Message& m : tool_step(n++)) request.messages.push_back(std::move(m));
    bytes += encode(request).size();
  });
  return bytes > 0 ? us : 0;
}

}  // namespace

Result<Json> measure_encode_cost(int history_size, double seconds) {
  Result<std::vector<Message>> history = messages_from_json(make_history(history_size));
  if (!history.ok()) return history.status();
  ProviderRequest request;
  request.model = "claude-sonnet-4-5";
  request.messages = std::move(*history);
  request.messages.insert(request.messages.begin(), Message::system("You are hermes."));
  request.stream = true;
  request.reasoning_effort = "high";
  const ToolSpec add = add_tool();
  request.tools = Json::array(
      {{{"type", "function"},
        {"function",
         {{"name", add.name}, {"description", add.description}, {"parameters", add.parameters}}}}});
  internal::AnthropicDialect anthropic;
  anthropic.prompt_caching = true;
  auto anthropic_body = [&](const ProviderRequest& r) {
    auto body = internal::encode_anthropic_request(r, anthropic);
    return body.ok() ? std::move(*body) : std::string();
  };
  std::size_t bytes = 0;
  const double scratch = cpu_per_call(seconds, [&] {
    auto body = internal::build_anthropic_request(request, anthropic);
    if (body.ok()) bytes += internal::dump_json(*body).size();
  });
  MessageEncodingCache cache;
  request.encoding_cache = &cache;
  const double first = cpu_per_call(seconds, [&] {
    cache.clear();
    bytes += anthropic_body(request).size();
  });
  request.encoding_cache = nullptr;
  const double later = later_call_cost(request, seconds, anthropic_body);
  const internal::ChatDialect chat;
  const double chat_later = later_call_cost(request, seconds, [&](const ProviderRequest& r) {
    auto body = internal::encode_chat_request(r, chat, "bench-model");
    return body.ok() ? std::move(*body) : std::string();
  });
  if (bytes == 0) return Status::internal("no Anthropic body was written");
  return Json{{"history", history_size},
              {"anthropic_from_scratch_us", scratch},
              {"anthropic_first_call_us", first},
              {"anthropic_later_call_us", later},
              {"chat_later_call_us", chat_later}};
}

}  // namespace hermes::bench
