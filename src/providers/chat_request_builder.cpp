#include "providers/chat_request_builder.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "providers/chat_cache_markers.hpp"
#include "providers/message_encoding_cache.hpp"
#include "providers/reasoning_models.hpp"
#include "providers/request_checks.hpp"
#include "providers/spliced_body.hpp"
#include "providers/tool_definitions.hpp"
#include "providers/url_parts.hpp"

namespace hermes::internal {
namespace {

bool is_openai_host(std::string_view host) {
  return host == "api.openai.com" || host.ends_with(".api.openai.com") ||
         host.ends_with(".openai.azure.com") || host == "api.githubcopilot.com" ||
         host == "models.github.ai";
}

bool wants_reasoning_echo(std::string_view provider, std::string_view host,
                          std::string_view model) {
  for (std::string_view name : {"deepseek", "kimi", "kimi-coding", "moonshot", "xiaomi", "mimo"}) {
    if (provider == name) return true;
  }
  if (host == "api.deepseek.com" || contains(host, "moonshot") || contains(host, "xiaomimimo")) {
    return true;
  }
  return model.starts_with("deepseek-reasoner") || model.starts_with("kimi-") ||
         model.starts_with("mimo-");
}

std::string clamped_effort(const std::string& effort) {
  if (effort == "minimal") return "low";
  if (effort == "xhigh" || effort == "max") return "high";
  return effort;
}

// The content of a message on the wire: its parts when it has them, else its text.
Json wire_content(const Message& message) {
  if (message.parts.is_array()) return message.parts;
  return message.wire_text();
}

Json wire_tool_call(const ToolCall& call, const ChatDialect& dialect) {
  Json out = {
      {"id", call.id},
      {"type", "function"},
      {"function",
       {{"name", call.name}, {"arguments", call.arguments.empty() ? "{}" : call.arguments}}}};
  if (dialect.keep_thought_signatures && call.extra.is_object()) {
    if (auto it = call.extra.find("extra_content"); it != call.extra.end()) {
      out["extra_content"] = *it;
    }
  }
  return out;
}

// The reasoning a thinking-mode server wants replayed on an assistant turn.
std::string replayed_reasoning(const Message& message) {
  if (!message.reasoning.empty()) return message.reasoning;
  if (message.extra.is_object()) {
    auto it = message.extra.find("reasoning_content");
    if (it != message.extra.end() && it->is_string()) return it->get<std::string>();
  }
  return {};
}

Json wire_assistant(const Message& message, const ChatDialect& dialect) {
  Json out = {{"role", "assistant"}};
  const bool has_calls = !message.tool_calls.empty();
  if (message.parts.is_null() && message.content.empty() && has_calls) {
    out["content"] = nullptr;
  } else {
    out["content"] = wire_content(message);
  }
  if (has_calls) {
    Json calls = Json::array();
    for (const ToolCall& call : message.tool_calls) calls.push_back(wire_tool_call(call, dialect));
    out["tool_calls"] = std::move(calls);
  }
  if (dialect.echo_reasoning_content) {
    std::string reasoning = replayed_reasoning(message);
    // DeepSeek V4 rejects an empty reasoning_content on a tool-call turn.
    if (reasoning.empty() && has_calls) reasoning = " ";
    if (!reasoning.empty()) out["reasoning_content"] = std::move(reasoning);
  }
  if (dialect.send_reasoning_details && message.reasoning_details.is_array() &&
      !message.reasoning_details.empty()) {
    out["reasoning_details"] = message.reasoning_details;
  }
  return out;
}

Result<Json> wire_message(const Message& message, bool first, const ChatDialect& dialect) {
  switch (message.role) {
    case Role::kSystem: {
      const char* role = first && dialect.developer_role ? "developer" : "system";
      return Json{{"role", role}, {"content", wire_content(message)}};
    }
    case Role::kUser:
      return Json{{"role", "user"}, {"content", wire_content(message)}};
    case Role::kAssistant:
      return wire_assistant(message, dialect);
    case Role::kTool:
      if (message.tool_call_id.empty()) {
        return Status::invalid_argument("tool_call_id: missing on a tool message");
      }
      return Json{{"role", "tool"},
                  {"tool_call_id", message.tool_call_id},
                  {"content", wire_content(message)}};
  }
  return Status::invalid_argument("role: unknown");
}

// Tool definitions in the {"type":"function","function":{...}} shape; bare function
// objects ({"name":..., "parameters":...}) are wrapped.
Result<Json> wire_tools(const Json& tools) {
  auto definitions = read_tool_definitions(tools);
  if (!definitions.ok()) return definitions.status();
  Json out = Json::array();
  for (const ToolDefinition& definition : *definitions) {
    out.push_back(definition.wrapped ? *definition.tool
                                     : Json{{"type", "function"}, {"function", *definition.tool}});
  }
  return out;
}

void add_reasoning_effort(const ProviderRequest& request, const ChatDialect& dialect, Json& body) {
  if (request.reasoning_effort.empty() || !dialect.send_reasoning_effort) return;
  // Servers compare the level case-sensitively: "High " is sent as "high".
  const std::string level = lower_ascii(trim_ascii(request.reasoning_effort));
  if (level.empty()) return;
  const std::string effort = dialect.clamp_reasoning_effort ? clamped_effort(level) : level;
  if (dialect.nested_reasoning_effort) {
    body["reasoning"] = {{"effort", effort}};
  } else {
    body["reasoning_effort"] = effort;
  }
}

}  // namespace

ChatDialect chat_dialect_for(std::string_view provider, std::string_view base_url,
                             std::string_view model) {
  const std::string name = lower_ascii(provider);
  const std::string host = url_host(base_url);
  const std::string bare = bare_model(model);
  const std::string full = lower_ascii(model);
  const bool openai = is_openai_host(host);
  const bool openrouter = name == "openrouter" || host == "openrouter.ai";

  ChatDialect dialect;
  dialect.max_completion_tokens = openai || is_openai_reasoning_model(bare);
  dialect.developer_role = contains(full, "gpt-5") || contains(full, "codex");
  dialect.echo_reasoning_content = wants_reasoning_echo(name, host, bare);
  dialect.send_reasoning_details = openrouter;
  dialect.keep_thought_signatures = contains(full, "gemini") || contains(full, "gemma");
  dialect.send_reasoning_effort = !is_openai_classic_model(bare);
  dialect.send_temperature = !is_openai_reasoning_model(bare);
  dialect.nested_reasoning_effort = openrouter;
  dialect.cache_markers = (openrouter || name == "nous" || contains(host, "nousresearch.com")) &&
                          contains(full, "claude");
  dialect.clamp_reasoning_effort =
      !openai && !openrouter && (name.empty() || name == "custom" || name == "local");
  return dialect;
}

namespace {

// Everything but the messages: the model, tools, limits and options, and extra_body.
Result<Json> chat_envelope(const ProviderRequest& request, const ChatDialect& dialect,
                           std::string_view model) {
  auto tools = wire_tools(request.tools);
  if (!tools.ok()) return tools.status();
  Json body = {{"model", model}};
  if (!tools->empty()) body["tools"] = std::move(*tools);
  if (request.max_tokens) {
    body[dialect.max_completion_tokens ? "max_completion_tokens" : "max_tokens"] =
        *request.max_tokens;
  }
  if (request.temperature && dialect.send_temperature) body["temperature"] = *request.temperature;
  add_reasoning_effort(request, dialect, body);
  body["stream"] = request.stream;
  if (request.stream && dialect.include_usage) {
    body["stream_options"] = {{"include_usage", true}};
  }
  if (request.extra_body.is_object()) {
    for (auto it = request.extra_body.begin(); it != request.extra_body.end(); ++it) {
      body[it.key()] = it.value();
    }
  }
  return body;
}

Result<Json> wire_message_at(const ProviderRequest& request, std::size_t i,
                             const ChatDialect& dialect) {
  auto wire = wire_message(request.messages[i], i == 0, dialect);
  if (!wire.ok()) {
    return Status::invalid_argument("messages[" + std::to_string(i) + "]." +
                                    wire.status().message());
  }
  if (dialect.cache_markers) strip_cache_markers(*wire);
  return wire;
}

// What besides a message shapes its encoding: the dialect's message switches.
uint64_t message_encoding_key(const ChatDialect& dialect) {
  uint64_t key = 0x4348415400000000ull;  // "CHAT"
  const bool bits[] = {dialect.developer_role, dialect.echo_reasoning_content,
                       dialect.send_reasoning_details, dialect.keep_thought_signatures,
                       dialect.cache_markers};
  for (std::size_t i = 0; i < sizeof bits / sizeof bits[0]; ++i) {
    if (bits[i]) key |= uint64_t{1} << i;
  }
  return key;
}

// The messages that carry a cache marker (chat_cache_markers.hpp), with their marked form.
Result<std::vector<std::pair<std::size_t, Json>>> marked_messages(const ProviderRequest& request,
                                                                  const ChatDialect& dialect) {
  std::vector<std::pair<std::size_t, Json>> marked;
  if (!dialect.cache_markers) return marked;
  const std::size_t n = request.messages.size();
  std::size_t first_other = 0;
  if (request.messages.front().role == Role::kSystem) {
    auto head = wire_message_at(request, 0, dialect);
    if (!head.ok()) return head.status();
    if (can_carry_cache_marker(*head)) {
      add_cache_marker(*head);
      marked.emplace_back(0, std::move(*head));
    }
    first_other = 1;
  }
  std::size_t tail = 0;
  for (std::size_t i = n; i-- > first_other && tail < kCacheMarkedTailMessages;) {
    auto wire = wire_message_at(request, i, dialect);
    if (!wire.ok()) return wire.status();
    if (!can_carry_cache_marker(*wire)) continue;
    add_cache_marker(*wire);
    marked.emplace_back(i, std::move(*wire));
    ++tail;
  }
  return marked;
}

// The messages array, each message from the request's encoding cache when it has it.
Status append_messages(std::string& out, const ProviderRequest& request,
                       const ChatDialect& dialect) {
  auto marked = marked_messages(request, dialect);
  if (!marked.ok()) {  // Named in message order, as the from-scratch build names it.
    for (std::size_t i = 0; i < request.messages.size(); ++i) {
      HERMES_RETURN_IF_ERROR(wire_message_at(request, i, dialect).status());
    }
    return marked.status();
  }
  MessageEncodingCache* cache = request.encoding_cache;
  const uint64_t key = message_encoding_key(dialect);
  out.push_back('[');
  for (std::size_t i = 0; i < request.messages.size(); ++i) {
    if (i > 0) out.push_back(',');
    auto m =
        std::find_if(marked->begin(), marked->end(), [&](const auto& e) { return e.first == i; });
    if (m != marked->end()) {
      append_json(out, m->second);
      continue;
    }
    if (const std::string* bytes = cache ? cache->find(i, key) : nullptr) {
      out += *bytes;
      continue;
    }
    auto wire = wire_message_at(request, i, dialect);
    if (!wire.ok()) return wire.status();
    if (cache == nullptr) {
      append_json(out, *wire);
      continue;
    }
    std::string bytes;
    append_json(bytes, *wire);
    out += bytes;
    cache->store(i, key, std::move(bytes));
  }
  out.push_back(']');
  return {};
}

}  // namespace

Result<Json> build_chat_request(const ProviderRequest& request, const ChatDialect& dialect,
                                std::string_view default_model) {
  const std::string_view model = request.model.empty() ? default_model : request.model;
  HERMES_RETURN_IF_ERROR(check_request(request, model));
  Json messages = Json::array();
  for (std::size_t i = 0; i < request.messages.size(); ++i) {
    auto wire = wire_message(request.messages[i], i == 0, dialect);
    if (!wire.ok()) {
      return Status::invalid_argument("messages[" + std::to_string(i) + "]." +
                                      wire.status().message());
    }
    messages.push_back(std::move(*wire));
  }
  if (dialect.cache_markers) apply_envelope_cache_markers(messages);
  auto body = chat_envelope(request, dialect, model);
  if (!body.ok()) return body.status();
  if (!messages_overridden(request)) (*body)["messages"] = std::move(messages);
  return body;
}

Result<std::string> encode_chat_request(const ProviderRequest& request, const ChatDialect& dialect,
                                        std::string_view default_model) {
  const std::string_view model = request.model.empty() ? default_model : request.model;
  HERMES_RETURN_IF_ERROR(check_request(request, model));
  auto body = chat_envelope(request, dialect, model);
  if (messages_overridden(request) || !body.ok()) {
    // Rare: the messages replaced, or something that cannot be encoded (named in the
    // from-scratch build's order).
    auto built = build_chat_request(request, dialect, default_model);
    if (!built.ok()) return built.status();
    return dump_json(*built);
  }
  MessageEncodingCache* cache = request.encoding_cache;
  auto out = write_spliced_body(
      *body, "messages", cache ? cache->bytes_hint() : 4096,
      [&](std::string& text) { return append_messages(text, request, dialect); });
  if (!out.ok()) return out.status();
  if (cache) cache->note_bytes(out->size());
  return out;
}

}  // namespace hermes::internal
