#include "context/summary_markers.hpp"

#include "common/text_utils.hpp"
#include "context/message_parts.hpp"
#include "context/text_cut.hpp"

namespace hermes::internal {
namespace {

// Every summary prefix hermes ever wrote opens with this and, in its newer forms, closes
// with kPrefixCloser; the wording in between changed across releases.
constexpr std::string_view kPrefixOpener = "[CONTEXT COMPACTION";
constexpr std::string_view kPrefixCloser = "avoid repeating it:";

bool starts_with_summary_prefix(std::string_view text) {
  return starts_with(text, kPrefixOpener) || starts_with(text, kLegacySummaryPrefix);
}

// `text` without its leading summary prefix, when it has one.
std::string_view after_prefix(std::string_view text) {
  if (starts_with(text, kContextSummaryPrefix)) return text.substr(kContextSummaryPrefix.size());
  if (starts_with(text, kLegacySummaryPrefix)) return text.substr(kLegacySummaryPrefix.size());
  if (!starts_with(text, kPrefixOpener)) return text;
  const std::size_t line_end = text.find('\n');
  const std::size_t closer = text.find(kPrefixCloser);
  if (closer != std::string_view::npos && closer < line_end) {
    return text.substr(closer + kPrefixCloser.size());
  }
  return line_end == std::string_view::npos ? std::string_view() : text.substr(line_end);
}

std::string_view trim_left(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\n' || text.front() == '\t' ||
                           text.front() == '\r')) {
    text.remove_prefix(1);
  }
  return text;
}

bool has_summary_metadata(const Message& message) {
  if (!message.extra.is_object()) return false;
  auto it = message.extra.find(std::string(kSummaryMetadataKey));
  return it != message.extra.end() && it->is_boolean() && it->get<bool>();
}

// A copy of a summary message holding `text` only, without the summary marker.
Message unwrapped_copy(const Message& message, std::string text) {
  Message out = message;
  set_text(out, std::move(text));
  out.api_content.clear();
  if (out.extra.is_object()) {
    out.extra.erase(std::string(kSummaryMetadataKey));
    if (out.extra.empty()) out.extra = nullptr;
  }
  return out;
}

}  // namespace

SummaryShape summary_shape(std::string_view content) {
  content = trim_left(content);
  if (auto delim = content.find(kMergedSummaryDelimiter); delim != std::string_view::npos) {
    const auto after = trim_left(content.substr(delim + kMergedSummaryDelimiter.size()));
    return starts_with_summary_prefix(after) ? SummaryShape::kMerged : SummaryShape::kNone;
  }
  return starts_with_summary_prefix(content) ? SummaryShape::kStandalone : SummaryShape::kNone;
}

bool is_summary_message(const Message& message) {
  return has_summary_metadata(message) || summary_shape(message.content) != SummaryShape::kNone;
}

std::string strip_summary_prefix(std::string_view text) {
  text = trim_left(text);
  if (auto delim = text.find(kMergedSummaryDelimiter); delim != std::string_view::npos) {
    text = trim_left(text.substr(delim + kMergedSummaryDelimiter.size()));
  }
  text = trim_left(after_prefix(text));
  if (auto marker = text.find(kContextSummaryEndMarker); marker != std::string_view::npos) {
    text = text.substr(0, marker);
  }
  return strip(text);
}

std::string with_summary_prefix(std::string_view body) {
  std::string out(kContextSummaryPrefix);
  if (!body.empty()) {
    out += '\n';
    out += body;
  }
  return out;
}

std::optional<Message> without_summary(const Message& message) {
  if (!is_summary_message(message)) return message;
  const std::string_view content = message.content;
  if (auto delim = content.find(kMergedSummaryDelimiter); delim != std::string_view::npos) {
    std::string_view prior = trim_left(content.substr(0, delim));
    if (starts_with(prior, kMergedPriorContextHeader)) {
      prior = prior.substr(kMergedPriorContextHeader.size());
    }
    std::string text = strip(prior);
    if (text.empty()) return std::nullopt;
    return unwrapped_copy(message, std::move(text));
  }
  if (auto marker = content.find(kContextSummaryEndMarker); marker != std::string_view::npos) {
    std::string rest = strip(content.substr(marker + kContextSummaryEndMarker.size()));
    if (!rest.empty()) return unwrapped_copy(message, std::move(rest));
  }
  return std::nullopt;
}

bool is_synthetic_user_turn(const Message& message) {
  if (message.role != Role::kUser) return false;
  if (message.scaffolding || is_summary_message(message)) return true;
  const std::string text = strip(message.content);
  return text == kContinuationUserContent || starts_with(text, kTodoSnapshotHeader);
}

bool is_real_user_turn(const Message& message) {
  if (message.role != Role::kUser || is_synthetic_user_turn(message)) return false;
  return !is_blank(message.content) || (message.parts.is_array() && !message.parts.empty());
}

}  // namespace hermes::internal
