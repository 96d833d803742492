#include "agent/wire_transcript.hpp"

#include <utility>

#include "common/message_fingerprint.hpp"
#include "hermes/message_utils.hpp"

namespace hermes::internal {
namespace {

// Where a segment may start (see the header): the sequence repairs never look across it.
bool starts_segment(const Message& m) {
  return m.role == Role::kAssistant && !m.tool_calls.empty();
}

uint64_t extend(uint64_t fingerprint, const Message& m) {
  const uint64_t message = message_fingerprint(m);
  return hash_bytes(std::string_view(reinterpret_cast<const char*>(&message), sizeof message),
                    fingerprint);
}

}  // namespace

void WireTranscript::update(const std::string& system, const std::vector<Message>& messages) {
  if (lent_) invalidate();  // The kept copy is out: nothing to reuse.
  const bool has_system = !system.empty();
  if (has_system && (system_.role != Role::kSystem || system_.content != system)) {
    system_ = Message::system(system);
  }
  const std::size_t offset = has_system ? 1 : 0;
  const std::size_t n = messages.size() + offset;
  auto input = [&](std::size_t i) -> const Message& {
    return i < offset ? system_ : messages[i - offset];
  };

  // The segments still valid: unchanged messages, and a segment start where each ended.
  std::size_t kept = 0;
  std::size_t at = 0;
  for (; kept < segments_.size(); ++kept) {
    const Segment& s = segments_[kept];
    if (s.input_begin != at || s.input_end >= n || !starts_segment(input(s.input_end))) break;
    uint64_t fingerprint = has_system ? 1 : 0;
    for (std::size_t i = s.input_begin; i < s.input_end; ++i)
      fingerprint = extend(fingerprint, input(i));
    if (fingerprint != s.fingerprint) break;
    at = s.input_end;
  }
  segments_.resize(kept);
  const std::size_t wire_kept = kept == 0 ? 0 : segments_.back().wire_end;
  wire_.resize(wire_kept);
  counts_.resize(wire_kept);
  encodings_.keep_first(wire_kept);

  // The rest, a segment at a time.
  recomputed_ = 0;
  while (at < n) {
    std::size_t end = at + 1;
    while (end < n && !starts_segment(input(end))) ++end;
    std::vector<Message> segment;
    segment.reserve(end - at);
    uint64_t fingerprint = has_system ? 1 : 0;
    for (std::size_t i = at; i < end; ++i) {
      fingerprint = extend(fingerprint, input(i));
      segment.push_back(input(i));
    }
    for (Message& m : sanitize_api_messages(repair_message_sequence(std::move(segment)))) {
      counts_.push_back(count_message_tokens(m));
      wire_.push_back(std::move(m));
      ++recomputed_;
    }
    segments_.push_back(Segment{at, end, wire_.size(), fingerprint});
    at = end;
  }
}

int64_t WireTranscript::estimate() const {
  MessageTokenCount sum;
  for (const MessageTokenCount& c : counts_) sum += c;
  return list_tokens(sum, counts_.size());
}

std::vector<Message> WireTranscript::lend(uint64_t& lease) {
  lent_ = true;
  lease = lease_;
  return std::move(wire_);
}

void WireTranscript::take_back(std::vector<Message> messages, uint64_t lease) {
  if (!lent_ || lease != lease_ || messages.size() != counts_.size()) return;
  wire_ = std::move(messages);
  lent_ = false;
}

void WireTranscript::invalidate() {
  segments_.clear();
  wire_.clear();
  counts_.clear();
  encodings_.clear();
  lent_ = false;
  ++lease_;
}

}  // namespace hermes::internal
