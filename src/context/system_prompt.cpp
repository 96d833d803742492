#include "context/system_prompt.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string_view>
#include <vector>

#include "common/text_utils.hpp"
#include "context/context_file_text.hpp"
#include "context/environment_hints.hpp"
#include "context/model_guidance.hpp"
#include "context/platform_hints.hpp"
#include "context/project_context.hpp"
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

// SOUL.md replaces the default identity; it is screened and capped like a project file.
std::string soul(const SystemPromptInputs& in) {
  if (in.home.empty()) return "";
  const std::string path = in.home + "/SOUL.md";
  const ContextFileNotice& notice = in.on_context_notice;
  const std::string content = read_context_file(path, kContextFileReadTimeout, notice);
  if (content.empty()) return "";
  return truncate_context_file(screen_context_file(content, "SOUL.md", notice), "SOUL.md",
                               context_file_char_cap(in.context_length), path, notice);
}

// The IANA name of the process's time zone when TZ names one ("Europe/Berlin").
std::string zone_name() {
  const char* tz = std::getenv("TZ");
  if (tz == nullptr) return "";
  std::string_view name = tz;
  if (!name.empty() && name.front() == ':') name.remove_prefix(1);
  return name.find('/') != std::string_view::npos && name.front() != '/' ? std::string(name) : "";
}

// " (Europe/Berlin, CET, UTC+01:00)": the zone's name when known, its abbreviation and
// its offset. All three hold for the whole day, so the prompt stays byte-stable.
std::string zone_suffix(const std::tm& local) {
  char abbrev[64] = "";
  std::strftime(abbrev, sizeof abbrev, "%Z", &local);
  char offset[16] = "";
  std::strftime(offset, sizeof offset, "%z", &local);  // "+0100"
  std::vector<std::string> parts;
  const std::string iana = zone_name();
  if (!iana.empty()) parts.push_back(iana);
  if (*abbrev != '\0' && abbrev != iana) parts.emplace_back(abbrev);
  if (std::string_view off = offset; off.size() == 5) {
    parts.push_back("UTC" + std::string(off.substr(0, 3)) + ":" + std::string(off.substr(3)));
  }
  std::string suffix;
  for (const std::string& part : parts) suffix += (suffix.empty() ? " (" : ", ") + part;
  return suffix.empty() ? suffix : suffix + ")";
}

// "Conversation started: Monday, March 02, 2026 (...)". The names are spelled here rather
// than by strftime so the process locale cannot change them.
std::string date_line(double started_at) {
  static constexpr std::array<const char*, 7> kDays = {
      "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
  static constexpr std::array<const char*, 12> kMonths = {
      "January", "February", "March",     "April",   "May",      "June",
      "July",    "August",   "September", "October", "November", "December"};
  const std::time_t when =
      started_at > 0 ? static_cast<std::time_t>(started_at) : std::time(nullptr);
  std::tm local{};
  localtime_r(&when, &local);
  char date[64];
  std::snprintf(date, sizeof date, "%s, %s %02d, %d", kDays[local.tm_wday % 7],
                kMonths[local.tm_mon % 12], local.tm_mday, local.tm_year + 1900);
  return std::string("Conversation started: ") + date + zone_suffix(local);
}

void add(std::string& prompt, std::string_view part) {
  if (is_blank(part)) return;
  if (!prompt.empty()) prompt += "\n\n";
  prompt += strip(part);
}

// The footer is the prompt's last part, so its lines are searched from the end: a project
// file above it may well contain a "Model: " line of its own.
std::string line_value(const std::string& prompt, std::string_view key) {
  const std::string needle = "\n" + std::string(key);
  std::size_t pos = prompt.rfind(needle);
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
  const std::string identity = soul(in);
  add(prompt, identity.empty() ? std::string(kDefaultIdentity) : identity);
  auto offered = [&](std::string_view name) {
    return std::find(in.tool_names.begin(), in.tool_names.end(), name) != in.tool_names.end();
  };
  if (!in.tool_names.empty()) {
    add(prompt, kToolGuidance);
    if (offered("memory")) add(prompt, memory_guidance());
    if (offered("skill_manage")) add(prompt, skills_guidance());
    if (in.source != "cron") add(prompt, kSteerNote);
    for (const std::string& block : model_family_guidance(in.model, in.provider, in.tool_use_enforcement)) {
      add(prompt, block);
    }
  }
  add(prompt, build_environment_hints(in.context_dir));
  // Context tier.
  add(prompt, in.platform_hint ? *in.platform_hint : platform_hint(in.source));
  add(prompt, in.system_message);
  add(prompt, load_project_context(in.context_dir, in.context_length, in.on_context_notice));
  // Volatile tier.
  add(prompt, in.skills_index);
  add(prompt, in.memory_snapshot);
  add(prompt, in.memory_provider_block);
  std::string footer = date_line(in.started_at);
  if (!in.model.empty()) footer += "\nModel: " + in.model;
  if (!in.provider.empty()) footer += "\nProvider: " + in.provider;
  if (!in.source.empty()) footer += "\nPlatform: " + in.source;
  add(prompt, footer);
  return prompt;
}

bool system_prompt_matches_runtime(const std::string& prompt, const std::string& model,
                                   const std::string& provider) {
  return line_value(prompt, "Model: ") == model && line_value(prompt, "Provider: ") == provider;
}

}  // namespace hermes::internal
