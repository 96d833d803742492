// SessionEntry as JSON, in the shape of upstream's sessions.json entries.
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string_view>

#include "hermes/session_router.hpp"

namespace hermes {
namespace {

// Local time as "YYYY-MM-DDTHH:MM:SS.ffffff", as Python's datetime.isoformat() writes it.
std::string local_iso(double unix_seconds) {
  // Stored times come from files and callers: keep them within what the cast and
  // strftime can represent (years 1970 to 9999).
  if (!(unix_seconds >= 0)) unix_seconds = 0;
  unix_seconds = std::min(unix_seconds, 253402300799.0);
  const auto whole = static_cast<std::time_t>(unix_seconds);
  std::tm local{};
  localtime_r(&whole, &local);
  char date[32] = {};
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &local);
  const auto micros = static_cast<long>((unix_seconds - static_cast<double>(whole)) * 1e6);
  char fraction[32] = {};
  std::snprintf(fraction, sizeof fraction, ".%06ld", micros < 0 ? 0 : micros);
  return std::string(date) + fraction;
}

// Reads a local ISO timestamp (the fraction and any offset are optional; an offset is
// ignored) or a number of Unix seconds. 0 when unreadable.
double read_time(const Json& value) {
  if (value.is_number()) return value.get<double>();
  if (!value.is_string()) return 0;
  const std::string& text = value.get_ref<const std::string&>();
  std::tm local{};
  double seconds = 0;
  if (std::sscanf(text.c_str(), "%d-%d-%dT%d:%d:%lf", &local.tm_year, &local.tm_mon, &local.tm_mday,
                  &local.tm_hour, &local.tm_min, &seconds) != 6) {
    return 0;
  }
  local.tm_year -= 1900;
  local.tm_mon -= 1;
  local.tm_sec = static_cast<int>(seconds);
  local.tm_isdst = -1;
  const std::time_t whole = std::mktime(&local);
  if (whole == static_cast<std::time_t>(-1)) return 0;
  return static_cast<double>(whole) + (seconds - static_cast<double>(local.tm_sec));
}

std::string text(const Json& json, std::string_view key) {
  auto it = json.find(key);
  return it != json.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool flag(const Json& json, std::string_view key) {
  auto it = json.find(key);
  return it != json.end() && it->is_boolean() && it->get<bool>();
}

}  // namespace

Json session_entry_to_json(const SessionEntry& e) {
  Json json = {{"session_key", e.session_key},
               {"session_id", e.session_id},
               {"created_at", local_iso(e.created_at)},
               {"updated_at", local_iso(e.updated_at)},
               {"platform", e.platform},
               {"chat_type", e.chat_type},
               {"display_name", e.display_name},
               {"origin", e.origin},
               {"metadata", e.metadata.is_null() ? Json::object() : e.metadata},
               {"last_prompt_tokens", e.last_prompt_tokens},
               {"suspended", e.suspended},
               {"resume_pending", e.resume_pending},
               {"was_auto_reset", e.was_auto_reset},
               {"reset_had_activity", e.reset_had_activity},
               {"is_fresh_reset", e.is_fresh_reset},
               {"expiry_finalized", e.expiry_finalized}};
  if (!e.resume_reason.empty()) json["resume_reason"] = e.resume_reason;
  if (e.last_resume_marked_at > 0)
    json["last_resume_marked_at"] = local_iso(e.last_resume_marked_at);
  if (!e.auto_reset_reason.empty()) json["auto_reset_reason"] = e.auto_reset_reason;
  if (!e.prev_session_id.empty()) json["prev_session_id"] = e.prev_session_id;
  return json;
}

Result<SessionEntry> session_entry_from_json(const Json& json) {
  if (!json.is_object()) return Status::invalid_argument("a session entry must be a JSON object");
  SessionEntry e;
  e.session_key = text(json, "session_key");
  e.session_id = text(json, "session_id");
  if (e.session_id.empty()) return Status::invalid_argument("session entry: session_id is missing");
  e.created_at = read_time(json.value("created_at", Json()));
  e.updated_at = read_time(json.value("updated_at", Json()));
  e.platform = text(json, "platform");
  e.chat_type = json.contains("chat_type") ? text(json, "chat_type") : "dm";
  e.display_name = text(json, "display_name");
  e.origin = json.value("origin", Json());
  e.metadata = json.value("metadata", Json::object());
  auto tokens = json.find("last_prompt_tokens");
  if (tokens != json.end() && tokens->is_number_integer())
    e.last_prompt_tokens = tokens->get<int64_t>();
  e.suspended = flag(json, "suspended");
  e.resume_pending = flag(json, "resume_pending");
  e.resume_reason = text(json, "resume_reason");
  e.last_resume_marked_at = read_time(json.value("last_resume_marked_at", Json()));
  e.was_auto_reset = flag(json, "was_auto_reset");
  e.auto_reset_reason = text(json, "auto_reset_reason");
  e.reset_had_activity = flag(json, "reset_had_activity");
  e.prev_session_id = text(json, "prev_session_id");
  e.is_fresh_reset = flag(json, "is_fresh_reset");
  e.expiry_finalized = flag(json, "expiry_finalized") || flag(json, "memory_flushed");
  return e;
}

}  // namespace hermes
