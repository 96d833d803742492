// Editing message content that may be plain text or a list of parts (text and images).
// Message::content always holds the text; Message::parts, when set, is the list the
// provider sees, so an edit must keep both in step.
#pragma once

#include <string>
#include <string_view>

#include "hermes/json.hpp"
#include "hermes/message.hpp"

namespace hermes::internal {

// True for an image part in any of the three wire shapes: OpenAI "image_url", Responses
// "input_image" and Anthropic "image".
bool is_image_part(const Json& part);

// True when the message's parts hold at least one image.
bool has_image_parts(const Message& message);

// Replaces every image part with a text part reading `placeholder`. Returns whether any
// image was replaced.
bool replace_image_parts(Message& message, std::string_view placeholder);

// Removes every image part, keeping the other parts. Returns whether any image was
// removed; the parts list may be left empty.
bool remove_image_parts(Message& message);

// Adds `text` after (or before) the existing content, as a new text part when the content
// is a list of parts.
void append_text(Message& message, std::string_view text);
void prepend_text(Message& message, std::string_view text);

// Replaces the whole content with plain `text`.
void set_text(Message& message, std::string text);

// A short label for an image part in a transcript for the summariser: "[image: <url>]" for
// an http(s) address, which stays usable after compaction, else "[image]" (base64 data
// carries no reusable reference).
std::string image_label(const Json& part);

}  // namespace hermes::internal
