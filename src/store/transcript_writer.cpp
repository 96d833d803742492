#include "common/log.hpp"
#include "hermes/session_store.hpp"

namespace hermes {

Status TranscriptWriter::flush(const std::vector<Message>& transcript) {
  if (store_ == nullptr) return {};
  if (cursor_ > transcript.size()) {
    // The transcript shrank under the writer (a rewrite it was not told about). What is
    // stored stays; later growth is appended from here.
    HERMES_LOG_WARN("session {}: transcript shorter ({}) than the stored prefix ({})", session_id_,
                    transcript.size(), cursor_);
    cursor_ = transcript.size();
    return {};
  }
  std::vector<Message> pending;
  pending.reserve(transcript.size() - cursor_);
  for (std::size_t i = cursor_; i < transcript.size(); ++i) {
    if (!transcript[i].scaffolding) pending.push_back(transcript[i]);
  }
  if (!pending.empty()) {
    auto ids = store_->append_messages(session_id_, pending);
    // The cursor stays put on failure, so the next flush writes the same messages again.
    if (!ids.ok()) return ids.status();
  }
  cursor_ = transcript.size();
  return {};
}

}  // namespace hermes
