#include "providers/reasoning_models.hpp"

#include <array>
#include <string>

#include "common/text_utils.hpp"

namespace hermes::internal {
namespace {

struct Floor {
  std::string_view slug;
  int seconds;
};

// When several slugs match, the longest wins, so "o3-mini" is not read as "o3".
constexpr std::array kFloors = {
    // Ten minutes: DeepSeek R1/V4, OpenAI o1/o3, Nemotron behind NVIDIA NIM, Claude Fable.
    Floor{"claude-fable", 600},
    Floor{"deepseek-flash", 600},
    Floor{"deepseek-r1", 600},
    Floor{"deepseek-reasoner", 600},
    Floor{"deepseek-v4-flash", 600},
    Floor{"deepseek-v4-pro", 600},
    Floor{"deepseek-v4.1-flash", 600},
    Floor{"nemotron-3-super", 600},
    Floor{"nemotron-3-ultra", 600},
    Floor{"o1", 600},
    Floor{"o1-mini", 600},
    Floor{"o1-preview", 600},
    Floor{"o1-pro", 600},
    Floor{"o3", 600},
    Floor{"o3-pro", 600},
    // Five minutes: the smaller o-series, Grok reasoning variants, QwQ, Nemotron Nano.
    Floor{"grok-4-fast-reasoning", 300},
    Floor{"grok-4.20-reasoning", 300},
    Floor{"grok-4.5", 300},
    Floor{"grok-4.6", 300},
    Floor{"inkling", 300},
    Floor{"nemotron-3-nano", 300},
    Floor{"nemotron-3.5-lightning", 300},
    Floor{"o3-mini", 300},
    Floor{"o4-mini", 300},
    Floor{"ox-alpha", 300},
    Floor{"qwq-32b", 300},
    Floor{"x-preview-f-free", 300},
    // Claude Opus 4 and 5 thinking.
    Floor{"claude-opus-4", 240},
    Floor{"claude-opus-5", 240},
    // Qwen3 (instruct variants too) and the Claude Sonnet thinking models.
    Floor{"claude-sonnet-4.5", 180},
    Floor{"claude-sonnet-4.6", 180},
    Floor{"claude-sonnet-5", 180},
    Floor{"grok-4-fast-non-reasoning", 180},
    Floor{"qwen3", 180},
};

bool is_slug_separator(char c) {
  return c == '-' || c == '.' || c == '_' || c == ':';
}

}  // namespace

std::optional<std::chrono::seconds> reasoning_stale_timeout_floor(std::string_view model) {
  model = trim_ascii(model);
  if (const auto slash = model.rfind('/'); slash != std::string_view::npos) {
    model.remove_prefix(slash + 1);
  }
  const std::string name = lower_ascii(model);
  const Floor* best = nullptr;
  for (const Floor& floor : kFloors) {
    if (name.compare(0, floor.slug.size(), floor.slug) != 0) continue;
    if (name.size() != floor.slug.size() && !is_slug_separator(name[floor.slug.size()])) continue;
    if (!best || floor.slug.size() > best->slug.size()) best = &floor;
  }
  if (!best) return std::nullopt;
  return std::chrono::seconds(best->seconds);
}

std::string bare_model(std::string_view model) {
  std::string lower = lower_ascii(trim_ascii(model));
  const std::size_t slash = lower.rfind('/');
  return slash == std::string::npos ? lower : lower.substr(slash + 1);
}

bool is_openai_reasoning_model(std::string_view bare) {
  if (bare.starts_with("gpt-5")) return true;
  for (std::string_view family : {"o1", "o3", "o4"}) {
    if (!bare.starts_with(family)) continue;
    const std::string_view rest = bare.substr(family.size());
    if (rest.empty()) return true;
    for (std::string_view suffix : {"-mini", "-preview", "-pro", "-deep", "-2"}) {
      if (rest.starts_with(suffix)) return true;
    }
  }
  return false;
}

bool is_openai_classic_model(std::string_view bare) {
  return bare.starts_with("gpt-4") || bare.starts_with("gpt-3") || bare.starts_with("chatgpt-4o");
}

}  // namespace hermes::internal
