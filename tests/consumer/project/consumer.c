/* A C99 program on hermes's C ABI: the header compiles as strict C99, the library links
 * and runs, and bad options come back as an error object naming the field. */
#include <stdio.h>
#include <string.h>

#include "hermes_c.h"

static int failures = 0;

static void check(int ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "consumer_c: FAILED: %s\n", what);
    ++failures;
  }
}

int main(void) {
  hermes_agent_options_t *options = hermes_agent_options_new();
  hermes_agent_t *agent = NULL;
  hermes_error_t *error = NULL;
  char header_version[32];

  snprintf(header_version, sizeof header_version, "%d.%d.%d", HERMES_C_VERSION_MAJOR,
           HERMES_C_VERSION_MINOR, HERMES_C_VERSION_PATCH);
  check(hermes_abi_compatible(HERMES_ABI_VERSION), "the library speaks this header's ABI");
  check(strcmp(hermes_version(), header_version) == 0, "the library is the version of the header");

  hermes_agent_options_set_persist_sessions(options, 0);
  check(hermes_agent_new(options, &agent, &error) == HERMES_ERR_INVALID_ARGUMENT,
        "an agent without a model is refused");
  check(agent == NULL, "and none is returned");
  check(strstr(hermes_error_message(error), "model") != NULL, "naming the model field");

  hermes_error_free(error);
  hermes_agent_options_freep(&options);
  if (failures == 0) puts("consumer_c: ok");
  return failures == 0 ? 0 : 1;
}
