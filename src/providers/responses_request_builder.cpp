#include "providers/responses_request_builder.hpp"

#include <optional>
#include <set>
#include <string>
#include <utility>

#include "common/json_text.hpp"
#include "common/sha256.hpp"
#include "common/text_utils.hpp"
#include "providers/message_encoding_cache.hpp"
#include "providers/reasoning_models.hpp"
#include "providers/request_checks.hpp"
#include "providers/spliced_body.hpp"
#include "providers/tool_definitions.hpp"
#include "providers/url_parts.hpp"

namespace hermes::internal {
namespace {

// The Responses API rejects input item ids and call ids longer than this (HTTP 400).
constexpr std::size_t kMaxItemIdLength = 64;
// `instructions` is required by the Codex backend and cannot be blank.
constexpr const char* kDefaultInstructions = "You are a helpful assistant.";

// The Codex backend refuses a request whose text contains a literal Harmony control token
// ("invalid_prompt: Request blocked."); a full-width bar keeps the text readable.
std::string neutralize_harmony(std::string text) {
  static constexpr std::string_view kTokens[] = {"start",     "end",    "channel", "message",
                                                 "constrain", "return", "call"};
  static constexpr std::string_view kBar = "\xEF\xBD\x9C";  // U+FF5C
  std::size_t at = 0;
  while ((at = text.find("<|", at)) != std::string::npos) {
    const std::size_t close = text.find("|>", at + 2);
    if (close == std::string::npos) break;
    const std::string_view name(text.data() + at + 2, close - at - 2);
    bool reserved = false;
    for (std::string_view token : kTokens) reserved = reserved || name == token;
    if (!reserved) {
      at += 2;
      continue;
    }
    std::string replacement = "<" + std::string(kBar) + std::string(name) + std::string(kBar) + ">";
    text.replace(at, close + 2 - at, replacement);
    at += replacement.size();
  }
  return text;
}

// Converts one request; holds what the conversion of a message needs to know about the
// others.
class InputBuilder {
 public:
  InputBuilder(const ResponsesDialect& dialect, std::size_t replay_only_at)
      : dialect_(dialect), replay_only_at_(replay_only_at) {}

  Status add(const Message& message, std::size_t index);
  Json take() { return std::exchange(items_, Json::array()); }

 private:
  std::string text(std::string value) const {
    return dialect_.codex_backend ? neutralize_harmony(std::move(value)) : value;
  }
  Json content_parts(const Json& parts, bool assistant) const;
  void add_user(const Message& message);
  void add_assistant(const Message& message, std::size_t index);
  bool add_reasoning_items(const Message& message, std::size_t index);
  bool add_message_items(const Message& message);
  Status add_tool_result(const Message& message);

  const ResponsesDialect& dialect_;
  const std::size_t replay_only_at_;  // Index of the only turn to replay reasoning for.
  std::set<std::string> replayed_ids_;
  Json items_ = Json::array();
};

// Chat-style content parts as Responses parts: text becomes input_text (output_text on
// assistant turns, which reject input_text) and image_url becomes input_image with a
// plain string URL.
Json InputBuilder::content_parts(const Json& parts, bool assistant) const {
  Json out = Json::array();
  for (const Json& part : parts) {
    if (!part.is_object()) continue;
    const std::string type = lower_ascii(string_member(part, "type"));
    if (type == "text" || type == "input_text" || type == "output_text") {
      std::string value = string_member(part, "text");
      if (value.empty()) continue;
      out.push_back({{"type", assistant ? "output_text" : "input_text"}, {"text", text(value)}});
    } else if (type == "image_url" || type == "input_image") {
      const Json& image = part.contains("image_url") ? part["image_url"] : Json();
      std::string url = image.is_object() ? string_member(image, "url")
                                          : (image.is_string() ? image.get<std::string>() : "");
      std::string detail = image.is_object() ? string_member(image, "detail") : "";
      if (detail.empty()) detail = string_member(part, "detail");
      if (url.empty()) continue;
      Json converted = {{"type", "input_image"}, {"image_url", std::move(url)}};
      if (!trim_ascii(detail).empty()) converted["detail"] = std::string(trim_ascii(detail));
      out.push_back(std::move(converted));
    }
  }
  return out;
}

void InputBuilder::add_user(const Message& message) {
  if (message.parts.is_array()) {
    Json parts = content_parts(message.parts, /*assistant=*/false);
    if (!parts.empty()) {
      items_.push_back({{"role", "user"}, {"content", std::move(parts)}});
      return;
    }
  }
  items_.push_back({{"role", "user"}, {"content", text(message.wire_text())}});
}

// Replays the turn's reasoning items: type, summary (required, [] when absent) and the
// encrypted content only. The id goes (with store=false the server cannot look it up and
// answers 404), and so do hermes' own keys.
bool InputBuilder::add_reasoning_items(const Message& message, std::size_t index) {
  if (!message.codex_reasoning_items.is_array()) return false;
  if (replay_only_at_ != SIZE_MAX && index != replay_only_at_) return false;
  bool added = false;
  for (const Json& item : message.codex_reasoning_items) {
    if (!item.is_object() || string_member(item, "encrypted_content").empty()) continue;
    const std::string id = string_member(item, "id");
    if (!id.empty() && !replayed_ids_.insert(id).second) continue;
    const std::string issuer = string_member(item, kIssuerKey);
    if (!issuer.empty() && issuer != dialect_.issuer) continue;
    Json replay = {
        {"type", "reasoning"},
        {"summary",
         item.contains("summary") && item["summary"].is_array() ? item["summary"] : Json::array()},
        {"encrypted_content", item["encrypted_content"]}};
    items_.push_back(std::move(replay));
    added = true;
  }
  return added;
}

// Replays the turn's assistant message items with their phase (OpenAI asks clients to
// resend it) and their id when it is short enough and the endpoint keeps ids.
bool InputBuilder::add_message_items(const Message& message) {
  if (!message.codex_message_items.is_array()) return false;
  bool added = false;
  for (const Json& item : message.codex_message_items) {
    if (!item.is_object() || string_member(item, "type") != "message" ||
        string_member(item, "role") != "assistant" || !item.contains("content") ||
        !item["content"].is_array()) {
      continue;
    }
    Json parts = Json::array();
    for (const Json& part : item["content"]) {
      const std::string type = part.is_object() ? string_member(part, "type") : "";
      if (type != "output_text" && type != "text") continue;
      parts.push_back({{"type", "output_text"}, {"text", text(string_member(part, "text"))}});
    }
    if (parts.empty()) continue;
    std::string status = lower_ascii(string_member(item, "status"));
    if (status != "completed" && status != "incomplete" && status != "in_progress") {
      status = "completed";
    }
    Json replay = {{"type", "message"},
                   {"role", "assistant"},
                   {"status", std::move(status)},
                   {"content", std::move(parts)}};
    const std::string id(trim_ascii(string_member(item, "id")));
    if (!dialect_.github && !id.empty() && id.size() <= kMaxItemIdLength) replay["id"] = id;
    const std::string phase(trim_ascii(string_member(item, "phase")));
    if (!phase.empty()) replay["phase"] = phase;
    items_.push_back(std::move(replay));
    added = true;
  }
  return added;
}

// The call id of a stored tool call: "call_x|fc_y" keeps its left part, and a bare item
// id "fc_y" becomes "call_y".
std::string call_id_of(std::string_view stored) {
  stored = trim_ascii(stored);
  if (const std::size_t bar = stored.find('|'); bar != std::string_view::npos) {
    stored = trim_ascii(stored.substr(0, bar));
  }
  if (stored.starts_with("fc_") && stored.size() > 3)
    return "call_" + std::string(stored.substr(3));
  return std::string(stored);
}

void InputBuilder::add_assistant(const Message& message, std::size_t index) {
  const bool had_reasoning = add_reasoning_items(message, index);
  if (!add_message_items(message)) {
    Json parts = message.parts.is_array() ? content_parts(message.parts, true) : Json::array();
    if (!parts.empty()) {
      items_.push_back({{"role", "assistant"}, {"content", std::move(parts)}});
    } else if (!trim_ascii(message.content).empty()) {
      items_.push_back({{"role", "assistant"}, {"content", text(message.content)}});
    } else if (had_reasoning && message.tool_calls.empty()) {
      // A reasoning item must be followed by another item (400 missing_following_item).
      items_.push_back({{"role", "assistant"}, {"content", ""}});
    }
  }
  for (const ToolCall& call : message.tool_calls) {
    if (trim_ascii(call.name).empty()) continue;
    std::string arguments(trim_ascii(call.arguments));
    if (arguments.empty()) arguments = "{}";
    items_.push_back({{"type", "function_call"},
                      {"call_id", clamp_call_id(call_id_of(call.id))},
                      {"name", call.name},
                      {"arguments", text(std::move(arguments))}});
  }
}

Status InputBuilder::add_tool_result(const Message& message) {
  const std::string call_id = call_id_of(message.tool_call_id);
  if (call_id.empty()) return Status::invalid_argument("tool_call_id: missing on a tool message");
  Json output = text(message.wire_text());
  if (message.parts.is_array()) {
    Json parts = content_parts(message.parts, /*assistant=*/false);
    if (!parts.empty()) output = std::move(parts);
  }
  items_.push_back({{"type", "function_call_output"},
                    {"call_id", clamp_call_id(call_id)},
                    {"output", std::move(output)}});
  return {};
}

Status InputBuilder::add(const Message& message, std::size_t index) {
  switch (message.role) {
    case Role::kSystem:
      return {};  // Sent as instructions.
    case Role::kUser:
      add_user(message);
      return {};
    case Role::kAssistant:
      add_assistant(message, index);
      return {};
    case Role::kTool:
      return add_tool_result(message);
  }
  return Status::invalid_argument("role: unknown");
}

std::string instructions_of(const std::vector<Message>& messages) {
  std::string out;
  for (const Message& message : messages) {
    if (message.role != Role::kSystem || trim_ascii(message.wire_text()).empty()) continue;
    if (!out.empty()) out += "\n\n";
    out += trim_ascii(message.wire_text());
  }
  return out.empty() ? kDefaultInstructions : out;
}

// The newest assistant turn with reasoning items to replay, for endpoints that accept
// replay from one earlier response only; SIZE_MAX means every turn.
std::size_t only_replayed_turn(const std::vector<Message>& messages, bool newest_only) {
  if (!newest_only) return SIZE_MAX;
  for (std::size_t i = messages.size(); i-- > 0;) {
    const Json& items = messages[i].codex_reasoning_items;
    if (messages[i].role == Role::kAssistant && items.is_array() && !items.empty()) return i;
  }
  return SIZE_MAX;
}

Result<Json> function_tools(const Json& tools) {
  auto definitions = read_tool_definitions(tools);
  if (!definitions.ok()) return definitions.status();
  Json out = Json::array();
  for (const ToolDefinition& definition : *definitions) {
    const Json& function = *definition.function;
    Json parameters = function.contains("parameters") && function["parameters"].is_object()
                          ? function["parameters"]
                          : Json{{"type", "object"}, {"properties", Json::object()}};
    out.push_back({{"type", "function"},
                   {"name", function["name"]},
                   {"description", string_member(function, "description")},
                   {"strict", false},
                   {"parameters", std::move(parameters)}});
  }
  return out;
}

bool disables_reasoning(std::string_view effort) {
  return effort == "none" || effort == "off" || effort == "disabled" || effort == "false";
}

// xAI tops out at "high"; stronger levels keep working there rather than failing.
std::string xai_effort(const std::string& effort) {
  return effort == "xhigh" || effort == "max" || effort == "ultra" ? "high" : effort;
}

void add_reasoning(const ProviderRequest& request, const ResponsesDialect& dialect,
                   std::string_view bare, Json& body) {
  // GPT-4 and GPT-3.5 answer 400 to reasoning parameters, encrypted content included.
  if (is_openai_classic_model(bare)) return;
  std::string effort = lower_ascii(trim_ascii(request.reasoning_effort));
  if (disables_reasoning(effort)) {
    if (!dialect.github && !dialect.xai) body["include"] = Json::array();
    return;
  }
  if (dialect.github) return;  // Copilot takes no include and its own reasoning extras.
  body["include"] = Json::array({"reasoning.encrypted_content"});
  if (dialect.xai) {
    if (!effort.empty()) body["reasoning"] = {{"effort", xai_effort(effort)}};
    return;
  }
  if (effort.empty()) effort = "medium";
  // The Codex backend rejects "minimal"; the nearest weaker level it takes is "low".
  if (dialect.codex_backend && effort == "minimal") effort = "low";
  body["reasoning"] = {{"effort", effort}, {"summary", "auto"}};
}

// OpenAI's reasoning models answer 400 to sampling parameters, and the Codex backend
// serves only those; other servers get what the caller asked for.
bool accepts_temperature(const ResponsesDialect& dialect, std::string_view bare) {
  return !dialect.codex_backend && !is_openai_reasoning_model(bare);
}

}  // namespace

std::string clamp_call_id(std::string_view call_id) {
  if (call_id.size() <= kMaxItemIdLength) return std::string(call_id);
  return "call_" + sha256_hex(call_id).substr(0, 32);
}

ResponsesDialect responses_dialect_for(std::string_view provider, std::string_view base_url) {
  const std::string name = lower_ascii(trim_ascii(provider));
  const std::string host = url_host(base_url);
  const std::string path = url_path(base_url);
  ResponsesDialect dialect;
  dialect.codex_backend = name == "openai-codex" || name == "codex" ||
                          (host == "chatgpt.com" && path.starts_with("/backend-api/codex"));
  dialect.xai = name == "xai" || name == "xai-oauth" || host == "api.x.ai";
  dialect.github =
      name == "copilot" || host == "api.githubcopilot.com" || host == "models.github.ai";
  dialect.azure = name == "azure-foundry" || host.ends_with(".openai.azure.com") ||
                  host.ends_with(".services.ai.azure.com");
  if (dialect.xai) {
    dialect.issuer = "xai_responses";
  } else if (dialect.github) {
    dialect.issuer = "github_responses";
  } else if (dialect.codex_backend) {
    dialect.issuer = "codex_backend";
  } else {
    std::string base(trim_ascii(base_url));
    while (!base.empty() && base.back() == '/') base.pop_back();
    dialect.issuer = "other:" + base;
  }
  return dialect;
}

namespace {

// Everything but the input items.
Result<Json> responses_envelope(const ProviderRequest& request, const ResponsesDialect& dialect,
                                std::string_view model) {
  auto tools = function_tools(request.tools);
  if (!tools.ok()) return tools.status();
  std::string instructions = instructions_of(request.messages);
  if (dialect.codex_backend) instructions = neutralize_harmony(std::move(instructions));
  Json body = {{"model", model}, {"instructions", std::move(instructions)}, {"store", false}};
  if (!tools->empty()) {
    body["tools"] = std::move(*tools);
    body["tool_choice"] = "auto";
    body["parallel_tool_calls"] = true;
  }
  const std::string bare = bare_model(model);
  add_reasoning(request, dialect, bare, body);
  if (request.max_tokens && !dialect.codex_backend) {
    body["max_output_tokens"] = *request.max_tokens;
  }
  if (request.temperature && accepts_temperature(dialect, bare)) {
    body["temperature"] = *request.temperature;
  }
  body["stream"] = request.stream || dialect.codex_backend;
  if (request.extra_body.is_object()) {
    for (auto it = request.extra_body.begin(); it != request.extra_body.end(); ++it) {
      body[it.key()] = it.value();
    }
  }
  return body;
}

Status add_message(InputBuilder& input, const ProviderRequest& request, std::size_t i) {
  Status added = input.add(request.messages[i], i);
  if (added.ok()) return added;
  return Status::invalid_argument("messages[" + std::to_string(i) + "]." + added.message());
}

// What besides a message shapes its items, when it replays no reasoning.
uint64_t items_encoding_key(const ResponsesDialect& dialect) {
  return 0x5245535000000000ull | (dialect.codex_backend ? 1u : 0u) | (dialect.github ? 2u : 0u);
}

// The input items, each message's from the request's encoding cache when it has them. A
// message with reasoning items to replay is converted every time: which of them go
// depends on the messages before it.
Status append_input(std::string& out, const ProviderRequest& request,
                    const ResponsesDialect& dialect) {
  InputBuilder input(dialect, only_replayed_turn(request.messages, dialect.azure));
  MessageEncodingCache* cache = request.encoding_cache;
  const uint64_t key = items_encoding_key(dialect);
  out.push_back('[');
  bool first = true;
  auto append_items = [&](std::string_view items) {
    if (items.empty()) return;
    if (!first) out.push_back(',');
    first = false;
    out += items;
  };
  for (std::size_t i = 0; i < request.messages.size(); ++i) {
    const bool cacheable =
        cache != nullptr && !request.messages[i].codex_reasoning_items.is_array();
    if (const std::string* bytes = cacheable ? cache->find(i, key) : nullptr) {
      append_items(*bytes);
      continue;
    }
    HERMES_RETURN_IF_ERROR(add_message(input, request, i));
    std::string items;
    for (const Json& item : input.take()) {
      if (!items.empty()) items.push_back(',');
      append_json(items, item);
    }
    append_items(items);
    if (cacheable) cache->store(i, key, std::move(items));
  }
  out.push_back(']');
  return {};
}

}  // namespace

Result<Json> build_responses_request(const ProviderRequest& request,
                                     const ResponsesDialect& dialect,
                                     std::string_view default_model) {
  const std::string_view model = request.model.empty() ? default_model : request.model;
  HERMES_RETURN_IF_ERROR(check_request(request, model));
  InputBuilder input(dialect, only_replayed_turn(request.messages, dialect.azure));
  for (std::size_t i = 0; i < request.messages.size(); ++i) {
    HERMES_RETURN_IF_ERROR(add_message(input, request, i));
  }
  auto body = responses_envelope(request, dialect, model);
  if (!body.ok()) return body.status();
  if (!(request.extra_body.is_object() && request.extra_body.contains("input"))) {
    (*body)["input"] = input.take();
  }
  return body;
}

Result<std::string> encode_responses_request(const ProviderRequest& request,
                                             const ResponsesDialect& dialect,
                                             std::string_view default_model) {
  const std::string_view model = request.model.empty() ? default_model : request.model;
  const bool input_overridden =
      request.extra_body.is_object() && request.extra_body.contains("input");
  HERMES_RETURN_IF_ERROR(check_request(request, model));
  auto body = responses_envelope(request, dialect, model);
  if (input_overridden || !body.ok()) {
    auto built = build_responses_request(request, dialect, default_model);
    if (!built.ok()) return built.status();
    return dump_json(*built);
  }
  MessageEncodingCache* cache = request.encoding_cache;
  auto out =
      write_spliced_body(*body, "input", cache ? cache->bytes_hint() : 4096,
                         [&](std::string& text) { return append_input(text, request, dialect); });
  if (!out.ok()) return out.status();
  if (cache) cache->note_bytes(out->size());
  return out;
}

}  // namespace hermes::internal
