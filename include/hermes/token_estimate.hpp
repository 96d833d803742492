// hermes/token_estimate.hpp — cheap token estimates, used to decide when to compress
// before the provider has reported real usage.
#pragma once

#include "hermes/export.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

#include "hermes/json.hpp"
#include "hermes/message.hpp"

namespace hermes {

// Tokens in `text`: CJK, kana and Hangul characters at one token each, everything else at
// four UTF-8 bytes per token, rounded up (so ASCII is (length + 3) / 4, and other scripts
// are not under-counted at four characters per token).
HERMES_API int64_t estimate_tokens_rough(std::string_view text);

// Tokens of messages as they would go on the wire (compact JSON, tool calls and replayed
// reasoning included; api_content in place of content; private and storage-only keys
// left out), with each image part at a flat 1,600 tokens and base64 data never counted.
HERMES_API int64_t estimate_messages_tokens_rough(const std::vector<Message>& messages);
HERMES_API int64_t estimate_messages_tokens_rough(const Json& messages);

// Tokens of OpenAI tool definitions: name + description + JSON of the parameters.
HERMES_API int64_t estimate_tools_tokens_rough(const Json& tools);

}  // namespace hermes
