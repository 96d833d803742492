#include "context/system_prompt.hpp"

#include <algorithm>
#include <ctime>
#include <fstream>
#include <sstream>

#include "agent/text_utils.hpp"
#include "hermes/memory.hpp"
#include "hermes/skills.hpp"

namespace hermes::internal {
namespace {

constexpr std::string_view kDefaultIdentity =
    "You are Hermes Agent, built by Nous Research. You help the user get real work done: you "
    "think the problem through, use the tools available to you when they help, and answer "
    "clearly and honestly. When you are unsure, say so instead of guessing.";

constexpr std::string_view kToolGuidance =
    "When a task needs tools, call them rather than describing what you would do, and keep "
    "going until the task is complete. Independent tool calls can be made in the same "
    "response; they run in parallel.";

constexpr std::string_view kSteerNote =
    "Blocks marked [OUT-OF-BAND USER MESSAGE] are genuine messages from the user, delivered "
    "while you were working. Take them into account from that point on.";

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string date_line() {
  std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char buf[96];
  std::strftime(buf, sizeof buf, "%A, %B %d, %Y (%Z, UTC%z)", &local);
  return std::string("Conversation started: ") + buf;
}

void add(std::string& prompt, std::string_view part) {
  if (is_blank(part)) return;
  if (!prompt.empty()) prompt += "\n\n";
  prompt += strip(part);
}

std::string line_value(const std::string& prompt, std::string_view key) {
  const std::string needle = "\n" + std::string(key);
  std::size_t pos = prompt.find(needle);
  if (pos == std::string::npos) {
    if (prompt.rfind(key, 0) != 0) return "";
    pos = 0;
  } else {
    pos += 1;
  }
  pos += key.size();
  return prompt.substr(pos, prompt.find('\n', pos) - pos);
}

}  // namespace

std::string build_system_prompt(const SystemPromptInputs& in) {
  std::string prompt;
  // Stable tier.
  std::string soul = in.home.empty() ? "" : read_file(in.home + "/SOUL.md");
  add(prompt, is_blank(soul) ? std::string(kDefaultIdentity) : soul);
  auto offered = [&](std::string_view name) {
    return std::find(in.tool_names.begin(), in.tool_names.end(), name) != in.tool_names.end();
  };
  if (!in.tool_names.empty()) {
    add(prompt, kToolGuidance);
    if (offered("memory")) add(prompt, memory_guidance());
    if (offered("skill_manage")) add(prompt, skills_guidance());
    if (in.source != "cron") add(prompt, kSteerNote);
  }
  // Context tier.
  add(prompt, in.system_message);
  // Volatile tier.
  add(prompt, in.skills_index);
  add(prompt, in.memory_snapshot);
  add(prompt, in.memory_provider_block);
  std::string footer = date_line();
  if (!in.model.empty()) footer += "\nModel: " + in.model;
  if (!in.provider.empty()) footer += "\nProvider: " + in.provider;
  add(prompt, footer);
  return prompt;
}

bool system_prompt_matches_runtime(const std::string& prompt, const std::string& model,
                                   const std::string& provider) {
  return line_value(prompt, "Model: ") == model && line_value(prompt, "Provider: ") == provider;
}

}  // namespace hermes::internal
