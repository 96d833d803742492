// Lane keys: the deterministic identity of a chat conversation on a platform.
#include "hermes/session_router.hpp"

namespace hermes {
namespace {

std::string key_namespace(const std::string& profile) {
  if (profile.empty() || profile == "default") return "agent:main";
  // A profile named "main" must not share the default profile's lanes.
  if (profile == "main") return "agent:main~";
  return "agent:" + profile;
}

bool in_thread(const SessionSource& s) {
  return !s.thread_id.empty() || s.chat_type == "thread";
}

}  // namespace

std::string build_session_key(const SessionSource& source, const SessionKeyOptions& options) {
  std::vector<std::string> parts = {key_namespace(options.profile),
                                    source.platform.empty() ? "unknown" : source.platform,
                                    source.chat_type.empty() ? "dm" : source.chat_type};
  if (!source.scope_id.empty()) parts.push_back(source.scope_id);
  if (!source.chat_id.empty()) parts.push_back(source.chat_id);
  const std::string& participant = source.user_id_alt.empty() ? source.user_id : source.user_id_alt;
  const bool dm = source.chat_type.empty() || source.chat_type == "dm";
  if (dm) {
    // Without a chat id the sender is the only thing that tells DMs apart.
    if (source.chat_id.empty() && !participant.empty()) parts.push_back(participant);
    if (!source.thread_id.empty()) parts.push_back(source.thread_id);
  } else {
    if (!source.thread_id.empty()) parts.push_back(source.thread_id);
    const bool per_user = options.group_sessions_per_user &&
                          !(in_thread(source) && !options.thread_sessions_per_user);
    if (per_user && !participant.empty()) parts.push_back(participant);
  }
  std::string key;
  for (const auto& part : parts) key += (key.empty() ? "" : ":") + part;
  return key;
}

}  // namespace hermes
