/* The C functions hermes calls for Go tools and callbacks (callbacks.c). Each passes the
 * call on to its Go function (callbacks.go); they exist because cgo cannot export a Go
 * function with const parameters. */
#ifndef HERMES_GO_CALLBACKS_H
#define HERMES_GO_CALLBACKS_H

#include <stddef.h>

#include "hermes_c.h"

hermes_status_t hermes_go_run_tool(hermes_tool_call_t *call, void *user_data);
void hermes_go_stream(const char *delta, size_t length, void *user_data);
void hermes_go_event(const char *event_json, void *user_data);
void hermes_go_auth_refresh(const char *request_json, hermes_answer_t *answer, void *user_data);
void hermes_go_release(void *user_data);
void hermes_go_turn_done(const char *result_json, void *user_data);

#endif
