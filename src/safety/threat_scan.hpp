// Prompt-injection and exfiltration patterns in text that enters the system prompt
// (memory entries, agent-written skills): instruction overrides, hidden HTML, invisible
// Unicode, curl/wget of secret variables, SSH backdoors, edits of agent config files.
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

// Which patterns apply. Strict (every pattern) guards writes the user can resolve: memory
// entries, skills. Context leaves out the persistence and secret patterns, which
// legitimate project files such as an AGENTS.md that says "update AGENTS.md" or
// "never commit ~/.ssh" would trip.
enum class ThreatScope { kContext, kStrict };

// The ids of the patterns `content` matches, e.g. "prompt_injection", and
// "invisible_unicode_U+200B" for each invisible character found.
std::vector<std::string> scan_for_threats(std::string_view content,
                                          ThreatScope scope = ThreatScope::kStrict);

// The error a write gets for the first finding, or nullopt when the content is clean.
std::optional<std::string> first_threat_message(std::string_view content);

}  // namespace hermes::internal
