/* The C ABI from a C99 program: bad input, ownership rules, and a two-step tool
 * conversation over HTTP against the loopback mock server. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_check.h"
#include "hermes_c.h"
#include "mock_process.h"

static int destroyed = 0;
static void count_destroy(void *user_data) {
  (void)user_data;
  ++destroyed;
}

static int add_calls = 0;
static hermes_status_t add_tool(hermes_tool_call_t *call, void *user_data) {
  const char *args = hermes_tool_call_arguments(call);
  const char *a = strstr(args, "\"a\":");
  const char *b = strstr(args, "\"b\":");
  char result[64];
  ++add_calls;
  CHECK(user_data == (void *)&add_calls);
  CHECK(strcmp(hermes_tool_call_name(call), "add") == 0);
  if (a == NULL || b == NULL) {
    hermes_tool_call_set_error(call, "a and b are required");
    return HERMES_ERR_INVALID_ARGUMENT;
  }
  snprintf(result, sizeof result, "{\"sum\":%ld}", strtol(a + 4, NULL, 10) + strtol(b + 4, NULL, 10));
  return hermes_tool_call_set_result(call, result);
}

static void test_versions(void) {
  CHECK(hermes_abi_version() == HERMES_ABI_VERSION);
  CHECK(hermes_abi_compatible(HERMES_ABI_VERSION));
  CHECK(!hermes_abi_compatible(HERMES_ABI_VERSION + 1));
  CHECK(strcmp(hermes_version(), "0.2.0") == 0);
  CHECK(strcmp(hermes_status_name(HERMES_ERR_INVALID_ARGUMENT), "invalid_argument") == 0);
  CHECK(strcmp(hermes_status_name(12345), "unknown") == 0);
}

static void test_bad_input(void) {
  hermes_error_t *error = NULL;
  hermes_agent_t *agent = (hermes_agent_t *)1;
  hermes_agent_options_t *options = hermes_agent_options_new();
  hermes_tool_registry_t *tools = hermes_tool_registry_new();
  char *text = NULL;

  CHECK(hermes_agent_new(NULL, &agent, &error) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(agent == NULL);
  CHECK(hermes_error_code(error) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(strstr(hermes_error_message(error), "options") != NULL);
  hermes_error_free(error);
  error = NULL;

  /* No model: the error names the field. */
  hermes_agent_options_set_persist_sessions(options, 0);
  CHECK(hermes_agent_new(options, &agent, &error) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(strncmp(hermes_error_message(error), "provider.model", 14) == 0);
  hermes_error_free(error);
  error = NULL;

  /* A malformed base URL is refused when the agent is created. */
  hermes_agent_options_set_model(options, "m");
  hermes_agent_options_set_base_url(options, "not a url");
  CHECK(hermes_agent_new(options, &agent, &error) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(strstr(hermes_error_message(error), "base_url") != NULL);
  hermes_error_free(error);
  error = NULL;

  CHECK(hermes_agent_options_set_max_iterations(options, 0) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_set_timeout_ms(options, 99, 5) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_set_timeout_ms(options, HERMES_TIMEOUT_TOOL_BATCH, 60000) == HERMES_OK);
  CHECK(hermes_agent_options_set_timeout_ms(options, HERMES_TIMEOUT_TOOL_CALL, 5000) == HERMES_OK);
  CHECK(hermes_agent_options_set_timeout_ms(options, HERMES_TIMEOUT_TOOL_CALL, -1) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_set_idle_compaction(options, 600) == HERMES_OK);
  CHECK(hermes_agent_options_set_idle_compaction(options, -1) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_set_max_tool_workers(options, 2) == HERMES_OK);
  CHECK(hermes_agent_options_set_max_tool_workers(options, 0) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_set_memory_limits(options, 4000, 2000) == HERMES_OK);
  CHECK(hermes_agent_options_set_memory_limits(options, 0, 2000) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_set_review_max_iterations(options, 4) == HERMES_OK);
  CHECK(hermes_agent_options_set_review_max_iterations(NULL, 4) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_set_model(NULL, "m") == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_chat(NULL, "hi", &text, NULL) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(text == NULL);

  /* A schema that is not JSON is refused, and the caller keeps its user_data. */
  destroyed = 0;
  CHECK(hermes_tool_registry_add(tools, "t", NULL, "d", "{not json", 0, add_tool, NULL,
                                 count_destroy, &error) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(destroyed == 0);
  hermes_error_free(error);
  error = NULL;
  CHECK(hermes_tool_registry_add(tools, "bad name!", NULL, "d", NULL, 0, add_tool, NULL, NULL,
                                 &error) == HERMES_ERR_INVALID_ARGUMENT);
  hermes_error_free(error);
  error = NULL;
  /* Registered: the registry owns user_data and destroys it when freed. */
  CHECK(hermes_tool_registry_add(tools, "ok", NULL, "d", NULL, 0, add_tool, NULL, count_destroy,
                                 NULL) == HERMES_OK);
  hermes_tool_registry_freep(&tools);
  CHECK(tools == NULL);
  CHECK(destroyed == 1);
  hermes_tool_registry_freep(&tools); /* Freeing twice through the pointer form is harmless. */

  hermes_agent_options_freep(&options);
  hermes_agent_options_freep(&options);
  hermes_agent_free(NULL);
  hermes_error_free(NULL);
  hermes_free(NULL);
}

static void test_two_step_conversation(const char *server, const char *script) {
  mock_process_t mock;
  hermes_error_t *error = NULL;
  hermes_agent_t *agent = NULL;
  hermes_agent_options_t *options = hermes_agent_options_new();
  hermes_tool_registry_t *tools = hermes_tool_registry_new();
  char *result = NULL;

  if (mock_process_start(&mock, server, script) != 0) {
    fprintf(stderr, "could not start the mock server %s\n", server);
    ++failures;
    return;
  }
  CHECK(hermes_tool_registry_add(tools, "add", NULL, "Add two numbers.",
                                 "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"number\"},"
                                 "\"b\":{\"type\":\"number\"}}}",
                                 HERMES_TOOL_PARALLEL_SAFE, add_tool, &add_calls, NULL, &error) == HERMES_OK);
  hermes_agent_options_set_model(options, "mock-model");
  hermes_agent_options_set_base_url(options, mock.base_url);
  hermes_agent_options_set_api_key(options, "sk-test");
  hermes_agent_options_set_persist_sessions(options, 0);
  hermes_agent_options_set_tools(options, tools);
  hermes_tool_registry_freep(&tools); /* The options keep the registry alive. */

  CHECK(hermes_agent_new(options, &agent, &error) == HERMES_OK);
  if (agent != NULL) {
    CHECK(hermes_agent_run_conversation(agent, "What is 2 + 40?", NULL, NULL, NULL, &result,
                                        &error) == HERMES_OK);
    CHECK(result != NULL);
    if (result != NULL) {
      CHECK(strstr(result, "\"completed\":true") != NULL);
      CHECK(strstr(result, "\"final_response\":\"The sum is 42.\"") != NULL);
      CHECK(strstr(result, "{\\\"sum\\\":42}") != NULL);
      CHECK(strstr(result, "\"api_calls\":2") != NULL);
    }
    CHECK(add_calls == 1);
    hermes_free(result); /* The next call sets result again. */
    result = NULL;
    CHECK(hermes_agent_run_conversation(agent, "again", NULL, "[{\"role\":\"robot\"}]", NULL,
                                        &result, &error) != HERMES_OK || result == NULL);
  }
  if (error != NULL) fprintf(stderr, "error: %s\n", hermes_error_message(error));
  hermes_error_free(error);
  hermes_free(result);
  hermes_agent_freep(&agent);
  hermes_agent_freep(&agent);
  hermes_agent_options_free(options);
  mock_process_stop(&mock);
}

static int approvals_asked = 0;
static int32_t deny_and_count(const char *request_json, void *user_data) {
  (void)user_data;
  ++approvals_asked;
  CHECK(strstr(request_json, "\"command\":\"echo hermes-ask-mode\"") != NULL);
  CHECK(strstr(request_json, "every command needs approval") != NULL);
  return HERMES_APPROVAL_DENY;
}

/* Ask mode: even a harmless command goes to the approval callback, and a denial keeps it
 * from running. */
static void test_ask_mode(const char *server, const char *script) {
  mock_process_t mock;
  hermes_error_t *error = NULL;
  hermes_agent_t *agent = NULL;
  hermes_agent_options_t *options = hermes_agent_options_new();
  char *result = NULL;

  CHECK(hermes_agent_options_set_approval_mode(options, 99) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_set_approval_mode(NULL, HERMES_APPROVAL_MODE_ASK) ==
        HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_add_allowed_command(options, "") == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_add_allowed_command(options, "ls") == HERMES_OK);
  CHECK(hermes_agent_options_set_approval_timeout_ms(options, -1) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_set_approval_timeout_ms(options, 30000) == HERMES_OK);
  CHECK(hermes_agent_options_set_approval_mode(options, HERMES_APPROVAL_MODE_ASK) == HERMES_OK);
  if (mock_process_start(&mock, server, script) != 0) {
    fprintf(stderr, "could not start the mock server %s\n", server);
    ++failures;
    hermes_agent_options_free(options);
    return;
  }
  hermes_agent_options_set_model(options, "mock-model");
  hermes_agent_options_set_base_url(options, mock.base_url);
  hermes_agent_options_set_api_key(options, "sk-test");
  hermes_agent_options_set_persist_sessions(options, 0);
  hermes_agent_options_set_background_review(options, 0, 0, 0);
  hermes_agent_options_enable_toolset(options, "terminal");
  hermes_agent_options_set_approval_callback(options, deny_and_count, NULL, NULL);

  CHECK(hermes_agent_new(options, &agent, &error) == HERMES_OK);
  if (agent != NULL) {
    CHECK(hermes_agent_run_conversation(agent, "Say hi.", NULL, NULL, NULL, &result, &error) ==
          HERMES_OK);
    CHECK(result != NULL && strstr(result, "\"completed\":true") != NULL);
    CHECK(result != NULL && strstr(result, "BLOCKED") != NULL);
    CHECK(approvals_asked == 1);
  }
  if (error != NULL) fprintf(stderr, "error: %s\n", hermes_error_message(error));
  hermes_error_free(error);
  hermes_free(result);
  hermes_agent_freep(&agent);
  hermes_agent_options_free(options);
  mock_process_stop(&mock);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: capi_test <mock-server> <fixtures-dir>\n");
    return 2;
  }
  {
    char script[1024];
    snprintf(script, sizeof script, "%s/scripts/two_step_add.json", argv[2]);
    test_versions();
    test_bad_input();
    test_two_step_conversation(argv[1], script);
    snprintf(script, sizeof script, "%s/scripts/terminal_echo.json", argv[2]);
    test_ask_mode(argv[1], script);
  }
  if (failures != 0) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("capi_test: all checks passed\n");
  return 0;
}
