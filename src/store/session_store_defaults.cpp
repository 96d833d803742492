// The optional part of the SessionStore interface, for stores that do not implement it.
#include "hermes/session_store.hpp"

namespace hermes {
namespace {

Status unsupported(const char* what) {
  return Status::unimplemented(std::string("this session store does not support ") + what);
}

}  // namespace

Result<std::vector<StoredMessage>> SessionStore::read_messages(const std::string&,
                                                               const ReadOptions&) {
  return unsupported("reading stored rows");
}

Status SessionStore::reopen_session(const std::string&) {
  return unsupported("reopening sessions");
}

Result<std::string> SessionStore::compression_tip(const std::string& session_id) {
  return session_id;
}

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
                                            const std::vector<Message>&, int64_t,
                                            const std::string&) {
  return unsupported("compression rotation");
}

Status SessionStore::compact_in_place(const std::string&, const std::vector<Message>&, int64_t,
                                      const std::string&) {
  return unsupported("in-place compaction");
}

Result<bool> SessionStore::acquire_compression_lease(const std::string&, const std::string&,
                                                     double) {
  return unsupported("compression leases");
}

Status SessionStore::renew_compression_lease(const std::string&, const std::string&, double) {
  return unsupported("compression leases");
}

Status SessionStore::release_compression_lease(const std::string&, const std::string&) {
  return unsupported("compression leases");
}

Result<std::optional<Json>> SessionStore::load_route(const std::string&, const std::string&) {
  return unsupported("lane routing");
}

Status SessionStore::save_route(const std::string&, const std::string&, const Json&) {
  return unsupported("lane routing");
}

Status SessionStore::delete_route(const std::string&, const std::string&) {
  return unsupported("lane routing");
}

Result<std::vector<std::pair<std::string, Json>>> SessionStore::list_routes(const std::string&) {
  return unsupported("lane routing");
}

}  // namespace hermes
