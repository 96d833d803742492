// What the model should know about the surface its answers are shown on: whether markdown
// renders, whether tables survive, how long a message may be. Part of the context tier of
// the system prompt, chosen by the session's source (AgentOptions::source).
#pragma once

#include <string>
#include <string_view>

namespace hermes::internal {

// The hint for `source` ("telegram", "slack", "email", "cron", ...), or "" for a source
// without one. "cli" has none: it is the library's default source, and an embedding
// application may well render markdown (the hermes CLI states its own hint).
std::string platform_hint(std::string_view source);

}  // namespace hermes::internal
