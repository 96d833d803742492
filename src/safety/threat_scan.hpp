// Prompt-injection and exfiltration patterns in text that enters the system prompt
// (memory entries, agent-written skills): instruction overrides, hidden HTML, invisible
// Unicode, curl/wget of secret variables, SSH backdoors, edits of agent config files.
// This is the strictest scope: every pattern applies.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::internal {

// Scanners are advisory; past this many characters text is not scanned (callers block
// entries that large outright).
constexpr std::size_t kMaxThreatScanChars = 65536;

// The ids of the patterns `content` matches, e.g. "prompt_injection", and
// "invisible_unicode_U+200B" for each invisible character found.
std::vector<std::string> scan_for_threats(std::string_view content);

// The error a write gets for the first finding, or nullopt when the content is clean.
std::optional<std::string> first_threat_message(std::string_view content);

}  // namespace hermes::internal
