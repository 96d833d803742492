/* The C ABI's host-facing half from a C99 program: a provider written in C, pull
 * streaming, the clarify and step callbacks, the session store and the utilities. No
 * network: the provider callback is the model. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_check.h"
#include "hermes_c.h"

/* The scripted model: first a clarify tool call, then an answer that quotes the user's
 * reply (found in the tool result the request carries). */
typedef struct {
  int calls;
  int saw_tool_result;
} Model;

static hermes_status_t model_call(hermes_provider_call_t *call, void *user_data) {
  Model *model = (Model *)user_data;
  const char *request = hermes_provider_call_request(call);
  ++model->calls;
  CHECK(strstr(request, "\"messages\"") != NULL);
  if (strstr(request, "\"role\":\"tool\"") == NULL) {
    return hermes_provider_call_set_response(
        call,
        "{\"message\":{\"content\":\"\",\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\","
        "\"function\":{\"name\":\"clarify\",\"arguments\":\"{\\\"question\\\":\\\"Tea or coffee?\\\","
        "\\\"choices\\\":[\\\"tea\\\",\\\"coffee\\\"]}\"}}]},"
        "\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":5},\"finish_reason\":\"tool_calls\"}");
  }
  model->saw_tool_result = strstr(request, "tea") != NULL;
  hermes_provider_call_emit_text(call, "Tea ", 4);
  hermes_provider_call_emit_text(call, "it is.", 6);
  return hermes_provider_call_set_response(
      call, "{\"message\":{\"content\":\"Tea it is.\"},\"usage\":{\"prompt_tokens\":20,"
            "\"completion_tokens\":3},\"finish_reason\":\"stop\"}");
}

static hermes_status_t failing_model(hermes_provider_call_t *call, void *user_data) {
  (void)user_data;
  hermes_provider_call_set_error(call, 401, "invalid api key", "{\"error\":{\"message\":\"invalid api key\"}}", -1);
  return HERMES_ERR_API;
}

static int clarify_asked = 0;
static void answer_clarify(const char *question, const char *choices_json, hermes_answer_t *answer,
                           void *user_data) {
  (void)user_data;
  ++clarify_asked;
  CHECK(strcmp(question, "Tea or coffee?") == 0);
  /* The first choice is shown as the recommendation. */
  CHECK(strcmp(choices_json, "[\"tea (Recommended)\",\"coffee\"]") == 0);
  CHECK(hermes_answer_set(answer, "tea") == HERMES_OK);
}

static int steps = 0;
static void count_step(const char *event_json, void *user_data) {
  (void)user_data;
  CHECK(strstr(event_json, "\"api_call_count\"") != NULL);
  ++steps;
}

static hermes_agent_options_t *host_options(Model *model, const char *home, hermes_store_t *store) {
  hermes_agent_options_t *options = hermes_agent_options_new();
  CHECK(hermes_agent_options_set_provider_callback(options, "host", "host-model", model_call, model, NULL) == HERMES_OK);
  CHECK(hermes_agent_options_set_home(options, home) == HERMES_OK);
  CHECK(hermes_agent_options_set_store(options, store) == HERMES_OK);
  CHECK(hermes_agent_options_set_clarify_callback(options, answer_clarify, NULL, NULL) == HERMES_OK);
  CHECK(hermes_agent_options_set_step_callback(options, count_step, NULL, NULL) == HERMES_OK);
  CHECK(hermes_agent_options_set_context_length(options, 64000) == HERMES_OK);
  return options;
}

static void test_provider_in_c_with_clarify(const char *home, hermes_store_t *store) {
  Model model = {0, 0};
  hermes_error_t *error = NULL;
  hermes_agent_t *agent = NULL;
  char *text = NULL;
  hermes_agent_options_t *options = host_options(&model, home, store);

  CHECK(hermes_agent_new(options, &agent, &error) == HERMES_OK);
  CHECK(hermes_agent_chat(agent, "Tea or coffee for the meeting?", &text, &error) == HERMES_OK);
  CHECK(text != NULL && strcmp(text, "Tea it is.") == 0);
  CHECK(model.calls == 2);
  CHECK(model.saw_tool_result);
  CHECK(clarify_asked == 1);
  CHECK(steps == 2);
  hermes_free(text);
  hermes_agent_free(agent);
  hermes_agent_options_free(options);
}

static void test_pull_stream(const char *home, hermes_store_t *store) {
  Model model = {0, 0};
  hermes_error_t *error = NULL;
  hermes_agent_t *agent = NULL;
  hermes_stream_t *stream = NULL;
  hermes_agent_options_t *options = host_options(&model, home, store);
  char *event = NULL;
  char text[64] = "";
  int tools = 0, done = 0;

  CHECK(hermes_agent_new(options, &agent, &error) == HERMES_OK);
  CHECK(hermes_agent_stream(agent, "Tea or coffee?", &stream, &error) == HERMES_OK);
  for (;;) {
    CHECK(hermes_stream_next(stream, 10000, &event, &error) == HERMES_OK);
    if (event == NULL) break;
    if (strstr(event, "\"type\":\"text\"") != NULL) {
      const char *start = strstr(event, "\"text\":\"") + 8;
      strncat(text, start, (size_t)(strchr(start, '"') - start));
    }
    if (strstr(event, "\"type\":\"tool\"") != NULL) ++tools;
    if (strstr(event, "\"type\":\"done\"") != NULL) {
      ++done;
      CHECK(strstr(event, "\"completed\":true") != NULL);
    }
    hermes_free(event);
  }
  CHECK(strcmp(text, "Tea it is.") == 0);
  CHECK(tools == 2); /* clarify started and completed */
  CHECK(done == 1);
  hermes_stream_free(stream);
  hermes_agent_free(agent);
  hermes_agent_options_free(options);
}

static void test_provider_error_ends_the_turn(const char *home) {
  hermes_error_t *error = NULL;
  hermes_agent_t *agent = NULL;
  char *result = NULL;
  hermes_agent_options_t *options = hermes_agent_options_new();
  hermes_agent_options_set_provider_callback(options, "host", "host-model", failing_model, NULL, NULL);
  hermes_agent_options_set_home(options, home);
  hermes_agent_options_set_persist_sessions(options, 0);
  CHECK(hermes_agent_new(options, &agent, &error) == HERMES_OK);
  CHECK(hermes_agent_run_conversation(agent, "hi", NULL, NULL, NULL, &result, &error) == HERMES_OK);
  CHECK(strstr(result, "\"completed\":false") != NULL);
  CHECK(strstr(result, "invalid api key") != NULL);
  hermes_free(result);
  CHECK(hermes_agent_compress(agent, NULL, &result, &error) != HERMES_OK || result != NULL);
  hermes_free(result);
  hermes_error_free(error);
  hermes_agent_free(agent);
  hermes_agent_options_free(options);
}

/* 401 until the call carries the credential the host's refresh callback hands out. */
static int refreshing_model_calls = 0;
static hermes_status_t refreshing_model(hermes_provider_call_t *call, void *user_data) {
  const char *key = hermes_provider_call_api_key(call);
  (void)user_data;
  ++refreshing_model_calls;
  if (key == NULL || strcmp(key, "fresh-token") != 0) {
    hermes_provider_call_set_error(call, 401, "token expired", NULL, -1);
    return HERMES_ERR_API;
  }
  return hermes_provider_call_set_response(call, "{\"message\":{\"content\":\"Signed in.\"}}");
}

static int refresh_asked = 0;
static void refresh_token(const char *request_json, hermes_answer_t *answer, void *user_data) {
  (void)user_data;
  ++refresh_asked;
  CHECK(strstr(request_json, "\"http_status\":401") != NULL);
  CHECK(strstr(request_json, "\"model\":\"host-model\"") != NULL);
  CHECK(hermes_answer_set(answer, "fresh-token") == HERMES_OK);
}

static void test_auth_refresh(const char *home) {
  hermes_error_t *error = NULL;
  hermes_agent_t *agent = NULL;
  char *text = NULL;
  hermes_agent_options_t *options = hermes_agent_options_new();
  CHECK(hermes_agent_options_set_provider_callback(options, "host", "host-model", refreshing_model, NULL, NULL) == HERMES_OK);
  CHECK(hermes_agent_options_set_api_key(options, "stale-token") == HERMES_OK);
  CHECK(hermes_agent_options_set_home(options, home) == HERMES_OK);
  CHECK(hermes_agent_options_set_persist_sessions(options, 0) == HERMES_OK);
  CHECK(hermes_agent_options_set_auth_refresh_callback(options, refresh_token, NULL, NULL) == HERMES_OK);
  CHECK(hermes_agent_new(options, &agent, &error) == HERMES_OK);
  CHECK(hermes_agent_chat(agent, "hello", &text, &error) == HERMES_OK);
  CHECK(text != NULL && strcmp(text, "Signed in.") == 0);
  CHECK(refresh_asked == 1);
  CHECK(refreshing_model_calls == 2);
  hermes_free(text);
  hermes_error_free(error);
  hermes_agent_free(agent);
  hermes_agent_options_free(options);
}

/* 503 on the first call, an answer on the second. */
static int busy_model_calls = 0;
static hermes_status_t busy_once_model(hermes_provider_call_t *call, void *user_data) {
  (void)user_data;
  if (++busy_model_calls == 1) {
    hermes_provider_call_set_error(call, 503, "server busy", NULL, -1);
    return HERMES_ERR_API;
  }
  return hermes_provider_call_set_response(call, "{\"message\":{\"content\":\"Back.\"}}");
}

static int retry_notices = 0;
static int waited_nothing = 0;
static void on_status(const char *event_json, void *user_data) {
  (void)user_data;
  if (strstr(event_json, "\"kind\":\"retry\"") == NULL) return;
  ++retry_notices;
  waited_nothing = strstr(event_json, "retrying in 0.0s") != NULL;
}

/* With no backoff the retry follows at once, and says so. */
static void test_retry_backoff(const char *home) {
  hermes_error_t *error = NULL;
  hermes_agent_t *agent = NULL;
  char *text = NULL;
  hermes_agent_options_t *options = hermes_agent_options_new();
  CHECK(hermes_agent_options_set_provider_callback(options, "host", "host-model", busy_once_model, NULL, NULL) == HERMES_OK);
  CHECK(hermes_agent_options_set_home(options, home) == HERMES_OK);
  CHECK(hermes_agent_options_set_persist_sessions(options, 0) == HERMES_OK);
  CHECK(hermes_agent_options_set_retry_backoff_ms(options, HERMES_BACKOFF_BASE, 0) == HERMES_OK);
  CHECK(hermes_agent_options_set_retry_backoff_ms(options, HERMES_BACKOFF_MAX, 0) == HERMES_OK);
  CHECK(hermes_agent_options_set_status_callback(options, on_status, NULL, NULL) == HERMES_OK);
  CHECK(hermes_agent_new(options, &agent, &error) == HERMES_OK);
  CHECK(hermes_agent_chat(agent, "hello", &text, &error) == HERMES_OK);
  CHECK(text != NULL && strcmp(text, "Back.") == 0);
  CHECK(busy_model_calls == 2);
  CHECK(retry_notices == 1);
  CHECK(waited_nothing == 1);
  hermes_free(text);
  hermes_error_free(error);
  hermes_agent_free(agent);
  hermes_agent_options_free(options);
}

static int turn_spans = 0;
static int failed_attempts = 0;
static int good_attempts = 0;
static int span_starts = 0;
static int model_call_metrics = 0;
static void on_trace(const char *event_json, void *user_data) {
  (void)user_data;
  if (strstr(event_json, "\"event\":\"span_start\"") != NULL) ++span_starts;
  if (strstr(event_json, "\"event\":\"span_end\"") != NULL) {
    if (strstr(event_json, "\"name\":\"invoke_agent hermes\"") != NULL) ++turn_spans;
    if (strstr(event_json, "\"name\":\"chat host-model\"") != NULL) {
      if (strstr(event_json, "\"status\":\"error\"") != NULL &&
          strstr(event_json, "\"http.response.status_code\":503") != NULL) {
        ++failed_attempts;
      } else if (strstr(event_json, "\"status\":\"unset\"") != NULL) {
        ++good_attempts;
      }
    }
  }
  if (strstr(event_json, "\"event\":\"metric\"") != NULL &&
      strstr(event_json, "\"name\":\"hermes.model_calls\"") != NULL) {
    ++model_call_metrics;
  }
}

/* The trace callback sees the turn, the failed attempt and its retry, and the metrics. */
static void test_trace_callback(const char *home) {
  hermes_error_t *error = NULL;
  hermes_agent_t *agent = NULL;
  char *text = NULL;
  hermes_agent_options_t *options = hermes_agent_options_new();
  busy_model_calls = 0;
  CHECK(hermes_agent_options_set_provider_callback(options, "host", "host-model", busy_once_model, NULL, NULL) == HERMES_OK);
  CHECK(hermes_agent_options_set_home(options, home) == HERMES_OK);
  CHECK(hermes_agent_options_set_persist_sessions(options, 0) == HERMES_OK);
  CHECK(hermes_agent_options_set_retry_backoff_ms(options, HERMES_BACKOFF_BASE, 0) == HERMES_OK);
  CHECK(hermes_agent_options_set_retry_backoff_ms(options, HERMES_BACKOFF_MAX, 0) == HERMES_OK);
  CHECK(hermes_agent_options_set_trace_callback(options, on_trace, 0, NULL, NULL) == HERMES_OK);
  CHECK(hermes_agent_new(options, &agent, &error) == HERMES_OK);
  CHECK(hermes_agent_chat(agent, "hello", &text, &error) == HERMES_OK);
  CHECK(turn_spans == 1);
  CHECK(failed_attempts == 1);
  CHECK(good_attempts == 1);
  CHECK(span_starts == 0);
  CHECK(model_call_metrics == 2);
  CHECK(hermes_agent_options_set_trace_callback(NULL, on_trace, 0, NULL, NULL) == HERMES_ERR_INVALID_ARGUMENT);
  hermes_free(text);
  hermes_error_free(error);
  hermes_agent_free(agent);
  hermes_agent_options_free(options);
}

/* Answers in JSON, noting whether the request asked for the schema. */
static int schema_requested = 0;
static hermes_status_t json_model(hermes_provider_call_t *call, void *user_data) {
  (void)user_data;
  schema_requested = strstr(hermes_provider_call_request(call), "\"name\":\"pair\"") != NULL;
  return hermes_provider_call_set_response(call, "{\"message\":{\"content\":\"{\\\"a\\\":1}\"}}");
}

/* A turn with its own answer schema, and the turn document's errors. */
static void test_run_turn(const char *home) {
  hermes_error_t *error = NULL;
  hermes_agent_t *agent = NULL;
  char *result = NULL;
  hermes_agent_options_t *options = hermes_agent_options_new();
  CHECK(hermes_agent_options_set_provider_callback(options, "host", "host-model", json_model, NULL, NULL) == HERMES_OK);
  CHECK(hermes_agent_options_set_home(options, home) == HERMES_OK);
  CHECK(hermes_agent_options_set_persist_sessions(options, 0) == HERMES_OK);
  CHECK(hermes_agent_new(options, &agent, &error) == HERMES_OK);
  CHECK(hermes_agent_run_turn(agent,
                              "{\"user_message\":\"pair?\",\"output\":{\"name\":\"pair\",\"schema\":"
                              "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\"}},"
                              "\"required\":[\"a\"]}}}",
                              &result, &error) == HERMES_OK);
  CHECK(schema_requested == 1);
  CHECK(result != NULL && strstr(result, "\"output\":{\"a\":1}") != NULL);
  hermes_free(result);
  result = NULL;
  CHECK(hermes_agent_run_turn(agent, "{\"user_message\":\"again\"}", &result, &error) == HERMES_OK);
  CHECK(schema_requested == 0);
  CHECK(result != NULL && strstr(result, "\"output\"") == NULL);
  hermes_free(result);
  result = NULL;
  CHECK(hermes_agent_run_turn(agent, "{\"user_message\":\"x\",\"colour\":1}", &result, &error) ==
        HERMES_ERR_INVALID_ARGUMENT);
  CHECK(error != NULL && strstr(hermes_error_message(error), "colour: unknown key") != NULL);
  hermes_error_free(error);
  error = NULL;
  CHECK(hermes_agent_run_turn(agent, "{\"system_message\":\"x\"}", &result, &error) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(error != NULL && strstr(hermes_error_message(error), "user_message: required") != NULL);
  CHECK(result == NULL);
  hermes_error_free(error);
  hermes_agent_free(agent);
  hermes_agent_options_free(options);
}

/* Answers, noting whether the system prompt carried the project's AGENTS.md and the
 * host's platform hint. */
static int saw_project_rules = 0;
static int saw_platform_hint = 0;
static hermes_status_t rules_model(hermes_provider_call_t *call, void *user_data) {
  const char *request = hermes_provider_call_request(call);
  (void)user_data;
  saw_project_rules = strstr(request, "## AGENTS.md\\n\\nAnswer in haiku.") != NULL;
  saw_platform_hint = strstr(request, "Answers go to a braille display.") != NULL;
  return hermes_provider_call_set_response(call, "{\"message\":{\"content\":\"Done.\"}}");
}

static void chat_once(const char *home, const char *context_dir, const char *platform_hint) {
  hermes_error_t *error = NULL;
  hermes_agent_t *agent = NULL;
  char *text = NULL;
  hermes_agent_options_t *options = hermes_agent_options_new();
  CHECK(hermes_agent_options_set_provider_callback(options, "host", "host-model", rules_model, NULL, NULL) == HERMES_OK);
  CHECK(hermes_agent_options_set_home(options, home) == HERMES_OK);
  CHECK(hermes_agent_options_set_persist_sessions(options, 0) == HERMES_OK);
  CHECK(hermes_agent_options_set_context_dir(options, context_dir) == HERMES_OK);
  CHECK(hermes_agent_options_set_platform_hint(options, platform_hint) == HERMES_OK);
  CHECK(hermes_agent_new(options, &agent, &error) == HERMES_OK);
  CHECK(hermes_agent_chat(agent, "hello", &text, &error) == HERMES_OK);
  hermes_free(text);
  hermes_agent_free(agent);
  hermes_agent_options_free(options);
}

/* The project's context files reach the prompt only when the host names the directory. */
static void test_context_dir(const char *home) {
  char path[160];
  FILE *file;
  snprintf(path, sizeof path, "%s/AGENTS.md", home);
  file = fopen(path, "w");
  CHECK(file != NULL);
  if (file == NULL) return;
  fputs("Answer in haiku.\n", file);
  fclose(file);
  chat_once(home, home, NULL);
  CHECK(saw_project_rules == 1);
  CHECK(saw_platform_hint == 0);
  chat_once(home, NULL, "Answers go to a braille display.");
  CHECK(saw_project_rules == 0);
  CHECK(saw_platform_hint == 1);
  CHECK(hermes_agent_options_set_platform_hint(NULL, "x") == HERMES_ERR_INVALID_ARGUMENT);
  remove(path);
}

static void test_store(hermes_store_t *store) {
  hermes_error_t *error = NULL;
  char *json = NULL;
  char id[64] = "";
  const char *start;

  CHECK(hermes_store_list(store, 10, &json, &error) == HERMES_OK);
  start = strstr(json, "\"id\":\"");
  CHECK(start != NULL);
  if (start != NULL) strncat(id, start + 6, (size_t)(strchr(start + 6, '"') - (start + 6)));
  hermes_free(json);

  CHECK(hermes_store_search(store, "meeting", 5, &json, &error) == HERMES_OK);
  CHECK(strstr(json, ">>>meeting<<<") != NULL);
  hermes_free(json);

  CHECK(hermes_store_load(store, id, &json, &error) == HERMES_OK);
  CHECK(strstr(json, "\"role\":\"tool\"") != NULL);
  hermes_free(json);

  CHECK(hermes_store_load(store, "no-such-session", &json, &error) == HERMES_ERR_NOT_FOUND);
  CHECK(json == NULL);
  CHECK(hermes_error_code(error) == HERMES_ERR_NOT_FOUND);
  hermes_error_free(error);
  error = NULL;

  CHECK(hermes_store_delete(store, id, &error) == HERMES_OK);
  CHECK(hermes_store_load(store, id, &json, NULL) == HERMES_ERR_NOT_FOUND);
  CHECK(hermes_store_search(store, NULL, 5, &json, NULL) == HERMES_ERR_INVALID_ARGUMENT);
}

static void test_utilities(const char *home) {
  hermes_error_t *error = NULL;
  char *json = NULL;
  int64_t tokens = 0;

  CHECK(hermes_classify_api_error("{\"status_code\":429,\"message\":\"Rate limit reached\"}", &json, &error) == HERMES_OK);
  CHECK(strstr(json, "\"reason\":\"rate_limit\"") != NULL);
  hermes_free(json);
  CHECK(hermes_classify_api_error("{\"status_code\":400,\"provider\":\"anthropic\",\"message\":"
                                  "\"You're out of extra usage.\"}",
                                  &json, &error) == HERMES_OK);
  CHECK(strstr(json, "\"reason\":\"billing\"") != NULL);
  CHECK(strstr(json, "\"billing_unverified\":true") != NULL);
  hermes_free(json);
  CHECK(hermes_classify_api_error("{\"status_code\":429,\"message\":\"usage limit reached\","
                                  "\"retry_after\":60}",
                                  &json, &error) == HERMES_OK);
  CHECK(strstr(json, "\"reason\":\"rate_limit\"") != NULL);
  hermes_free(json);
  CHECK(hermes_classify_api_error("{\"transport\":\"pigeon\"}", &json, &error) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(strstr(hermes_error_message(error), "transport") != NULL);
  hermes_error_free(error);
  error = NULL;
  CHECK(hermes_classify_api_error("not json", &json, NULL) == HERMES_ERR_INVALID_ARGUMENT);

  CHECK(hermes_parse_context_limit("maximum context length is 8192 tokens", &tokens) == HERMES_OK);
  CHECK(tokens == 8192);
  CHECK(hermes_parse_context_limit("nothing here", &tokens) == HERMES_ERR_NOT_FOUND);

  CHECK(hermes_get_model_context_length("whatever", NULL, NULL, 4096, NULL, home, &tokens) == HERMES_OK);
  CHECK(tokens == 4096);
  CHECK(hermes_get_model_context_length("no-such-model-xyz", NULL, NULL, 0, NULL, home, &tokens) == HERMES_OK);
  CHECK(tokens == 256000);

  CHECK(hermes_detect_dangerous_command("rm -rf /tmp/build", &json, &error) == HERMES_OK);
  CHECK(strstr(json, "\"dangerous\":true") != NULL);
  hermes_free(json);
  CHECK(hermes_detect_dangerous_command("ls -la", &json, &error) == HERMES_OK);
  CHECK(strstr(json, "\"dangerous\":false") != NULL);
  hermes_free(json);

  CHECK(hermes_redact_text("token sk-proj-abcdefghijklmnopqrstuvwxyz0123456789", &json, &error) == HERMES_OK);
  CHECK(strstr(json, "abcdefghijklmnopqrstuvwxyz0123456789") == NULL);
  hermes_free(json);

  /* An orphaned tool result is dropped. */
  CHECK(hermes_sanitize_messages("[{\"role\":\"user\",\"content\":\"hi\"},"
                                 "{\"role\":\"tool\",\"tool_call_id\":\"x\",\"content\":\"r\"}]",
                                 &json, &error) == HERMES_OK);
  CHECK(strstr(json, "\"tool\"") == NULL);
  hermes_free(json);
  CHECK(hermes_sanitize_messages("{", &json, NULL) == HERMES_ERR_INVALID_ARGUMENT);

  CHECK(hermes_estimate_tokens(NULL) == 0);
  CHECK(hermes_estimate_tokens("a fairly long sentence of text") > 0);
}

/* The terminal tool: a secret-named variable of the host stays out of a command's
 * environment unless the host passes it through by name. */
static int env_probe_calls = 0;
static int env_probe_saw_expected = 0;
static int env_probe_saw_hidden = 0;
static hermes_status_t env_probe_model(hermes_provider_call_t *call, void *user_data) {
  const char *request = hermes_provider_call_request(call);
  (void)user_data;
  ++env_probe_calls;
  if (strstr(request, "\"role\":\"tool\"") == NULL) {
    return hermes_provider_call_set_response(
        call,
        "{\"message\":{\"content\":\"\",\"tool_calls\":[{\"id\":\"call_env\",\"type\":\"function\","
        "\"function\":{\"name\":\"terminal\",\"arguments\":\"{\\\"command\\\":"
        "\\\"echo probe:[$HERMES_PROBE_API_KEY][$HERMES_PROBE_TOKEN]\\\"}\"}}]},"
        "\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":5},\"finish_reason\":\"tool_calls\"}");
  }
  env_probe_saw_expected = strstr(request, "probe:[][passed-value]") != NULL;
  env_probe_saw_hidden = strstr(request, "hidden-value") != NULL;
  return hermes_provider_call_set_response(
      call, "{\"message\":{\"content\":\"Done.\"},\"usage\":{\"prompt_tokens\":20,"
            "\"completion_tokens\":2},\"finish_reason\":\"stop\"}");
}

static void test_env_passthrough(const char *home) {
  hermes_error_t *error = NULL;
  hermes_agent_t *agent = NULL;
  char *text = NULL;
  hermes_agent_options_t *options = hermes_agent_options_new();
  CHECK(setenv("HERMES_PROBE_API_KEY", "hidden-value", 1) == 0);
  CHECK(setenv("HERMES_PROBE_TOKEN", "passed-value", 1) == 0);
  CHECK(hermes_agent_options_set_provider_callback(options, "host", "host-model", env_probe_model,
                                                   NULL, NULL) == HERMES_OK);
  CHECK(hermes_agent_options_set_home(options, home) == HERMES_OK);
  CHECK(hermes_agent_options_set_persist_sessions(options, 0) == HERMES_OK);
  CHECK(hermes_agent_options_set_context_length(options, 64000) == HERMES_OK);
  CHECK(hermes_agent_options_enable_toolset(options, "terminal") == HERMES_OK);
  CHECK(hermes_agent_options_set_background_review(options, 0, 0, 0) == HERMES_OK);
  CHECK(hermes_agent_options_pass_env(options, "HERMES_PROBE_TOKEN") == HERMES_OK);
  CHECK(hermes_agent_options_pass_env(options, "") == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_pass_env(options, "A=B") == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_new(options, &agent, &error) == HERMES_OK);
  CHECK(hermes_agent_chat(agent, "Probe the environment.", &text, &error) == HERMES_OK);
  CHECK(env_probe_calls == 2);
  CHECK(env_probe_saw_expected);
  CHECK(!env_probe_saw_hidden);
  hermes_free(text);
  hermes_agent_free(agent);
  hermes_agent_options_free(options);
  unsetenv("HERMES_PROBE_API_KEY");
  unsetenv("HERMES_PROBE_TOKEN");
}

static void test_option_validation(void) {
  hermes_agent_options_t *options = hermes_agent_options_new();
  CHECK(hermes_agent_options_add_fallback(options, "openrouter", NULL, NULL, NULL, NULL) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_add_fallback(options, "openrouter", "m", NULL, NULL, NULL) == HERMES_OK);
  CHECK(hermes_agent_options_set_compression_threshold(options, 0.0, 10) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_set_compression_threshold(options, 0.7, 10) == HERMES_OK);
  CHECK(hermes_agent_options_set_context_length(options, -1) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_disable_toolset(options, "") == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_set_reasoning_effort(NULL, "high") == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_answer_set(NULL, "x") == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_set_retry_backoff_ms(options, 99, 0) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_set_retry_backoff_ms(options, HERMES_BACKOFF_MAX, -1) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_set_retry_backoff_ms(NULL, HERMES_BACKOFF_BASE, 0) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_set_background_review(options, 1, -1, 10) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_set_background_review(options, 1, 10, -1) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_set_background_review(options, 0, 0, 0) == HERMES_OK);
  CHECK(hermes_agent_options_set_tool_use_enforcement(options, 2) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_set_tool_use_enforcement(NULL, 1) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_set_tool_use_enforcement(options, HERMES_TOOL_USE_ENFORCEMENT_ON) == HERMES_OK);
  CHECK(hermes_agent_options_set_tool_use_enforcement(options, HERMES_TOOL_USE_ENFORCEMENT_AUTO) == HERMES_OK);
  hermes_agent_options_free(options);
  hermes_stream_free(NULL);
  hermes_store_free(NULL);
}

int main(void) {
  char home[] = "/tmp/hermes-capi-host-XXXXXX";
  char db[128];
  hermes_store_t *store = NULL;
  hermes_error_t *error = NULL;
  if (mkdtemp(home) == NULL) return 2;
  snprintf(db, sizeof db, "%s/state.db", home);
  CHECK(hermes_store_open(db, &store, &error) == HERMES_OK);

  test_option_validation();
  test_provider_in_c_with_clarify(home, store);
  test_pull_stream(home, store);
  test_provider_error_ends_the_turn(home);
  test_auth_refresh(home);
  test_retry_backoff(home);
  test_trace_callback(home);
  test_run_turn(home);
  test_context_dir(home);
  test_store(store);
  test_utilities(home);
  test_env_passthrough(home);

  hermes_store_freep(&store);
  hermes_store_freep(&store); /* Harmless through the pointer form. */
  if (failures == 0) printf("capi_host_test: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
