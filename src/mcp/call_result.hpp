// What a tools/call result becomes for the model: the tool message text, or an error.
#pragma once

#include <string>
#include <string_view>

#include "hermes/json.hpp"
#include "hermes/status.hpp"

namespace hermes::internal {

// Renders a CallToolResult.
//
// Content blocks become text, joined by newlines: text as is; images and audio as a
// short placeholder naming the type and size (tool messages carry text only, and base64
// would only spend the context); embedded text resources as their text, binary ones and
// resource links as a placeholder with the URI. The text is returned as
// {"result": text}; with structuredContent, {"result": text, "structuredContent": ...},
// or {"result": structuredContent} when there is no text.
//
// isError: true becomes a FailedPrecondition whose message is the text (or "MCP tool
// returned an error"), which the loop hands to the model as {"error": message}.
//
// Text and structured content alike pass through redact_for_model first.
Result<std::string> render_call_result(const Json& result);

// What a server sent, as the model may see it: secrets masked as in tool output
// (redact_sensitive_text), and the password of every URL's userinfo too
// (https://user:***@host): a server's answer is text from outside, not a link the user
// handed over.
std::string redact_for_model(std::string_view text);

// The placeholder for binary content: "[image: image/png, 1.2 KB]".
std::string binary_placeholder(const std::string& kind, const std::string& mime_type,
                               std::size_t base64_chars);

}  // namespace hermes::internal
