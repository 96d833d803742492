// TranscriptWriter: a growing transcript appended to a store, one transaction per flush.
#include "hermes/session_store.hpp"
#include "safety/log.hpp"

namespace hermes {
namespace {

// When another writer rotated the session (compression in another process), the
// conversation continues in the live compression tip: the writer moves there, once. A store
// without the compaction capability has no tips to follow.
Result<std::string> live_compression_tip(SessionStore& store, const std::string& session_id) {
  SessionCompaction* compaction = store.compaction_capability();
  if (compaction == nullptr) return std::string();
  auto session = store.get_session(session_id);
  if (!session.ok()) return session.status();
  if (session->end_reason != "compression") return std::string();
  auto tip = compaction->compression_tip(session_id);
  if (!tip.ok() || *tip == session_id) return std::string();
  auto row = store.get_session(*tip);
  if (!row.ok() || row->ended_at != 0) return std::string();
  return *tip;
}

}  // namespace

Status TranscriptWriter::flush(const std::vector<Message>& transcript) {
  if (store_ == nullptr) return {};
  if (cursor_ > transcript.size()) {
    // The transcript shrank under the writer (a rewrite it was not told about). What is
    // stored stays; later growth is appended from here.
    HERMES_LOG_WARN("session {}: transcript shorter ({}) than the stored prefix ({})", session_id_,
                    transcript.size(), cursor_);
    cursor_ = transcript.size();
  }
  std::vector<Message> pending;
  pending.reserve(transcript.size() - cursor_);
  for (std::size_t i = cursor_; i < transcript.size(); ++i) {
    if (!transcript[i].scaffolding) pending.push_back(transcript[i]);
  }
  if (!pending.empty() || !usage_.empty()) {
    auto ids = store_->append_step(session_id_, pending, usage_);
    if (!ids.ok() && ids.status().code() == StatusCode::kFailedPrecondition) {
      auto tip = live_compression_tip(*store_, session_id_);
      if (tip.ok() && !tip->empty()) {
        HERMES_LOG_WARN("session {} was closed by compression; continuing in {}", session_id_,
                        *tip);
        session_id_ = std::move(*tip);
        ids = store_->append_step(session_id_, pending, usage_);
      }
    }
    // The cursor and the usage stay put on failure, so the next flush writes them again.
    if (!ids.ok()) return ids.status();
    usage_.clear();
  }
  cursor_ = transcript.size();
  return {};
}

}  // namespace hermes
