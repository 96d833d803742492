/* MCP servers through the C ABI: a configuration document in, tools in the registry, a
 * status report out; bad documents refused naming the key. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_check.h"
#include "hermes_c.h"

static void test_a_stdio_server_registers_its_tools(const char *fixtures) {
  char config[2048];
  hermes_tool_registry_t *tools = hermes_tool_registry_new();
  hermes_mcp_servers_t *servers = NULL;
  hermes_error_t *error = NULL;
  char *status = NULL;
  snprintf(config, sizeof config,
           "{\"mcpServers\": {\"fake\": {\"command\": \"python3\", \"args\": [\"%s/mcp/fake_server.py\"]}}}",
           fixtures);
  CHECK(hermes_mcp_servers_connect(config, tools, &servers, &error) == HERMES_OK);
  CHECK(error == NULL);
  CHECK(servers != NULL);
  CHECK(hermes_mcp_servers_status(servers, &status, NULL) == HERMES_OK);
  CHECK(status != NULL && strstr(status, "\"connected\":true") != NULL);
  CHECK(status != NULL && strstr(status, "\"mcp_fake_echo\"") != NULL);
  hermes_free(status);
  hermes_mcp_servers_freep(&servers);
  CHECK(servers == NULL);
  hermes_tool_registry_free(tools);
}

static void test_bad_documents_are_refused(void) {
  hermes_tool_registry_t *tools = hermes_tool_registry_new();
  hermes_mcp_servers_t *servers = NULL;
  hermes_error_t *error = NULL;
  char *status = NULL;
  CHECK(hermes_mcp_servers_connect("{\"mcpServers\": {\"a\": {\"command\": 7}}}", tools, &servers,
                                   &error) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(servers == NULL);
  CHECK(error != NULL && strstr(hermes_error_message(error), "mcpServers.a.command") != NULL);
  hermes_error_free(error);
  CHECK(hermes_mcp_servers_connect(NULL, tools, &servers, NULL) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_mcp_servers_connect("{}", NULL, &servers, NULL) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_mcp_servers_status(NULL, &status, NULL) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(status == NULL);
  hermes_mcp_servers_free(NULL);
  hermes_tool_registry_free(tools);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: capi_mcp_test <fixtures-dir>\n");
    return 2;
  }
  test_a_stdio_server_registers_its_tools(argv[1]);
  test_bad_documents_are_refused();
  if (failures != 0) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("capi_mcp_test: all checks passed\n");
  return 0;
}
