// Guidance for model families: who is told to act instead of narrating, who gets the
// execution checklist, and the identity line for Alibaba's platform.
#include "context/model_guidance.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "context/system_prompt.hpp"
#include "support/temp_dir.hpp"

using namespace hermes::internal;

namespace {

bool has_block(const std::vector<std::string>& blocks, const std::string& heading) {
  for (const std::string& b : blocks) {
    if (b.rfind(heading, 0) == 0) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("the families that narrate get the act-do-not-narrate block, others do not") {
  for (const char* model : {"gpt-4.1", "openai/gpt-5-codex", "google/gemini-2.5-pro", "gemma-3",
                            "x-ai/grok-4", "glm-4.6", "Qwen/Qwen3-Coder", "deepseek-chat"}) {
    CAPTURE(model);
    CHECK(has_block(model_family_guidance(model, "openrouter", std::nullopt),
                    "# Act, do not narrate"));
  }
  for (const char* model : {"claude-sonnet-4", "llama-3.3-70b", "mistral-large"}) {
    CAPTURE(model);
    CHECK(model_family_guidance(model, "openrouter", std::nullopt).empty());
  }
}

TEST_CASE("the setting forces the block on or off whatever the model") {
  CHECK(has_block(model_family_guidance("claude-sonnet-4", "anthropic", true),
                  "# Act, do not narrate"));
  CHECK_FALSE(
      has_block(model_family_guidance("gpt-4.1", "openai", false), "# Act, do not narrate"));
  // The execution checklist is the family's own, not part of the block.
  CHECK(has_block(model_family_guidance("gpt-4.1", "openai", false), "# Finishing work properly"));
}

TEST_CASE("Google models get file guidance, GPT, Codex and Grok the execution checklist") {
  const auto gemini = model_family_guidance("gemini-2.5-flash", "gemini", std::nullopt);
  CHECK(has_block(gemini, "# Files and commands"));
  CHECK_FALSE(has_block(gemini, "# Finishing work properly"));
  const auto grok = model_family_guidance("grok-4", "xai", std::nullopt);
  CHECK(has_block(grok, "# Finishing work properly"));
  CHECK_FALSE(has_block(grok, "# Files and commands"));
}

TEST_CASE("on Alibaba's platform the prompt names the model actually serving") {
  const auto blocks = model_family_guidance("qwen/qwen3-coder-plus", "alibaba", std::nullopt);
  REQUIRE_FALSE(blocks.empty());
  CHECK(blocks.back().find("qwen3-coder-plus (model ID qwen/qwen3-coder-plus)") != std::string::npos);
  CHECK(model_family_guidance("qwen/qwen3-coder-plus", "openrouter", std::nullopt).size() == 1);
}

TEST_CASE("the guidance sits in the stable tier, only when tools are offered") {
  hermes::testing::TempDir home;
  SystemPromptInputs in;
  in.home = home.path();
  in.model = "gpt-4.1";
  in.provider = "openai";
  CHECK(build_system_prompt(in).find("# Act, do not narrate") == std::string::npos);
  in.tool_names = {"todo_list"};
  const std::string prompt = build_system_prompt(in);
  const std::size_t block = prompt.find("# Act, do not narrate");
  REQUIRE(block != std::string::npos);
  CHECK(block < prompt.find("Host: "));
  in.tool_use_enforcement = false;
  CHECK(build_system_prompt(in).find("# Act, do not narrate") == std::string::npos);
}
