// Reads the real context window out of a provider's overflow message, so the agent can
// shrink its idea of the window to what the server actually enforces.
#include <array>
#include <regex>
#include <string>

#include "common/text_utils.hpp"
#include "hermes/api_error.hpp"

namespace hermes {
namespace {

constexpr int64_t kMinPlausibleWindow = 1'024;
constexpr int64_t kMaxPlausibleWindow = 10'000'000;
// Overflow messages state the window early; the rest is echoed request data.
constexpr std::size_t kMaxScannedBytes = 4'096;

// Each pattern captures the window in group 1. Specific wordings come first, so that a
// message quoting both the request size and the limit yields the limit.
const std::array<std::regex, 13>& window_patterns() {
  static const std::array<std::regex, 13> kPatterns = [] {
    constexpr auto kFlags = std::regex::ECMAScript | std::regex::optimize;
    return std::array<std::regex, 13>{
        // Anthropic: "input length and `max_tokens` exceed context limit: 197000 + 8192 > 200000".
        std::regex(R"(exceed context limit:\s*\d+\s*\+\s*\d+\s*>\s*(\d+))", kFlags),
        // Anthropic: "prompt is too long: 210000 tokens > 200000 maximum".
        std::regex(R"(prompt is too long:\s*\d+\s*tokens?\s*>\s*(\d+))", kFlags),
        // llama.cpp: "n_ctx_slot = 4096", or "n_ctx":8192 in its JSON error body.
        std::regex(R"(n_ctx(?:_slot)?"?\s*[=:]\s*(\d+))", kFlags),
        // vLLM: "max_model_len 32768", "max_model_len=32768", "max_model_len (32768)",
        // "the maximum model length of 32768".
        std::regex(R"(max_model_len\s*(?:is|of)?\s*[:=(]?\s*(\d{4,}))", kFlags),
        std::regex(R"(maximum model length\s*(?:is|of)?\s*[:=(]?\s*(\d{4,}))", kFlags),
        // Gemini: "... exceeds the maximum number of tokens allowed (32768)".
        std::regex(R"(maximum number of tokens allowed\s*\(?\s*(\d{4,}))", kFlags),
        // "maximum context length is 8192", "max context size: 8192", "limit of 8192".
        std::regex(
            R"((?:max(?:imum)?|limit)\s*(?:context\s*)?(?:length|size|window)?\s*(?:is|of|:)?\s*(\d{4,}))",
            kFlags),
        // "context length of 8192", llama.cpp's "context size (8192 tokens)".
        std::regex(R"(context\s*(?:length|size|window)\s*(?:is|of|:)?\s*\(?\s*(\d{4,}))", kFlags),
        // "8192 token context", "8192 tokens limit".
        std::regex(R"((\d{4,})\s*(?:tokens?)?\s*(?:context|limit))", kFlags),
        // "250000 tokens > 200000 maximum".
        std::regex(R"(>\s*(\d{4,})\s*(?:max|limit|token))", kFlags),
        std::regex(R"((\d{4,})\s*max(?:imum)?\b)", kFlags),
        // Gemini: "input token count is 32825 but model only supports up to 32768".
        std::regex(R"(supports?\s+(?:only\s+)?up\s+to\s+(\d{4,}))", kFlags),
        std::regex(R"(context window of\s*(\d{4,}))", kFlags),
    };
  }();
  return kPatterns;
}

// "max_tokens: 100000 > 64000 ..." is about the output cap; the window is not stated.
bool is_about_output_limit_only(const std::string& text) {
  if (text.find("context") != std::string::npos) return false;
  for (std::string_view p : {"max_tokens", "max_output_tokens", "max_completion_tokens",
                             "output tokens", "output token", "output limit"}) {
    if (text.find(p) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

std::optional<int64_t> parse_context_limit_from_error(std::string_view message) {
  const std::string text = internal::lower_ascii(message.substr(0, kMaxScannedBytes));
  if (is_about_output_limit_only(text)) return std::nullopt;
  for (const std::regex& pattern : window_patterns()) {
    std::smatch match;
    if (!std::regex_search(text, match, pattern)) continue;
    const std::string digits = match[1].str();
    if (digits.size() > 9) continue;  // Far beyond any window; also keeps stoll in range.
    const int64_t value = std::stoll(digits);
    if (value >= kMinPlausibleWindow && value <= kMaxPlausibleWindow) return value;
  }
  return std::nullopt;
}

}  // namespace hermes
