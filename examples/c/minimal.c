/* hermes from C: one tool, one question.
 *
 *   OPENAI_API_KEY=sk-... ./minimal_c "What is 2 + 40?"
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hermes_c.h"

/* The tool: reads {"a": n, "b": m} and answers {"sum": n + m}. A real program would use
 * a JSON library; this sketch scans the two numbers. */
static hermes_status_t add_tool(hermes_tool_call_t *call, void *user_data) {
  const char *args = hermes_tool_call_arguments(call);
  const char *a = strstr(args, "\"a\"");
  const char *b = strstr(args, "\"b\"");
  char result[64];
  (void)user_data;
  if (a == NULL || b == NULL) {
    hermes_tool_call_set_error(call, "arguments a and b are required");
    return HERMES_ERR_INVALID_ARGUMENT;
  }
  snprintf(result, sizeof result, "{\"sum\": %g}",
           strtod(strchr(a, ':') + 1, NULL) + strtod(strchr(b, ':') + 1, NULL));
  return hermes_tool_call_set_result(call, result);
}

int main(int argc, char **argv) {
  hermes_error_t *error = NULL;
  hermes_agent_t *agent = NULL;
  hermes_agent_options_t *options = NULL;
  hermes_tool_registry_t *tools = NULL;
  char *answer = NULL;
  const char *env;
  int exit_code = 1;

  if (!hermes_abi_compatible(HERMES_ABI_VERSION)) {
    fprintf(stderr, "libhermes_agent_c %s does not match this header\n", hermes_version());
    return 2;
  }

  tools = hermes_tool_registry_new();
  if (hermes_tool_registry_add(tools, "add", NULL, "Add two numbers.",
                               "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"number\"},"
                               "\"b\":{\"type\":\"number\"}},\"required\":[\"a\",\"b\"]}",
                               HERMES_TOOL_PARALLEL_SAFE, add_tool, NULL, NULL, &error) != HERMES_OK) {
    goto done;
  }

  options = hermes_agent_options_new();
  env = getenv("HERMES_MODEL");
  hermes_agent_options_set_model(options, env ? env : "gpt-4.1-mini");
  if ((env = getenv("OPENAI_BASE_URL")) != NULL) hermes_agent_options_set_base_url(options, env);
  if ((env = getenv("OPENAI_API_KEY")) != NULL) hermes_agent_options_set_api_key(options, env);
  hermes_agent_options_set_persist_sessions(options, 0);
  hermes_agent_options_set_tools(options, tools);

  if (hermes_agent_new(options, &agent, &error) != HERMES_OK) goto done;
  if (hermes_agent_chat(agent, argc > 1 ? argv[1] : "What is 2 + 40? Use the add tool.", &answer,
                        &error) != HERMES_OK) {
    goto done;
  }
  printf("%s\n", answer);
  exit_code = 0;

done:
  if (error != NULL) {
    fprintf(stderr, "error %s: %s\n", hermes_status_name(hermes_error_code(error)),
            hermes_error_message(error));
  }
  hermes_free(answer);
  hermes_error_free(error);
  hermes_agent_free(agent);
  hermes_agent_options_free(options);
  hermes_tool_registry_free(tools);
  return exit_code;
}
