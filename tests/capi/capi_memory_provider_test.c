/* A memory provider written in C, and the delegation settings, from a C99 program. No
 * network: a provider callback plays the model and records what it was sent. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_check.h"
#include "hermes_c.h"

/* The last request the scripted model received, and how many it received. */
typedef struct {
  int calls;
  char* last_request;
} Model;

static void remember(Model* model, const char* request) {
  free(model->last_request);
  model->last_request = malloc(strlen(request) + 1);
  if (model->last_request != NULL) strcpy(model->last_request, request);
  ++model->calls;
}

static hermes_status_t answering_model(hermes_provider_call_t* call, void* user_data) {
  remember((Model*)user_data, hermes_provider_call_request(call));
  return hermes_provider_call_set_response(call, "{\"message\":{\"content\":\"Tea, as always.\"}}");
}

/* First asks for two sub-agents at once, then answers. */
static hermes_status_t delegating_model(hermes_provider_call_t* call, void* user_data) {
  Model* model = (Model*)user_data;
  remember(model, hermes_provider_call_request(call));
  if (model->calls == 1) {
    return hermes_provider_call_set_response(
        call,
        "{\"message\":{\"content\":\"\",\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\","
        "\"function\":{\"name\":\"delegate_task\",\"arguments\":\"{\\\"tasks\\\":[{\\\"goal\\\":"
        "\\\"a\\\"},{\\\"goal\\\":\\\"b\\\"}]}\"}}]},\"finish_reason\":\"tool_calls\"}");
  }
  return hermes_provider_call_set_response(call, "{\"message\":{\"content\":\"Done alone.\"}}");
}

/* What the provider saw. */
typedef struct {
  int initialized, prefetched, synced, session_ended, shut_down, destroyed;
  char session_id[128];
  char synced_user[64], synced_assistant[64];
  int synced_transcript_has_user;
} Memory;

static void memory_initialize(const char* session_id, const char* home, void* user_data) {
  Memory* memory = (Memory*)user_data;
  (void)home;
  ++memory->initialized;
  snprintf(memory->session_id, sizeof memory->session_id, "%s", session_id);
}

static void memory_system_prompt_block(hermes_answer_t* answer, void* user_data) {
  (void)user_data;
  CHECK(hermes_answer_set(answer, "Long-term memory: the teapot store is connected.") == HERMES_OK);
}

static void memory_prefetch(const char* query, const char* session_id, hermes_answer_t* answer,
                            void* user_data) {
  Memory* memory = (Memory*)user_data;
  ++memory->prefetched;
  CHECK(strcmp(query, "What do I like to drink?") == 0);
  CHECK(strcmp(session_id, memory->session_id) == 0);
  CHECK(hermes_answer_set(answer, "The user prefers oolong tea.") == HERMES_OK);
}

static void memory_sync_turn(const char* user_content, const char* assistant_content,
                             const char* session_id, const char* messages_json, void* user_data) {
  Memory* memory = (Memory*)user_data;
  ++memory->synced;
  CHECK(strcmp(session_id, memory->session_id) == 0);
  snprintf(memory->synced_user, sizeof memory->synced_user, "%s", user_content);
  snprintf(memory->synced_assistant, sizeof memory->synced_assistant, "%s", assistant_content);
  memory->synced_transcript_has_user = strstr(messages_json, "What do I like to drink?") != NULL;
}

static void memory_session_end(const char* messages_json, void* user_data) {
  Memory* memory = (Memory*)user_data;
  CHECK(strstr(messages_json, "Tea, as always.") != NULL);
  ++memory->session_ended;
}

static void memory_shutdown(void* user_data) {
  ++((Memory*)user_data)->shut_down;
}

static void memory_destroy(void* user_data) {
  ++((Memory*)user_data)->destroyed;
}

static hermes_agent_options_t* model_options(const char* home, hermes_provider_fn fn,
                                             Model* model) {
  hermes_agent_options_t* options = hermes_agent_options_new();
  CHECK(hermes_agent_options_set_provider_callback(options, "host", "host-model", fn, model,
                                                   NULL) == HERMES_OK);
  CHECK(hermes_agent_options_set_home(options, home) == HERMES_OK);
  CHECK(hermes_agent_options_set_persist_sessions(options, 0) == HERMES_OK);
  CHECK(hermes_agent_options_set_background_review(options, 0, 0, 0) == HERMES_OK);
  CHECK(hermes_agent_options_set_context_length(options, 64000) == HERMES_OK);
  return options;
}

static void test_the_provider_is_consulted_around_a_turn(const char* home) {
  Model model = {0, NULL};
  Memory memory;
  hermes_memory_provider_callbacks_t callbacks;
  hermes_agent_options_t* options = model_options(home, answering_model, &model);
  hermes_agent_t* agent = NULL;
  hermes_error_t* error = NULL;
  char* text = NULL;

  memset(&memory, 0, sizeof memory);
  memset(&callbacks, 0, sizeof callbacks);
  callbacks.struct_size = sizeof callbacks;
  callbacks.initialize = memory_initialize;
  callbacks.system_prompt_block = memory_system_prompt_block;
  callbacks.prefetch = memory_prefetch;
  callbacks.sync_turn = memory_sync_turn;
  callbacks.on_session_end = memory_session_end;
  callbacks.shutdown = memory_shutdown;
  CHECK(hermes_agent_options_set_memory_provider(options, "teapot", &callbacks, &memory,
                                                 memory_destroy, &error) == HERMES_OK);

  CHECK(hermes_agent_new(options, &agent, &error) == HERMES_OK);
  CHECK(memory.initialized == 1);
  CHECK(hermes_agent_chat(agent, "What do I like to drink?", &text, &error) == HERMES_OK);
  CHECK(text != NULL && strcmp(text, "Tea, as always.") == 0);
  CHECK(model.calls == 1);
  CHECK(memory.prefetched == 1);
  CHECK(model.last_request != NULL &&
        strstr(model.last_request, "The user prefers oolong tea.") != NULL);
  CHECK(model.last_request != NULL &&
        strstr(model.last_request, "the teapot store is connected") != NULL);
  CHECK(memory.synced == 1);
  CHECK(strcmp(memory.synced_user, "What do I like to drink?") == 0);
  CHECK(strcmp(memory.synced_assistant, "Tea, as always.") == 0);
  CHECK(memory.synced_transcript_has_user);

  hermes_agent_free(agent);
  CHECK(memory.session_ended == 1);
  CHECK(memory.destroyed == 0); /* The options still hold the provider. */
  hermes_agent_options_free(options);
  CHECK(memory.shut_down == 1);
  CHECK(memory.destroyed == 1);
  hermes_free(text);
  hermes_error_free(error);
  free(model.last_request);
}

/* Only the name is required: a table of NULL callbacks changes nothing. */
static void test_a_provider_without_callbacks_is_harmless(const char* home) {
  Model model = {0, NULL};
  hermes_memory_provider_callbacks_t callbacks;
  hermes_agent_options_t* options = model_options(home, answering_model, &model);
  hermes_agent_t* agent = NULL;
  char* text = NULL;

  memset(&callbacks, 0, sizeof callbacks);
  callbacks.struct_size = sizeof callbacks;
  CHECK(hermes_agent_options_set_memory_provider(options, "empty", &callbacks, NULL, NULL, NULL) ==
        HERMES_OK);
  CHECK(hermes_agent_new(options, &agent, NULL) == HERMES_OK);
  CHECK(hermes_agent_chat(agent, "hello", &text, NULL) == HERMES_OK);
  CHECK(text != NULL && strcmp(text, "Tea, as always.") == 0);
  hermes_free(text);
  hermes_agent_free(agent);
  hermes_agent_options_free(options);
  free(model.last_request);
}

/* `status` and *error come from the same refused call; *error is released. */
static void check_refused(hermes_status_t status, hermes_error_t** error, const char* field) {
  CHECK(status == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_error_code(*error) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(strstr(hermes_error_message(*error), field) != NULL);
  hermes_error_free(*error);
  *error = NULL;
}

static void test_bad_memory_provider_settings_are_refused(void) {
  Memory memory;
  hermes_memory_provider_callbacks_t callbacks;
  hermes_agent_options_t* options = hermes_agent_options_new();
  hermes_error_t* error = NULL;

  memset(&memory, 0, sizeof memory);
  memset(&callbacks, 0, sizeof callbacks);
  callbacks.struct_size = sizeof callbacks;
  check_refused(hermes_agent_options_set_memory_provider(NULL, "m", &callbacks, NULL, NULL, &error),
                &error, "options");
  check_refused(hermes_agent_options_set_memory_provider(options, NULL, &callbacks, &memory,
                                                         memory_destroy, &error),
                &error, "name");
  check_refused(hermes_agent_options_set_memory_provider(options, "", &callbacks, &memory,
                                                         memory_destroy, &error),
                &error, "name");
  callbacks.struct_size = 0;
  check_refused(hermes_agent_options_set_memory_provider(options, "m", &callbacks, &memory,
                                                         memory_destroy, &error),
                &error, "struct_size");
  CHECK(memory.destroyed == 0); /* A refused user_data stays the caller's. */
  /* NULL callbacks remove the provider. */
  CHECK(hermes_agent_options_set_memory_provider(options, NULL, NULL, NULL, NULL, NULL) ==
        HERMES_OK);
  hermes_agent_options_free(options);
}

static void test_bad_delegation_settings_are_refused(void) {
  hermes_agent_options_t* options = hermes_agent_options_new();
  hermes_error_t* error = NULL;
  check_refused(hermes_agent_options_set_delegation(NULL, 10, 2, &error), &error, "options");
  check_refused(hermes_agent_options_set_delegation(options, 0, 2, &error), &error,
                "delegation.max_iterations");
  check_refused(hermes_agent_options_set_delegation(options, 10, -1, &error), &error,
                "delegation.max_concurrent_children");
  CHECK(hermes_agent_options_set_delegation(options, 10, 2, NULL) == HERMES_OK);
  hermes_agent_options_free(options);
}

/* With one child at a time, a call for two sub-agents is refused and the model is told
 * the limit. */
static void test_the_delegation_limit_reaches_the_agent(const char* home) {
  Model model = {0, NULL};
  hermes_agent_options_t* options = model_options(home, delegating_model, &model);
  hermes_agent_t* agent = NULL;
  hermes_error_t* error = NULL;
  char* text = NULL;

  CHECK(hermes_agent_options_enable_toolset(options, "delegation") == HERMES_OK);
  CHECK(hermes_agent_options_set_delegation(options, 5, 1, &error) == HERMES_OK);
  CHECK(hermes_agent_new(options, &agent, &error) == HERMES_OK);
  CHECK(hermes_agent_chat(agent, "Split the work.", &text, &error) == HERMES_OK);
  CHECK(text != NULL && strcmp(text, "Done alone.") == 0);
  CHECK(model.calls == 2);
  CHECK(model.last_request != NULL && strstr(model.last_request, "at most 1") != NULL);
  hermes_free(text);
  hermes_agent_free(agent);
  hermes_agent_options_free(options);
  free(model.last_request);
}

int main(void) {
  char home[] = "/tmp/hermes-capi-memory-XXXXXX";
  if (mkdtemp(home) == NULL) return 2;

  test_the_provider_is_consulted_around_a_turn(home);
  test_a_provider_without_callbacks_is_harmless(home);
  test_bad_memory_provider_settings_are_refused();
  test_bad_delegation_settings_are_refused();
  test_the_delegation_limit_reaches_the_agent(home);

  if (failures == 0) printf("capi_memory_provider_test: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
