#include "agent/option_table.hpp"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "hermes/safety.hpp"

namespace hermes::internal {
namespace {

using std::chrono::milliseconds;

template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<std::optional<T>> : std::true_type {};

template <typename T>
constexpr bool kIsInteger = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// A year of seconds: longer durations are mistakes, and would overflow milliseconds.
constexpr double kMaxSeconds = 366.0 * 86400;

Status wrong_type(std::string_view name, std::string_view expected, const Json& value) {
  return Status::invalid_argument(std::string(name) + ": expected " + std::string(expected) +
                                  ", got " + value.type_name());
}

// The option's type as describe_agent_options() names it.
template <typename T>
std::string type_of() {
  if constexpr (IsOptional<T>::value) {
    return type_of<typename T::value_type>() + "?";
  } else if constexpr (std::is_same_v<T, std::string>) {
    return "string";
  } else if constexpr (std::is_same_v<T, bool>) {
    return "boolean";
  } else if constexpr (kIsInteger<T>) {
    return "integer";
  } else if constexpr (std::is_same_v<T, double>) {
    return "number";
  } else if constexpr (std::is_same_v<T, milliseconds>) {
    return "seconds";
  } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
    return "strings";
  } else if constexpr (std::is_same_v<T, ApprovalMode> || std::is_same_v<T, Durability>) {
    return "enum";
  } else if constexpr (std::is_same_v<T, Json>) {
    return "schema";
  } else {
    static_assert(std::is_same_v<T, std::vector<ProviderConfig>>);
    return "providers";
  }
}

template <typename T>
Json to_value(const T& value) {
  if constexpr (IsOptional<T>::value) {
    return value ? to_value(*value) : Json(nullptr);
  } else if constexpr (std::is_same_v<T, milliseconds>) {
    // Whole seconds stay integers, so that a document reads back as it was written.
    if (value.count() % 1000 == 0) return Json(static_cast<std::int64_t>(value.count() / 1000));
    return Json(static_cast<double>(value.count()) / 1000.0);
  } else if constexpr (std::is_same_v<T, ApprovalMode>) {
    return std::string(approval_mode_name(value));
  } else if constexpr (std::is_same_v<T, Durability>) {
    return std::string(durability_name(value));
  } else if constexpr (std::is_same_v<T, std::vector<ProviderConfig>>) {
    Json list = Json::array();
    for (const ProviderConfig& p : value) {
      list.push_back({{"model", p.model},
                      {"provider", p.provider},
                      {"base_url", p.base_url},
                      {"api_key", p.api_key},
                      {"api_mode", p.api_mode}});
    }
    return list;
  } else {
    return value;
  }
}

Result<ProviderConfig> provider_from(std::string_view name, const Json& entry) {
  if (!entry.is_object()) return wrong_type(name, "an object per provider", entry);
  ProviderConfig config;
  for (const auto& [key, value] : entry.items()) {
    std::string* field = key == "model"      ? &config.model
                         : key == "provider" ? &config.provider
                         : key == "base_url" ? &config.base_url
                         : key == "api_key"  ? &config.api_key
                         : key == "api_mode" ? &config.api_mode
                                             : nullptr;
    if (field == nullptr) {
      return Status::invalid_argument(std::string(name) + ": unknown key '" + key +
                                      "' (known: model, provider, base_url, api_key, api_mode)");
    }
    if (!value.is_string()) return wrong_type(std::string(name) + "." + key, "a string", value);
    *field = value.get<std::string>();
  }
  if (config.model.empty()) {
    return Status::invalid_argument(std::string(name) + ": every entry needs a model");
  }
  return config;
}

template <typename T>
Result<T> from_value(std::string_view name, const Json& value) {
  if constexpr (IsOptional<T>::value) {
    if (value.is_null()) return T{};
    auto inner = from_value<typename T::value_type>(name, value);
    if (!inner.ok()) return inner.status();
    return T{std::move(*inner)};
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!value.is_string()) return wrong_type(name, "a string", value);
    return value.get<std::string>();
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!value.is_boolean()) return wrong_type(name, "true or false", value);
    return value.get<bool>();
  } else if constexpr (kIsInteger<T>) {
    if (!value.is_number_integer()) return wrong_type(name, "an integer", value);
    // Within the field's type; the bounds are checked after.
    const bool fits = value.is_number_unsigned()
                          ? value.get<std::uint64_t>() <=
                                static_cast<std::uint64_t>(std::numeric_limits<T>::max())
                          : value.get<std::int64_t>() >=
                                    static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
                                (std::is_unsigned_v<T> ||
                                 value.get<std::int64_t>() <=
                                     static_cast<std::int64_t>(std::numeric_limits<T>::max()));
    if (!fits) return Status::invalid_argument(std::string(name) + ": out of range");
    return value.get<T>();
  } else if constexpr (std::is_same_v<T, double>) {
    if (!value.is_number()) return wrong_type(name, "a number", value);
    return value.get<double>();
  } else if constexpr (std::is_same_v<T, milliseconds>) {
    if (!value.is_number()) return wrong_type(name, "a number of seconds", value);
    const double seconds = value.get<double>();
    if (!(seconds >= 0 && seconds <= kMaxSeconds)) {
      return Status::invalid_argument(std::string(name) +
                                      ": must be between 0 and a year of seconds");
    }
    return milliseconds(std::llround(seconds * 1000));
  } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
    if (!value.is_array()) return wrong_type(name, "a list of strings", value);
    T out;
    for (const Json& item : value) {
      if (!item.is_string()) return wrong_type(name, "a list of strings", value);
      out.push_back(item.get<std::string>());
    }
    return out;
  } else if constexpr (std::is_same_v<T, Json>) {
    if (!value.is_null() && !value.is_object())
      return wrong_type(name, "a JSON Schema object or null", value);
    return value;
  } else if constexpr (std::is_same_v<T, ApprovalMode>) {
    const auto mode =
        value.is_string() ? approval_mode_from_name(value.get<std::string>()) : std::nullopt;
    if (!mode) {
      return Status::invalid_argument(std::string(name) +
                                      ": expected one of manual, smart, off, ask, allowlist");
    }
    return *mode;
  } else if constexpr (std::is_same_v<T, Durability>) {
    const auto durability =
        value.is_string() ? durability_from_name(value.get<std::string>()) : std::nullopt;
    if (!durability)
      return Status::invalid_argument(std::string(name) + ": expected full or normal");
    return *durability;
  } else {
    if (!value.is_array()) return wrong_type(name, "a list of providers", value);
    T out;
    for (const Json& entry : value) {
      auto config = provider_from(name, entry);
      if (!config.ok()) return config.status();
      out.push_back(std::move(*config));
    }
    return out;
  }
}

std::string number_text(double value) {
  Json number = value;
  if (value == std::floor(value) && std::fabs(value) < 1e15)
    number = static_cast<std::int64_t>(value);
  return number.dump();
}

// `value` (a number; anything else passes) against `bounds`, as InvalidArgument naming
// the option.
Status check_bounds(const std::string& name, const OptionBounds& b, const Json& value) {
  if (!value.is_number()) return {};
  const double v = value.get<double>();
  // NaN fails every comparison, so it is refused by the first bound there is.
  if (b.minimum && b.exclusive_minimum && !(v > *b.minimum)) {
    return Status::invalid_argument(name + ": must be more than " + number_text(*b.minimum));
  }
  if (b.minimum && !b.exclusive_minimum && !(v >= *b.minimum)) {
    return Status::invalid_argument(name + ": must be at least " + number_text(*b.minimum));
  }
  if (b.maximum && !(v <= *b.maximum)) {
    return Status::invalid_argument(name + ": must be at most " + number_text(*b.maximum));
  }
  return {};
}

// An entry reading and writing the field `access` points to.
template <typename Access>
OptionEntry option(std::string name, std::string doc, Access access, OptionBounds bounds = {}) {
  using T = std::remove_pointer_t<decltype(access(std::declval<AgentOptions&>()))>;
  OptionEntry entry;
  entry.name = std::move(name);
  entry.type = type_of<T>();
  entry.doc = std::move(doc);
  entry.bounds = bounds;
  if constexpr (std::is_same_v<T, ApprovalMode>) {
    entry.values = {"manual", "smart", "off", "ask", "allowlist"};
  } else if constexpr (std::is_same_v<T, Durability>) {
    entry.values = {"full", "normal"};
  }
  entry.get = [access](const AgentOptions& options) {
    return to_value(*access(const_cast<AgentOptions&>(options)));
  };
  entry.set = [access, name = entry.name, bounds](const Json& value,
                                                  AgentOptions& options) -> Status {
    Result<T> parsed = from_value<T>(name, value);
    if (!parsed.ok()) return parsed.status();
    HERMES_RETURN_IF_ERROR(check_bounds(name, bounds, to_value(*parsed)));
    *access(options) = std::move(*parsed);
    return {};
  };
  return entry;
}

constexpr OptionBounds at_least(double minimum) {
  return {minimum, false, std::nullopt};
}
constexpr OptionBounds between(double minimum, double maximum) {
  return {minimum, false, maximum};
}

std::vector<OptionEntry> build_table() {
  using O = AgentOptions;
  std::vector<OptionEntry> t;
  // The model service.
  t.push_back(option("provider.model", "The model, e.g. \"gpt-4.1-mini\". Required.",
                     [](O& o) { return &o.provider.model; }));
  t.push_back(option("provider.provider",
                     "The provider's name: openai, openrouter, anthropic, custom, ...",
                     [](O& o) { return &o.provider.provider; }));
  t.push_back(option(
      "provider.api_mode",
      "chat_completions, codex_responses or anthropic_messages; empty: from provider and base_url.",
      [](O& o) { return &o.provider.api_mode; }));
  t.push_back(option("provider.base_url",
                     "The provider's endpoint; empty: https://api.openai.com/v1.",
                     [](O& o) { return &o.provider.base_url; }));
  t.push_back(
      option("provider.api_key", "The provider's key.", [](O& o) { return &o.provider.api_key; }));
  t.push_back(option("provider.timeouts.connect", "Connecting to the provider.",
                     [](O& o) { return &o.provider.timeouts.connect; }));
  t.push_back(option("provider.timeouts.first_byte", "Until the first response byte.",
                     [](O& o) { return &o.provider.timeouts.first_byte; }));
  t.push_back(option("provider.timeouts.idle", "Longest silence between two chunks of a stream.",
                     [](O& o) { return &o.provider.timeouts.idle; }));
  t.push_back(option("provider.timeouts.stale_stream",
                     "Longest time a stream may go without a real event.",
                     [](O& o) { return &o.provider.timeouts.stale_stream; }));
  t.push_back(option("provider.timeouts.total", "The whole exchange.",
                     [](O& o) { return &o.provider.timeouts.total; }));
  // What every request asks for.
  t.push_back(option(
      "request.max_tokens", "The most tokens an answer may have; null: the provider's default.",
      [](O& o) { return &o.request.max_tokens; }, at_least(1)));
  t.push_back(option(
      "request.temperature", "Sampling temperature; null: the provider's default.",
      [](O& o) { return &o.request.temperature; }, at_least(0)));
  t.push_back(option("request.reasoning_effort",
                     "none, minimal, low, medium, high or xhigh; empty: the model's default.",
                     [](O& o) { return &o.request.reasoning_effort; }));
  t.push_back(
      option("request.stream", "Stream responses.", [](O& o) { return &o.request.stream; }));
  t.push_back(option("request.provider_routing.only", "OpenRouter: only these upstream providers.",
                     [](O& o) { return &o.request.provider_routing.only; }));
  t.push_back(option("request.provider_routing.ignore",
                     "OpenRouter: never these upstream providers.",
                     [](O& o) { return &o.request.provider_routing.ignore; }));
  t.push_back(option("request.provider_routing.order",
                     "OpenRouter: these upstream providers first, in order.",
                     [](O& o) { return &o.request.provider_routing.order; }));
  t.push_back(option("request.provider_routing.sort",
                     "OpenRouter: price, throughput or latency; empty: its default.",
                     [](O& o) { return &o.request.provider_routing.sort; }));
  t.push_back(option("request.provider_routing.require_parameters",
                     "OpenRouter: only providers that support every parameter sent.",
                     [](O& o) { return &o.request.provider_routing.require_parameters; }));
  t.push_back(option("request.provider_routing.data_collection",
                     "OpenRouter: allow or deny; empty: the account's setting.",
                     [](O& o) { return &o.request.provider_routing.data_collection; }));
  // Failures of a model call.
  t.push_back(option(
      "failover.max_retries", "Attempts of one model call on transient failures.",
      [](O& o) { return &o.failover.max_retries; }, at_least(1)));
  t.push_back(option("failover.backoff.base",
                     "First wait before a retry when the server names none.",
                     [](O& o) { return &o.failover.backoff.base; }));
  t.push_back(option("failover.backoff.max", "Longest wait before a retry.",
                     [](O& o) { return &o.failover.backoff.max; }));
  t.push_back(option("failover.backoff.invalid_response_base",
                     "First wait after a response of the wrong shape.",
                     [](O& o) { return &o.failover.backoff.invalid_response_base; }));
  t.push_back(option("failover.backoff.invalid_response_max",
                     "Longest wait after a response of the wrong shape.",
                     [](O& o) { return &o.failover.backoff.invalid_response_max; }));
  t.push_back(option("failover.extra_api_keys",
                     "More keys for the same provider, rotated on rate limits and auth failures.",
                     [](O& o) { return &o.failover.extra_api_keys; }));
  t.push_back(
      option("failover.fallback_providers",
             "Tried in order when the primary fails for good; the primary returns next turn.",
             [](O& o) { return &o.failover.fallback_providers; }));
  // The answer.
  t.push_back(option("output.schema",
                     "A JSON Schema the final answer must match; null: a text answer.",
                     [](O& o) { return &o.output.schema; }));
  t.push_back(option("output.name",
                     "The schema's name on the wire (the answer tool's, for Anthropic).",
                     [](O& o) { return &o.output.name; }));
  t.push_back(option(
      "output.max_repairs", "Answers sent back for not matching the schema before the turn fails.",
      [](O& o) { return &o.output.max_repairs; }, at_least(0)));
  // The loop.
  t.push_back(option(
      "max_iterations", "Model calls per turn before the summary call.",
      [](O& o) { return &o.max_iterations; }, at_least(1)));
  t.push_back(option("ephemeral_system_prompt",
                     "Appended to the system prompt on every request; never stored.",
                     [](O& o) { return &o.ephemeral_system_prompt; }));
  // Tools.
  t.push_back(option(
      "tool_use.max_workers", "Tools of one batch run at most this many at once.",
      [](O& o) { return &o.tool_use.max_workers; }, at_least(1)));
  t.push_back(option("tool_use.batch_timeout",
                     "A group of parallel tool calls as a whole; 0: no limit.",
                     [](O& o) { return &o.tool_use.batch_timeout; }));
  t.push_back(option("tool_use.call_timeout", "A tool call run on its own; 0: no limit.",
                     [](O& o) { return &o.tool_use.call_timeout; }));
  t.push_back(
      option("tool_use.enforcement",
             "The \"act, do not narrate\" block; null: for the model families that need it.",
             [](O& o) { return &o.tool_use.enforcement; }));
  t.push_back(
      option("tool_use.enabled_toolsets",
             "The toolsets offered; empty: all but the opt-in file, terminal and delegation.",
             [](O& o) { return &o.tool_use.enabled_toolsets; }));
  t.push_back(option("tool_use.disabled_toolsets", "Toolsets never offered.",
                     [](O& o) { return &o.tool_use.disabled_toolsets; }));
  t.push_back(option("tool_use.env_passthrough",
                     "Secret-looking environment variables the terminal still passes to commands.",
                     [](O& o) { return &o.tool_use.env_passthrough; }));
  t.push_back(option("tool_use.approvals.mode", "How dangerous commands are approved.",
                     [](O& o) { return &o.tool_use.approvals.mode; }));
  t.push_back(option("tool_use.approvals.timeout",
                     "How long to wait for the human; silence is a denial.",
                     [](O& o) { return &o.tool_use.approvals.timeout; }));
  t.push_back(option("tool_use.approvals.deny",
                     "Regular expressions of commands blocked in every mode.",
                     [](O& o) { return &o.tool_use.approvals.deny; }));
  t.push_back(option("tool_use.approvals.allowed_commands",
                     "In allowlist mode, the programs that run without asking.",
                     [](O& o) { return &o.tool_use.approvals.allowed_commands; }));
  // Sub-agents.
  t.push_back(option(
      "delegation.max_iterations", "Model calls per delegated task.",
      [](O& o) { return &o.delegation.max_iterations; }, at_least(1)));
  t.push_back(option(
      "delegation.max_concurrent_children", "Tasks one delegate_task call may run.",
      [](O& o) { return &o.delegation.max_concurrent_children; }, at_least(1)));
  // Memory and skills.
  t.push_back(option(
      "memory_limits.memory_chars", "Size of MEMORY.md in characters.",
      [](O& o) { return &o.memory_limits.memory_chars; }, at_least(1)));
  t.push_back(option(
      "memory_limits.user_chars", "Size of USER.md in characters.",
      [](O& o) { return &o.memory_limits.user_chars; }, at_least(1)));
  t.push_back(option("skills.external_dirs", "More skill roots after <home>/skills, read-only.",
                     [](O& o) { return &o.skills.external_dirs; }));
  t.push_back(option("skills.disabled", "Skills hidden from the index and listing.",
                     [](O& o) { return &o.skills.disabled; }));
  t.push_back(option("skills.template_vars",
                     "Replace ${HERMES_SKILL_DIR} and ${HERMES_SESSION_ID} in skills.",
                     [](O& o) { return &o.skills.template_vars; }));
  t.push_back(option("review.enabled",
                     "Review finished turns in the background for memories and skills.",
                     [](O& o) { return &o.review.enabled; }));
  t.push_back(option(
      "review.memory_nudge_interval", "User turns between memory reviews; 0: never.",
      [](O& o) { return &o.review.memory_nudge_interval; }, at_least(0)));
  t.push_back(option(
      "review.skill_nudge_interval", "Tool-calling iterations between skill reviews; 0: never.",
      [](O& o) { return &o.review.skill_nudge_interval; }, at_least(0)));
  t.push_back(option(
      "review.max_iterations", "Model calls of one background review.",
      [](O& o) { return &o.review.max_iterations; }, at_least(1)));
  // Persistence.
  t.push_back(option("home", "The hermes home (memories, skills, state.db); empty: the default.",
                     [](O& o) { return &o.home; }));
  t.push_back(option("persistence.enabled", "Keep sessions in the store.",
                     [](O& o) { return &o.persistence.enabled; }));
  t.push_back(option("persistence.session_id", "Resume this session.",
                     [](O& o) { return &o.persistence.session_id; }));
  t.push_back(option("persistence.durability",
                     "state.db's commits: full waits for the disk; normal survives a crash of "
                     "the process, not a power loss.",
                     [](O& o) { return &o.persistence.durability; }));
  t.push_back(option("source",
                     "Where the conversation takes place (cli, telegram, slack, cron, ...).",
                     [](O& o) { return &o.source; }));
  t.push_back(option("platform_hint",
                     "How answers are shown, in place of the source's hint; null: the source's.",
                     [](O& o) { return &o.platform_hint; }));
  // Context.
  t.push_back(option("context_dir",
                     "The project directory whose context files join the system prompt.",
                     [](O& o) { return &o.context_dir; }));
  t.push_back(option("compression.enabled",
                     "Compress the conversation when it nears the context window.",
                     [](O& o) { return &o.compression.enabled; }));
  t.push_back(option("compression.in_place",
                     "Compact in place instead of continuing in a child session.",
                     [](O& o) { return &o.compression.in_place; }));
  t.push_back(option(
      "compression.context_length", "The model's context window in tokens; 0: from its metadata.",
      [](O& o) { return &o.compression.context_length; }, at_least(0)));
  t.push_back(option(
      "compression.threshold_percent", "Compress past this fraction of the window.",
      [](O& o) { return &o.compression.threshold_percent; }, OptionBounds{0, true, 1}));
  t.push_back(option(
      "compression.protect_last_n", "Messages at the end never summarised.",
      [](O& o) { return &o.compression.protect_last_n; }, at_least(0)));
  t.push_back(option("compression.summary_model",
                     "The summary model, when a summary provider is set in code.",
                     [](O& o) { return &o.compression.summary_model; }));
  t.push_back(option(
      "compression.idle_compact_after_seconds",
      "Compact at turn start after this idle time; 0: never.",
      [](O& o) { return &o.compression.idle_compact_after_seconds; }, between(0, kMaxSeconds)));
  t.push_back(option(
      "compression.lease_ttl_seconds", "How long a compaction lease lives without renewal.",
      [](O& o) { return &o.compression.lease_ttl_seconds; }, between(1, kMaxSeconds)));
  // Tracing (the sink itself is set in code).
  t.push_back(option("tracing.capture_content",
                     "Put message text, tool arguments and results on spans, redacted.",
                     [](O& o) { return &o.tracing.capture_content; }));
  t.push_back(option("tracing.traceparent",
                     "A W3C traceparent whose span becomes the parent of every turn span.",
                     [](O& o) { return &o.tracing.traceparent; }));
  return t;
}

}  // namespace

const std::vector<OptionEntry>& option_table() {
  static const std::vector<OptionEntry> table = build_table();
  return table;
}

Status check_option_bounds(const AgentOptions& options) {
  for (const OptionEntry& entry : option_table()) {
    if (!entry.bounds.minimum && !entry.bounds.maximum) continue;
    HERMES_RETURN_IF_ERROR(check_bounds(entry.name, entry.bounds, entry.get(options)));
  }
  return {};
}

}  // namespace hermes::internal
