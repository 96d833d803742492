// Guidance for particular model families in the system prompt's stable tier: some
// families describe what they would do instead of calling tools, some stop before checking
// their work, and one platform misreports the model's name.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::internal {

// The blocks for `model` served by `provider`, in prompt order. `enforcement` forces the
// tool-use block on or off; nullopt applies it to the families known to need it (GPT,
// Codex, Gemini, Gemma, Grok, GLM, Qwen, DeepSeek).
std::vector<std::string> model_family_guidance(std::string_view model, std::string_view provider,
                                               std::optional<bool> enforcement);

}  // namespace hermes::internal
