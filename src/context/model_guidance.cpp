#include "context/model_guidance.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "common/text_utils.hpp"

namespace hermes::internal {
namespace {

constexpr std::array<std::string_view, 8> kEnforcedFamilies = {
    "gpt", "codex", "gemini", "gemma", "grok", "glm", "qwen", "deepseek"};
constexpr std::array<std::string_view, 3> kExecutionFamilies = {"gpt", "codex", "grok"};
constexpr std::array<std::string_view, 2> kGoogleFamilies = {"gemini", "gemma"};

constexpr std::string_view kToolUseEnforcement =
    "# Act, do not narrate\n"
    "Use your tools to do the work instead of describing what you would do. When you say "
    "you are about to do something a tool can do, make that call in the same response; never "
    "end a turn on a promise. Every response either calls tools that move the task forward "
    "or gives the user the finished result, and you keep going until the task is done.";

constexpr std::string_view kGoogleGuidance =
    "# Files and commands\n"
    "Give file and terminal tools absolute paths, resolving relative ones against the working "
    "directory first. Look before you edit: read a file or list a directory before changing "
    "it. Keep explanations short and let tool results carry the detail.";

constexpr std::string_view kExecutionGuidance =
    "# Finishing work properly\n"
    "- While another tool call would make the answer more correct or complete, make it; when "
    "a result is empty or partial, try another query or approach before concluding.\n"
    "- Do the lookups a step depends on before acting, rather than assuming.\n"
    "- Before calling a task done, check the result (run it, test it or read it back) and "
    "say what you checked.\n"
    "- Never make up the output of a step that failed: say what failed and what you tried.";

template <std::size_t N>
bool names_any(const std::string& model, const std::array<std::string_view, N>& families) {
  return std::any_of(families.begin(), families.end(),
                     [&](std::string_view f) { return model.find(f) != std::string::npos; });
}

// The short name: what follows the last "/" of a routed id ("qwen/qwen3-coder").
std::string_view short_name(std::string_view model) {
  const auto slash = model.rfind('/');
  return slash == std::string_view::npos ? model : model.substr(slash + 1);
}

}  // namespace

std::vector<std::string> model_family_guidance(std::string_view model, std::string_view provider,
                                               std::optional<bool> enforcement) {
  const std::string name = lower_ascii(model);
  std::vector<std::string> blocks;
  if (enforcement.value_or(names_any(name, kEnforcedFamilies))) {
    blocks.emplace_back(kToolUseEnforcement);
    if (names_any(name, kGoogleFamilies)) blocks.emplace_back(kGoogleGuidance);
  }
  if (names_any(name, kExecutionFamilies)) blocks.emplace_back(kExecutionGuidance);
  // Alibaba's coding plan reports one fixed model name whatever serves the request.
  if (lower_ascii(provider) == "alibaba" && !model.empty()) {
    blocks.push_back("The model answering here is " + std::string(short_name(model)) +
                     " (model ID " + std::string(model) +
                     "). If you are asked which model you are, answer from this; the serving "
                     "platform may report another name.");
  }
  return blocks;
}

}  // namespace hermes::internal
