#include "providers/anthropic_encoded_messages.hpp"

#include "common/fnv1a.hpp"
#include "common/json_text.hpp"
#include "providers/anthropic_message_conversion.hpp"
#include "providers/message_encoding_cache.hpp"

namespace hermes::internal {
namespace {

// Whether being the last assistant message changes a run's conversion: on Anthropic's
// own endpoint, models that drop earlier turns' thinking keep the last turn's.
bool last_assistant_matters(const AnthropicDialect& dialect, std::string_view model) {
  return dialect.replay == ThinkingReplay::kNative && !model_preserves_prior_thinking(model);
}

constexpr uint64_t kLastAssistantMatters = 1u << 5;
constexpr uint64_t kLastAssistant = 1u << 6;

// What besides a run shapes its conversion: the dialect's message switches and the model's
// thinking rule.
uint64_t dialect_key(const AnthropicDialect& dialect, std::string_view model) {
  uint64_t key = 0x414E544800000000ull;  // "ANTH"
  key |= static_cast<uint64_t>(dialect.replay);
  if (dialect.prompt_caching) key |= 1u << 4;
  if (last_assistant_matters(dialect, model)) key |= kLastAssistantMatters;
  return key;
}

uint64_t run_key(const AnthropicRunPlan& plan, const AnthropicRun& run, uint64_t base) {
  const bool last = run.last_assistant && (base & kLastAssistantMatters) != 0;
  return anthropic_run_shape(plan, run, last ? base | kLastAssistant : base);
}

uint64_t end_mark_key(uint64_t run_key) {
  return fnv1a64("end of run", run_key);
}

// The index of the last assistant run, or runs.size() when there is none.
std::size_t last_assistant_run(const AnthropicRunPlan& plan) {
  for (std::size_t r = plan.runs.size(); r-- > 0;) {
    if (plan.runs[r].assistant) return r;
  }
  return plan.runs.size();
}

// The run's bytes when the cache holds them for exactly this run, else null.
const std::string* find_run(const MessageEncodingCache& cache, const AnthropicRun& run,
                            uint64_t key) {
  const std::string* bytes = cache.find(run.first, key);
  if (bytes == nullptr || run.last == run.first) return bytes;
  return cache.find(run.last, end_mark_key(key)) ? bytes : nullptr;
}

void store_run(MessageEncodingCache& cache, const AnthropicRun& run, uint64_t key,
               std::string bytes) {
  cache.store(run.first, key, std::move(bytes));
  if (run.last != run.first) cache.store(run.last, end_mark_key(key), {});
}

}  // namespace

Json converted_last_assistant(const ProviderRequest& request, const AnthropicRunPlan& plan,
                              const AnthropicDialect& dialect, std::string_view model) {
  const std::size_t r = last_assistant_run(plan);
  if (r == plan.runs.size()) return nullptr;
  return convert_anthropic_run(request.messages, plan, r, dialect, model);
}

void append_anthropic_messages(std::string& out, const ProviderRequest& request,
                               const AnthropicRunPlan& plan, const AnthropicDialect& dialect,
                               std::string_view model, const Json& last_assistant) {
  MessageEncodingCache* cache = request.encoding_cache;
  const std::size_t last_run = last_assistant_run(plan);
  const uint64_t base = dialect_key(dialect, model);
  out.push_back('[');
  if (plan.runs.empty() || plan.runs.front().assistant) {
    append_json(out, anthropic_leading_placeholder());
    if (!plan.runs.empty()) out.push_back(',');
  }
  for (std::size_t r = 0; r < plan.runs.size(); ++r) {
    const AnthropicRun& run = plan.runs[r];
    if (r > 0) out.push_back(',');
    const uint64_t key = run_key(plan, run, base);
    if (const std::string* bytes = cache ? find_run(*cache, run, key) : nullptr) {
      out += *bytes;
      continue;
    }
    const std::size_t start = out.size();
    if (r == last_run) {
      append_json(out, last_assistant);
    } else {
      append_json(out, convert_anthropic_run(request.messages, plan, r, dialect, model));
    }
    if (cache) store_run(*cache, run, key, out.substr(start));
  }
  out.push_back(']');
}

}  // namespace hermes::internal
