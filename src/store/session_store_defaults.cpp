// The optional part of the SessionStore interface, for stores that do not implement it.
#include "hermes/session_store.hpp"

namespace hermes {
namespace {

Status unsupported(const char* what) {
  return Status::unimplemented(std::string("this session store does not support ") + what);
}

}  // namespace

Result<std::string> SessionStore::resolve_resume_session_id(const std::string& session_id) {
  return session_id;
}

Result<std::vector<SessionInfo>> SessionStore::lineage(const std::string& session_id) {
  auto info = get_session(session_id);
  if (!info.ok()) return info.status();
  return std::vector<SessionInfo>{std::move(*info)};
}

Result<int64_t> SessionStore::active_message_watermark(const std::string&) {
  return unsupported("compaction watermarks");
}

Status SessionStore::rotate_for_compression(const std::string&, const SessionInfo&,
                                            const std::vector<Message>&, int64_t, const std::string&) {
  return unsupported("compression rotation");
}

Status SessionStore::compact_in_place(const std::string&, const std::vector<Message>&, int64_t,
                                      const std::string&) {
  return unsupported("in-place compaction");
}

Result<bool> SessionStore::acquire_compression_lease(const std::string&, const std::string&, double) {
  return unsupported("compression leases");
}

Status SessionStore::renew_compression_lease(const std::string&, const std::string&, double) {
  return unsupported("compression leases");
}

Status SessionStore::release_compression_lease(const std::string&, const std::string&) {
  return unsupported("compression leases");
}

}  // namespace hermes
