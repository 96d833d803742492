#include "providers/anthropic_request_builder.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "providers/anthropic_encoded_messages.hpp"
#include "providers/anthropic_message_conversion.hpp"
#include "providers/anthropic_message_runs.hpp"
#include "providers/message_encoding_cache.hpp"
#include "providers/request_checks.hpp"
#include "providers/spliced_body.hpp"
#include "providers/tool_definitions.hpp"

namespace hermes::internal {
namespace {

// Output ceilings by model family, matched as the longest substring of the model id.
// Thinking tokens count against max_tokens, so a small fixed default starves thinking.
constexpr std::pair<std::string_view, int64_t> kOutputLimits[] = {
    {"claude-fable", 128'000},
    {"claude-sonnet-5", 128'000},
    {"claude-opus-4-8", 128'000},
    {"claude-opus-4-7", 128'000},
    {"claude-opus-4-6", 128'000},
    {"claude-sonnet-4-6", 64'000},
    {"claude-opus-4-5", 64'000},
    {"claude-sonnet-4-5", 64'000},
    {"claude-haiku-4-5", 64'000},
    {"claude-opus-4", 32'000},
    {"claude-sonnet-4", 64'000},
    {"claude-3-7-sonnet", 128'000},
    {"claude-3-5-sonnet", 8'192},
    {"claude-3-5-haiku", 8'192},
    {"claude-3-opus", 4'096},
    {"claude-3-sonnet", 4'096},
    {"claude-3-haiku", 4'096},
    {"minimax", 131'072},
    {"qwen3", 65'536},
};
// A new Claude model is unlikely to allow less than the newest ones do.
constexpr int64_t kUnknownClaudeOutputLimit = 128'000;
// Other models on Anthropic-compatible servers are often small local ones.
constexpr int64_t kUnknownModelOutputLimit = 8'192;

// Claude families that take a manual thinking budget (adaptive thinking came with 4.6).
constexpr std::string_view kManualThinkingFamilies[] = {
    "claude-3",          "claude-opus-4-0",    "claude-opus-4.0",
    "claude-opus-4-1",   "claude-opus-4.1",    "claude-sonnet-4-0",
    "claude-sonnet-4.0", "claude-opus-4-2025", "claude-sonnet-4-2025",
    "claude-opus-4-5",   "claude-opus-4.5",    "claude-sonnet-4-5",
    "claude-sonnet-4.5", "claude-haiku-4-5",   "claude-haiku-4.5"};
// Adaptive families without the "xhigh" effort that still accept sampling parameters.
constexpr std::string_view kNoXhighFamilies[] = {"claude-opus-4-6", "claude-opus-4.6",
                                                 "claude-sonnet-4-6", "claude-sonnet-4.6"};

template <typename List>
bool matches_any(std::string_view model, const List& families) {
  return std::any_of(std::begin(families), std::end(families),
                     [&](std::string_view family) { return contains(model, family); });
}

bool is_claude(std::string_view model) {
  return contains(model, "claude");
}

bool is_kimi(std::string_view model) {
  const std::size_t slash = model.rfind('/');
  const std::string_view bare = slash == std::string_view::npos ? model : model.substr(slash + 1);
  return bare.starts_with("kimi") || bare.starts_with("moonshot");
}

bool adaptive_thinking(std::string_view model) {
  return is_kimi(model) || (is_claude(model) && !matches_any(model, kManualThinkingFamilies));
}

bool forbids_sampling(std::string_view model) {
  return is_claude(model) && !matches_any(model, kNoXhighFamilies) &&
         !matches_any(model, kManualThinkingFamilies);
}

// Claude families that think by default and take {"type": "disabled"} to stop; the
// mandatory-thinking ones answer 400 to it.
bool accepts_thinking_disable(std::string_view model) {
  return is_claude(model) && adaptive_thinking(model) && !contains(model, "claude-fable");
}

int64_t thinking_budget(std::string_view effort) {
  if (effort == "xhigh" || effort == "max" || effort == "ultra") return 32'000;
  if (effort == "high") return 16'000;
  if (effort == "low" || effort == "minimal") return 4'000;
  return 8'000;
}

std::string adaptive_effort(std::string_view effort, std::string_view model) {
  std::string mapped = "medium";
  if (effort == "ultra" || effort == "max") mapped = "max";
  if (effort == "xhigh" || effort == "high" || effort == "low") mapped = std::string(effort);
  if (effort == "minimal") mapped = "low";
  if (mapped == "xhigh" && matches_any(model, kNoXhighFamilies)) mapped = "max";
  return mapped;
}

// Collapses nullable unions (anyOf [X, {"type":"null"}] -> X): optionality is already
// said by "required", and the validator rejects the union form.
Json without_nullable_unions(const Json& schema) {
  if (schema.is_array()) {
    Json out = Json::array();
    for (const Json& item : schema) out.push_back(without_nullable_unions(item));
    return out;
  }
  if (!schema.is_object()) return schema;
  for (const char* key : {"anyOf", "oneOf"}) {
    auto it = schema.find(key);
    if (it == schema.end() || !it->is_array() || it->size() != 2) continue;
    const Json null_type = {{"type", "null"}};
    const Json& a = (*it)[0];
    const Json& b = (*it)[1];
    if (a != null_type && b != null_type) continue;
    Json kept = without_nullable_unions(a == null_type ? b : a);
    if (!kept.is_object()) continue;
    for (auto field = schema.begin(); field != schema.end(); ++field) {
      if (field.key() != key && !kept.contains(field.key())) kept[field.key()] = field.value();
    }
    return kept;
  }
  Json out = Json::object();
  for (auto field = schema.begin(); field != schema.end(); ++field) {
    out[field.key()] = without_nullable_unions(field.value());
  }
  return out;
}

// Top-level oneOf / allOf / anyOf get a generic 400; an object schema needs properties.
Json input_schema(const Json& parameters) {
  Json schema = parameters.is_object() ? without_nullable_unions(parameters) : Json::object();
  if (schema.empty()) return {{"type", "object"}, {"properties", Json::object()}};
  bool dropped = false;
  for (const char* key : {"oneOf", "allOf", "anyOf"}) dropped = schema.erase(key) > 0 || dropped;
  if (dropped && !schema.contains("type")) schema["type"] = "object";
  if (schema.value("type", Json()) == "object" &&
      !(schema.contains("properties") && schema["properties"].is_object())) {
    schema["properties"] = Json::object();
  }
  return schema;
}

// Duplicate names are a hard 400: the first definition wins.
Result<Json> anthropic_tools(const Json& tools) {
  auto definitions = read_tool_definitions(tools);
  if (!definitions.ok()) return definitions.status();
  Json out = Json::array();
  std::set<std::string> seen;
  for (const ToolDefinition& definition : *definitions) {
    const Json& function = *definition.function;
    const std::string name = function["name"].get<std::string>();
    if (!seen.insert(name).second) continue;
    const Json description = function.value("description", Json());
    out.push_back({{"name", name},
                   {"description", description.is_string() ? description : Json("")},
                   {"input_schema", input_schema(function.value("parameters", Json()))}});
  }
  return out;
}

// With thinking on, the newest assistant turn that used tools must start with its signed
// thinking. A turn that has none (written by another provider before a fallback) cannot
// be given one, so thinking is off for this request instead. `last_assistant`: the
// converted newest assistant message, or null.
bool history_allows_thinking(const Json& last_assistant) {
  if (last_assistant.is_null()) return true;
  auto found = last_assistant.find("content");
  if (found == last_assistant.end() || !found->is_array() || found->empty()) return true;
  const Json& content = *found;
  bool uses_tools = false;
  for (const Json& block : content)
    uses_tools = uses_tools || block.value("type", "") == "tool_use";
  const std::string first = content[0].value("type", "");
  return !uses_tools || first == "thinking" || first == "redacted_thinking";
}

const Json& newest_assistant(const Json& messages) {
  static const Json none;
  for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
    if (it->value("role", "") == "assistant") return *it;
  }
  return none;
}

void add_thinking(const ProviderRequest& request, std::string_view model,
                  const Json& last_assistant, Json& body) {
  const std::string effort = lower_ascii(trim_ascii(request.reasoning_effort));
  if (effort.empty()) return;
  const bool off = effort == "none" || effort == "off" || effort == "disabled";
  if (off || !history_allows_thinking(last_assistant)) {
    // Adaptive models think unless told not to; the others only when asked.
    if (accepts_thinking_disable(model)) body["thinking"] = {{"type", "disabled"}};
    return;
  }
  if (contains(model, "haiku")) return;  // No extended thinking.
  if (adaptive_thinking(model)) {
    // "summarized" keeps the reasoning text that newer models omit by default.
    body["thinking"] = {{"type", "adaptive"}, {"display", "summarized"}};
    body["output_config"] = {{"effort", adaptive_effort(effort, model)}};
    return;
  }
  const int64_t budget = thinking_budget(effort);
  body["thinking"] = {{"type", "enabled"}, {"budget_tokens", budget}};
  body["temperature"] = 1;  // Required with a thinking budget on older models.
  body["max_tokens"] = std::max(body["max_tokens"].get<int64_t>(), budget + 4096);
}

// With extended thinking on, Anthropic accepts only tool_choice "auto" or "none": one that
// forces a tool ("any", "tool") is answered 400. A forced choice (the structured-output
// answer tool) becomes "auto"; the model is still told to answer with the tool, and an
// answer given otherwise goes through the schema check like any text answer.
void keep_tool_choice_thinking_compatible(Json& body) {
  const auto thinking = body.find("thinking");
  if (thinking == body.end() || !thinking->is_object() ||
      thinking->value("type", "") == "disabled") {
    return;
  }
  const auto choice = body.find("tool_choice");
  if (choice == body.end() || !choice->is_object()) return;
  const std::string type = choice->value("type", "");
  if (type == "any" || type == "tool") *choice = {{"type", "auto"}};
}

Status check_anthropic_request(const ProviderRequest& request, std::string_view model) {
  HERMES_RETURN_IF_ERROR(check_request(request, model));
  for (std::size_t i = 0; i < request.messages.size(); ++i) {
    const Message& message = request.messages[i];
    if (message.role == Role::kTool && message.tool_call_id.empty()) {
      return Status::invalid_argument("messages[" + std::to_string(i) +
                                      "].tool_call_id: missing on a tool message");
    }
  }
  return {};
}

// Everything but the messages. `last_assistant`: the converted newest assistant message.
Json anthropic_envelope(const ProviderRequest& request, const std::string& model, Json tools,
                        Json system, const Json& last_assistant) {
  const std::string lower_model = lower_ascii(model);
  Json body = {{"model", model},
               {"max_tokens", request.max_tokens.value_or(anthropic_max_output_tokens(model))}};
  if (!system.is_null()) body["system"] = std::move(system);
  if (!tools.empty()) {
    body["tools"] = std::move(tools);
    body["tool_choice"] = {{"type", "auto"}};
  }
  if (request.temperature && !forbids_sampling(lower_model)) {
    body["temperature"] = *request.temperature;
  }
  add_thinking(request, lower_model, last_assistant, body);
  body["stream"] = request.stream;
  if (request.extra_body.is_object()) {
    for (auto it = request.extra_body.begin(); it != request.extra_body.end(); ++it) {
      body[it.key()] = it.value();
    }
  }
  keep_tool_choice_thinking_compatible(body);
  return body;
}

}  // namespace

std::string normalize_anthropic_model(std::string_view model) {
  std::string out(trim_ascii(model));
  if (lower_ascii(std::string_view(out).substr(0, 10)) == "anthropic/") out.erase(0, 10);
  const std::string lower = lower_ascii(out);
  const bool bedrock = lower.starts_with("anthropic.") || contains(lower, ".anthropic.");
  if (!bedrock && lower.starts_with("claude-")) std::replace(out.begin(), out.end(), '.', '-');
  return out;
}

int64_t anthropic_max_output_tokens(std::string_view model) {
  std::string key = lower_ascii(model);
  std::replace(key.begin(), key.end(), '.', '-');
  std::string_view best;
  int64_t limit = 0;
  for (const auto& [family, tokens] : kOutputLimits) {
    if (contains(key, family) && family.size() > best.size()) {
      best = family;
      limit = tokens;
    }
  }
  if (!best.empty()) return limit;
  return is_claude(key) ? kUnknownClaudeOutputLimit : kUnknownModelOutputLimit;
}

Result<Json> build_anthropic_request(const ProviderRequest& request,
                                     const AnthropicDialect& dialect,
                                     std::string_view default_model) {
  const std::string model =
      normalize_anthropic_model(request.model.empty() ? default_model : request.model);
  HERMES_RETURN_IF_ERROR(check_anthropic_request(request, model));
  auto tools = anthropic_tools(request.tools);
  if (!tools.ok()) return tools.status();
  AnthropicConversation conversation = convert_to_anthropic(request.messages, dialect, model);
  Json body = anthropic_envelope(request, model, std::move(*tools), std::move(conversation.system),
                                 newest_assistant(conversation.messages));
  if (!messages_overridden(request)) body["messages"] = std::move(conversation.messages);
  return body;
}

Result<std::string> encode_anthropic_request(const ProviderRequest& request,
                                             const AnthropicDialect& dialect,
                                             std::string_view default_model) {
  if (messages_overridden(request)) {
    auto built = build_anthropic_request(request, dialect, default_model);
    if (!built.ok()) return built.status();
    return dump_json(*built);
  }
  const std::string model =
      normalize_anthropic_model(request.model.empty() ? default_model : request.model);
  HERMES_RETURN_IF_ERROR(check_anthropic_request(request, model));
  auto tools = anthropic_tools(request.tools);
  if (!tools.ok()) return tools.status();
  const AnthropicRunPlan plan = plan_anthropic_runs(request.messages, dialect);
  const Json last_assistant = converted_last_assistant(request, plan, dialect, model);
  const Json body =
      anthropic_envelope(request, model, std::move(*tools),
                         anthropic_system_prompt(request.messages, dialect), last_assistant);
  MessageEncodingCache* cache = request.encoding_cache;
  auto out = write_spliced_body(
      body, "messages", cache ? cache->bytes_hint() : 4096, [&](std::string& text) -> Status {
        append_anthropic_messages(text, request, plan, dialect, model, last_assistant);
        return {};
      });
  if (!out.ok()) return out.status();
  if (cache) cache->note_bytes(out->size());
  return out;
}

}  // namespace hermes::internal
