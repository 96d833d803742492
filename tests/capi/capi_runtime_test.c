/* Turns started on a runtime from a C99 program (hermes_agent_run_turn_async), over HTTP
 * against the loopback mock server: many agents at once on one runtime, refusals that
 * never call back, and freeing an agent or the runtime while a turn is in flight.
 *
 * The mock server serves paths /c/<key>/... from a conversation script (two_step_add.json:
 * a tool call, then "The sum is 42."), each key on its own, and answers any other model
 * call only after a minute (slow_model.json): a turn sent there is in flight until it is
 * interrupted. */
#define _XOPEN_SOURCE 700 /* mkdtemp, pthreads, nanosleep */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capi_check.h"
#include "hermes_c.h"
#include "mock_process.h"

#define AGENTS 8

static const char *home = NULL;

/* ------------------------------------------------------------------ helpers ---- */

/* The done callbacks of a group of turns: a copy of each result, where each ran. */
typedef struct {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int done;
  char *results[AGENTS];
  int calls[AGENTS];
  int on_caller_thread;
} Turns;

typedef struct {
  Turns *turns;
  int index;
} Slot;

static pthread_t main_thread;

static void turns_init(Turns *turns) {
  memset(turns, 0, sizeof *turns);
  pthread_mutex_init(&turns->mu, NULL);
  pthread_cond_init(&turns->cv, NULL);
}

static void turns_destroy(Turns *turns) {
  int i;
  for (i = 0; i < AGENTS; ++i) free(turns->results[i]);
  pthread_cond_destroy(&turns->cv);
  pthread_mutex_destroy(&turns->mu);
}

static char *copy(const char *text) {
  char *out = malloc(strlen(text) + 1);
  if (out != NULL) strcpy(out, text);
  return out;
}

static void record_done(const char *result_json, void *user_data) {
  Slot *slot = (Slot *)user_data;
  Turns *turns = slot->turns;
  pthread_mutex_lock(&turns->mu);
  free(turns->results[slot->index]);
  turns->results[slot->index] = copy(result_json);
  ++turns->calls[slot->index];
  if (pthread_equal(pthread_self(), main_thread)) ++turns->on_caller_thread;
  ++turns->done;
  pthread_cond_broadcast(&turns->cv);
  pthread_mutex_unlock(&turns->mu);
}

/* Waits up to `seconds` until `count` done callbacks ran; nonzero when they did. */
static int wait_done(Turns *turns, int count, int seconds) {
  struct timespec deadline;
  int ok;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += seconds;
  pthread_mutex_lock(&turns->mu);
  while (turns->done < count) {
    if (pthread_cond_timedwait(&turns->cv, &turns->mu, &deadline) != 0) break;
  }
  ok = turns->done >= count;
  pthread_mutex_unlock(&turns->mu);
  return ok;
}

static int done_count(Turns *turns) {
  int n;
  pthread_mutex_lock(&turns->mu);
  n = turns->done;
  pthread_mutex_unlock(&turns->mu);
  return n;
}

static void sleep_ms(long ms) {
  struct timespec pause;
  pause.tv_sec = ms / 1000;
  pause.tv_nsec = (ms % 1000) * 1000000L;
  nanosleep(&pause, NULL);
}

/* The value of the integer field `name` of the runtime's stats (-1 when unreadable). */
static long stat_of(hermes_runtime_t *runtime, const char *name) {
  char *json = NULL;
  char key[64];
  const char *at;
  long value = -1;
  if (hermes_runtime_stats_json(runtime, &json, NULL) != HERMES_OK) return -1;
  snprintf(key, sizeof key, "\"%s\":", name);
  at = strstr(json, key);
  if (at != NULL) value = strtol(at + strlen(key), NULL, 10);
  hermes_free(json);
  return value;
}

/* Waits up to five seconds for the runtime to have a model call in flight. */
static int wait_for_transfer(hermes_runtime_t *runtime) {
  int i;
  for (i = 0; i < 500; ++i) {
    if (stat_of(runtime, "transfers") > 0) return 1;
    sleep_ms(10);
  }
  return 0;
}

/* Waits up to five seconds for the runtime to run no turn. A turn counts as running until
 * its done callback has returned, a moment after the callback's last statement. */
static int wait_for_idle(hermes_runtime_t *runtime) {
  int i;
  for (i = 0; i < 500; ++i) {
    if (stat_of(runtime, "turns_running") == 0) return 1;
    sleep_ms(10);
  }
  return 0;
}

static pthread_mutex_t add_mu = PTHREAD_MUTEX_INITIALIZER;
static int add_calls = 0;

static hermes_status_t add_tool(hermes_tool_call_t *call, void *user_data) {
  const char *args = hermes_tool_call_arguments(call);
  const char *a = strstr(args, "\"a\":");
  const char *b = strstr(args, "\"b\":");
  char result[64];
  (void)user_data;
  pthread_mutex_lock(&add_mu);
  ++add_calls;
  pthread_mutex_unlock(&add_mu);
  if (a == NULL || b == NULL) return HERMES_ERR_INVALID_ARGUMENT;
  snprintf(result, sizeof result, "{\"sum\":%ld}", strtol(a + 4, NULL, 10) + strtol(b + 4, NULL, 10));
  return hermes_tool_call_set_result(call, result);
}

/* An agent on the mock server: `key` picks its own walk through the conversation
 * script, NULL the slow model. */
static hermes_agent_t *new_agent(const mock_process_t *mock, const char *key) {
  hermes_agent_options_t *options = hermes_agent_options_new();
  hermes_tool_registry_t *tools = hermes_tool_registry_new();
  hermes_agent_t *agent = NULL;
  hermes_error_t *error = NULL;
  char base_url[128];
  if (key != NULL) {
    snprintf(base_url, sizeof base_url, "http://127.0.0.1:%d/c/%s/v1", mock->port, key);
  } else {
    snprintf(base_url, sizeof base_url, "%s", mock->base_url);
  }
  CHECK(hermes_tool_registry_add(tools, "add", NULL, "Add two numbers.",
                                 "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"number\"},"
                                 "\"b\":{\"type\":\"number\"}}}",
                                 HERMES_TOOL_PARALLEL_SAFE, add_tool, NULL, NULL, NULL) == HERMES_OK);
  hermes_agent_options_set_model(options, "mock-model");
  hermes_agent_options_set_base_url(options, base_url);
  hermes_agent_options_set_api_key(options, "sk-test");
  hermes_agent_options_set_home(options, home);
  hermes_agent_options_set_persist_sessions(options, 0);
  hermes_agent_options_set_context_length(options, 64000);
  hermes_agent_options_set_background_review(options, 0, 0, 0);
  hermes_agent_options_set_tools(options, tools);
  hermes_tool_registry_free(tools);
  CHECK(hermes_agent_new(options, &agent, &error) == HERMES_OK);
  if (error != NULL) fprintf(stderr, "hermes_agent_new: %s\n", hermes_error_message(error));
  hermes_error_free(error);
  hermes_agent_options_free(options);
  return agent;
}

static const char *kTurn = "{\"user_message\":\"What is 2 + 40?\"}";

/* -------------------------------------------------------------------- tests ---- */

static void expect_invalid(const char *options_json, const char *named) {
  hermes_runtime_t *runtime = (hermes_runtime_t *)1;
  hermes_error_t *error = NULL;
  CHECK(hermes_runtime_new(options_json, &runtime, &error) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(runtime == NULL);
  CHECK(hermes_error_code(error) == HERMES_ERR_INVALID_ARGUMENT);
  if (strstr(hermes_error_message(error), named) == NULL) {
    fprintf(stderr, "%s: the error \"%s\" does not name %s\n", options_json,
            hermes_error_message(error), named);
    ++failures;
  }
  hermes_runtime_free(runtime);
  hermes_error_free(error);
}

static void test_runtime_options(void) {
  hermes_runtime_t *runtime = NULL;
  char *json = NULL;

  CHECK(hermes_runtime_new(NULL, NULL, NULL) == HERMES_ERR_INVALID_ARGUMENT);
  expect_invalid("{io_threads: 2", "not valid JSON");
  expect_invalid("[1]", "object");
  expect_invalid("{\"io_thread\": 2}", "io_thread");
  expect_invalid("{\"io_threads\": \"2\"}", "io_threads");
  expect_invalid("{\"io_threads\": 0}", "io_threads");
  expect_invalid("{\"io_threads\": 99999999999}", "io_threads");
  expect_invalid("{\"tool_workers\": -1}", "tool_workers");
  expect_invalid("{\"tool_workers\": 1.5}", "tool_workers");
  expect_invalid("{\"stack_bytes\": 16}", "stack_bytes");

  CHECK(hermes_runtime_new("{\"io_threads\": 2, \"tool_workers\": 4}", &runtime, NULL) == HERMES_OK);
  CHECK(runtime != NULL);
  CHECK(hermes_runtime_stats_json(runtime, &json, NULL) == HERMES_OK);
  CHECK(json != NULL && strstr(json, "\"io_threads\":2") != NULL);
  CHECK(json != NULL && strstr(json, "\"tool_workers\":4") != NULL);
  CHECK(json != NULL && strstr(json, "\"turns_running\":0") != NULL);
  hermes_free(json);
  json = (char *)1;
  CHECK(hermes_runtime_stats_json(NULL, &json, NULL) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(json == NULL);
  CHECK(hermes_runtime_stats_json(runtime, NULL, NULL) == HERMES_ERR_INVALID_ARGUMENT);
  hermes_runtime_freep(&runtime);
  CHECK(runtime == NULL);
  hermes_runtime_freep(&runtime); /* Harmless through the pointer form. */

  CHECK(hermes_runtime_new(NULL, &runtime, NULL) == HERMES_OK); /* Every default. */
  CHECK(stat_of(runtime, "io_threads") == 1);
  CHECK(stat_of(runtime, "tool_workers") == 16);
  hermes_runtime_free(runtime);
  hermes_runtime_free(NULL);
}

/* Bad arguments are refused at once, and the done callback is never called. */
static void test_refusals(const mock_process_t *mock, hermes_runtime_t *runtime) {
  Turns turns;
  Slot slot;
  hermes_error_t *error = NULL;
  hermes_agent_t *agent = new_agent(mock, "refusals");
  turns_init(&turns);
  slot.turns = &turns;
  slot.index = 0;

  CHECK(hermes_agent_run_turn_async(NULL, runtime, kTurn, record_done, &slot, NULL) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_run_turn_async(agent, NULL, kTurn, record_done, &slot, NULL) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_run_turn_async(agent, runtime, kTurn, NULL, &slot, NULL) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_run_turn_async(agent, runtime, NULL, record_done, &slot, NULL) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_run_turn_async(agent, runtime, "{\"user_message\":", record_done, &slot, &error) ==
        HERMES_ERR_INVALID_ARGUMENT);
  CHECK(strstr(hermes_error_message(error), "turn_json") != NULL);
  hermes_error_free(error);
  error = NULL;
  CHECK(hermes_agent_run_turn_async(agent, runtime, "{\"user_message\":\"hi\",\"colour\":1}", record_done, &slot,
                                    &error) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(strstr(hermes_error_message(error), "colour") != NULL);
  hermes_error_free(error);
  error = NULL;
  CHECK(hermes_agent_run_turn_async(agent, runtime, "{\"user_message\":7}", record_done, &slot, &error) ==
        HERMES_ERR_INVALID_ARGUMENT);
  CHECK(strstr(hermes_error_message(error), "user_message") != NULL);
  hermes_error_free(error);

  sleep_ms(50);
  CHECK(done_count(&turns) == 0);
  CHECK(stat_of(runtime, "turns_started") == 0);
  hermes_agent_free(agent);
  turns_destroy(&turns);
}

/* Eight agents run a tool-calling turn at once on one runtime thread. */
static void test_concurrent_turns(const mock_process_t *mock, hermes_runtime_t *runtime) {
  Turns turns;
  Slot slots[AGENTS];
  hermes_agent_t *agents[AGENTS];
  char key[16];
  int i;
  turns_init(&turns);
  add_calls = 0;
  for (i = 0; i < AGENTS; ++i) {
    snprintf(key, sizeof key, "agent-%d", i);
    agents[i] = new_agent(mock, key);
    slots[i].turns = &turns;
    slots[i].index = i;
  }
  for (i = 0; i < AGENTS; ++i) {
    CHECK(hermes_agent_run_turn_async(agents[i], runtime, kTurn, record_done, &slots[i], NULL) == HERMES_OK);
  }
  CHECK(wait_done(&turns, AGENTS, 60));
  for (i = 0; i < AGENTS; ++i) {
    const char *result = turns.results[i];
    CHECK(turns.calls[i] == 1);
    CHECK(result != NULL && strstr(result, "\"completed\":true") != NULL);
    CHECK(result != NULL && strstr(result, "\"final_response\":\"The sum is 42.\"") != NULL);
    CHECK(result != NULL && strstr(result, "\"api_calls\":2") != NULL);
  }
  CHECK(turns.on_caller_thread == 0);
  CHECK(add_calls == AGENTS);
  CHECK(stat_of(runtime, "turns_started") == AGENTS);
  for (i = 0; i < AGENTS; ++i) hermes_agent_free(agents[i]);
  CHECK(wait_for_idle(runtime));
  turns_destroy(&turns);
}

/* A done callback that starts the agent's next turn, once. */
typedef struct {
  Turns turns;
  Slot slot;
  hermes_agent_t *agent;
  hermes_runtime_t *runtime;
  hermes_status_t second_start;
} Chain;

static void start_next_turn(const char *result_json, void *user_data) {
  Chain *chain = (Chain *)user_data;
  CHECK(strstr(result_json, "\"completed\":true") != NULL);
  chain->second_start = hermes_agent_run_turn_async(chain->agent, chain->runtime, kTurn, record_done,
                                                    &chain->slot, NULL);
}

static void test_done_starts_the_next_turn(const mock_process_t *mock, hermes_runtime_t *runtime) {
  Chain chain;
  turns_init(&chain.turns);
  chain.slot.turns = &chain.turns;
  chain.slot.index = 0;
  chain.agent = new_agent(mock, "chain");
  chain.runtime = runtime;
  chain.second_start = -100;
  CHECK(hermes_agent_run_turn_async(chain.agent, runtime, kTurn, start_next_turn, &chain, NULL) == HERMES_OK);
  CHECK(wait_done(&chain.turns, 1, 60));
  CHECK(chain.second_start == HERMES_OK);
  CHECK(chain.turns.results[0] != NULL && strstr(chain.turns.results[0], "The sum is 42.") != NULL);
  hermes_agent_free(chain.agent);
  turns_destroy(&chain.turns);
}

/* While a turn runs, a second start on the same agent (or a pull stream) is refused without a
 * callback. */
static void test_busy_agent_refused(const mock_process_t *mock, hermes_runtime_t *runtime) {
  Turns turns, refused;
  Slot slot, refused_slot;
  hermes_error_t *error = NULL;
  hermes_stream_t *stream = NULL;
  hermes_agent_t *agent = new_agent(mock, NULL);
  turns_init(&turns);
  turns_init(&refused);
  slot.turns = &turns;
  slot.index = 0;
  refused_slot.turns = &refused;
  refused_slot.index = 0;

  CHECK(hermes_agent_run_turn_async(agent, runtime, kTurn, record_done, &slot, NULL) == HERMES_OK);
  CHECK(hermes_agent_run_turn_async(agent, runtime, kTurn, record_done, &refused_slot, &error) ==
        HERMES_ERR_FAILED_PRECONDITION);
  CHECK(hermes_error_code(error) == HERMES_ERR_FAILED_PRECONDITION);
  hermes_error_free(error);
  error = NULL;
  CHECK(hermes_agent_stream(agent, "Me too.", &stream, &error) == HERMES_ERR_FAILED_PRECONDITION);
  CHECK(stream == NULL);
  hermes_error_free(error);
  CHECK(wait_for_transfer(runtime));
  hermes_agent_interrupt(agent, "enough");
  CHECK(wait_done(&turns, 1, 10));
  CHECK(turns.results[0] != NULL && strstr(turns.results[0], "\"interrupted\":true") != NULL);
  CHECK(done_count(&refused) == 0);
  hermes_agent_free(agent);
  CHECK(done_count(&refused) == 0);
  turns_destroy(&turns);
  turns_destroy(&refused);
}

/* Freeing an agent mid-turn interrupts the turn; done has run when the free returns. */
static void test_free_agent_in_flight(const mock_process_t *mock, hermes_runtime_t *runtime) {
  Turns turns;
  Slot slot;
  hermes_agent_t *agent = new_agent(mock, NULL);
  turns_init(&turns);
  slot.turns = &turns;
  slot.index = 0;
  CHECK(hermes_agent_run_turn_async(agent, runtime, kTurn, record_done, &slot, NULL) == HERMES_OK);
  CHECK(wait_for_transfer(runtime));
  hermes_agent_free(agent);
  CHECK(done_count(&turns) == 1);
  CHECK(turns.results[0] != NULL && strstr(turns.results[0], "\"interrupted\":true") != NULL);
  CHECK(wait_for_idle(runtime));
  turns_destroy(&turns);
}

/* Freeing the runtime mid-turn ends the turn (done runs) before the free returns. */
static void test_free_runtime_in_flight(const mock_process_t *mock) {
  Turns turns;
  Slot slot;
  hermes_runtime_t *runtime = NULL;
  hermes_agent_t *agent = new_agent(mock, NULL);
  turns_init(&turns);
  slot.turns = &turns;
  slot.index = 0;
  CHECK(hermes_runtime_new("{\"tool_workers\": 2}", &runtime, NULL) == HERMES_OK);
  CHECK(hermes_agent_run_turn_async(agent, runtime, kTurn, record_done, &slot, NULL) == HERMES_OK);
  CHECK(wait_for_transfer(runtime));
  hermes_runtime_free(runtime);
  CHECK(done_count(&turns) == 1);
  CHECK(turns.results[0] != NULL && strstr(turns.results[0], "\"interrupted\":true") != NULL);
  hermes_agent_free(agent);
  CHECK(done_count(&turns) == 1);
  turns_destroy(&turns);
}

int main(int argc, char **argv) {
  char home_dir[] = "/tmp/hermes-capi-runtime-XXXXXX";
  char conversation[1024], slow[1024];
  const char *args[] = {"--conversation-script", conversation, "--script", slow, NULL};
  mock_process_t mock;
  hermes_runtime_t *runtime = NULL;
  if (argc < 3) {
    fprintf(stderr, "usage: capi_runtime_test <mock-server> <fixtures-dir> <capi-tests-dir>\n");
    return 2;
  }
  main_thread = pthread_self();
  if (mkdtemp(home_dir) == NULL) return 2;
  home = home_dir;
  snprintf(conversation, sizeof conversation, "%s/scripts/two_step_add.json", argv[2]);
  snprintf(slow, sizeof slow, "%s/slow_model.json", argc > 3 ? argv[3] : ".");

  test_runtime_options();
  if (mock_process_start_args(&mock, argv[1], args) != 0) {
    fprintf(stderr, "could not start the mock server %s\n", argv[1]);
    return 1;
  }
  CHECK(hermes_runtime_new("{\"io_threads\": 1, \"tool_workers\": 4}", &runtime, NULL) == HERMES_OK);
  test_refusals(&mock, runtime);
  test_concurrent_turns(&mock, runtime);
  test_done_starts_the_next_turn(&mock, runtime);
  test_busy_agent_refused(&mock, runtime);
  test_free_agent_in_flight(&mock, runtime);
  hermes_runtime_free(runtime);
  test_free_runtime_in_flight(&mock);
  mock_process_stop(&mock);

  if (failures != 0) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("capi_runtime_test: all checks passed\n");
  return 0;
}
