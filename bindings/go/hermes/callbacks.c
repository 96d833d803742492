#include "callbacks.h"

#include "_cgo_export.h"

hermes_status_t hermes_go_run_tool(hermes_tool_call_t *call, void *user_data) {
  return hermesGoRunTool(call, user_data);
}

void hermes_go_stream(const char *delta, size_t length, void *user_data) {
  hermesGoStream((char *)delta, length, user_data);
}

void hermes_go_event(const char *event_json, void *user_data) {
  hermesGoEvent((char *)event_json, user_data);
}

void hermes_go_auth_refresh(const char *request_json, hermes_answer_t *answer, void *user_data) {
  hermesGoAuthRefresh((char *)request_json, answer, user_data);
}

void hermes_go_release(void *user_data) { hermesGoRelease(user_data); }

void hermes_go_turn_done(const char *result_json, void *user_data) {
  hermesGoTurnDone((char *)result_json, user_data);
}
