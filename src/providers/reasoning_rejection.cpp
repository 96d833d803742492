#include "providers/reasoning_rejection.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "common/text_utils.hpp"

namespace hermes::internal {
namespace {

using namespace std::string_view_literals;

// Names of the reasoning controls, longest first so "reasoning_effort" wins over
// "reasoning" at the same place.
constexpr std::array kReasoningTokens = {
    "reasoning_effort"sv, "thinking_config"sv, "thinking_budget"sv,
    "enable_thinking"sv,  "thinkingconfig"sv,  "thinkingbudget"sv,
    "reasoning"sv,        "thinking"sv,        "think"sv,
};

// Phrases that, near a reasoning word, say it cannot be turned off.
constexpr std::array kRequiredMarkers = {
    "mandatory"sv,   "cannot be disabled"sv, "can't be disabled"sv,    "must be enabled"sv,
    "is required"sv, "always enabled"sv,     "cannot be turned off"sv,
};

// How far before and after the reasoning word the marker may stand.
constexpr std::size_t kMarkerBefore = 48;
constexpr std::size_t kMarkerAfter = 96;

bool word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '/';
}

// "reasoning models" names a kind of model, not the setting.
bool names_models(std::string_view rest) {
  std::size_t i = 0;
  while (i < rest.size() && (rest[i] == ' ' || rest[i] == '\t' || rest[i] == '\n')) ++i;
  if (i == 0 || !starts_with(rest.substr(i), "model")) return false;
  std::string_view after = rest.substr(i + 5);
  if (!after.empty() && after.front() == 's') after.remove_prefix(1);
  return after.empty() || !word_char(after.front());
}

// The first reasoning word in lowercase `text`, as [begin, end), or npos.
std::pair<std::size_t, std::size_t> find_reasoning_token(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i > 0 && word_char(text[i - 1])) continue;
    for (std::string_view token : kReasoningTokens) {
      if (!starts_with(text.substr(i), token)) continue;
      const std::size_t end = i + token.size();
      if (end < text.size() && word_char(text[end])) continue;
      if (names_models(text.substr(end))) continue;
      return {i, end};
    }
  }
  return {std::string_view::npos, std::string_view::npos};
}

}  // namespace

bool is_reasoning_required_rejection(std::string_view message) {
  const std::string text = lower_ascii(message);
  const auto [begin, end] = find_reasoning_token(text);
  if (begin == std::string_view::npos) return false;
  const std::size_t from = begin > kMarkerBefore ? begin - kMarkerBefore : 0;
  const std::string_view near = std::string_view(text).substr(from, end + kMarkerAfter - from);
  return std::any_of(kRequiredMarkers.begin(), kRequiredMarkers.end(),
                     [&](std::string_view marker) { return contains(near, marker); });
}

}  // namespace hermes::internal
