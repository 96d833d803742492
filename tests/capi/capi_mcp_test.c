/* MCP servers through the C ABI: a configuration document in, tools in the registry, a
 * status report out; bad documents refused naming the key; a server behind OAuth
 * authorized through the callback. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

static int authorizations = 0;
static int destroyed = 0;

/* The user consents: the fake server takes the bare code "good-code". */
static void approve(const char *request_json, hermes_answer_t *answer, void *user_data) {
  (void)user_data;
  ++authorizations;
  CHECK(strstr(request_json, "\"server\":\"guarded\"") != NULL);
  CHECK(strstr(request_json, "code_challenge_method=S256") != NULL);
  hermes_answer_set(answer, "good-code");
}

static void refuse(const char *request_json, hermes_answer_t *answer, void *user_data) {
  (void)request_json;
  (void)answer;
  (void)user_data;
}

static void count_destroy(void *user_data) {
  (void)user_data;
  ++destroyed;
}

/* Starts tests/fixtures/mcp/fake_oauth_server.py; it exits when the returned pipe closes. */
static FILE *start_oauth_server(const char *fixtures, int *port) {
  char port_file[64], command[1024];
  FILE *server;
  int i;
  snprintf(port_file, sizeof port_file, "/tmp/hermes-capi-oauth-%ld", (long)getpid());
  remove(port_file);
  snprintf(command, sizeof command,
           "python3 %s/mcp/fake_oauth_server.py --port-file %s --exit-on-eof >/dev/null", fixtures,
           port_file);
  server = popen(command, "w");
  *port = 0;
  for (i = 0; server != NULL && i < 200 && *port == 0; ++i) {
    FILE *f = fopen(port_file, "r");
    if (f != NULL) {
      if (fscanf(f, "%d", port) != 1) *port = 0;
      fclose(f);
    } else {
      struct timespec pause = {0, 50 * 1000 * 1000};
      nanosleep(&pause, NULL);
    }
  }
  remove(port_file);
  return server;
}

static void connect_guarded(int port, hermes_mcp_authorize_fn authorize, char **status) {
  char config[1024];
  hermes_tool_registry_t *tools = hermes_tool_registry_new();
  hermes_mcp_servers_t *servers = NULL;
  snprintf(config, sizeof config,
           "{\"mcpServers\": {\"guarded\": {\"url\": \"http://127.0.0.1:%d/mcp\", "
           "\"max_restarts\": 0, \"oauth\": {\"persist_tokens\": false}}}}",
           port);
  CHECK(hermes_mcp_servers_connect_authorized(config, tools, authorize, NULL, count_destroy,
                                              &servers, NULL) == HERMES_OK);
  CHECK(hermes_mcp_servers_status(servers, status, NULL) == HERMES_OK);
  hermes_mcp_servers_free(servers);
  hermes_tool_registry_free(tools);
}

static void test_a_server_behind_oauth_is_authorized_through_the_callback(const char *fixtures) {
  int port = 0;
  char *status = NULL;
  FILE *server = start_oauth_server(fixtures, &port);
  CHECK(server != NULL && port != 0);
  if (server == NULL || port == 0) return;

  connect_guarded(port, approve, &status);
  CHECK(authorizations == 1);
  CHECK(destroyed == 1);
  CHECK(status != NULL && strstr(status, "\"connected\":true") != NULL);
  CHECK(status != NULL && strstr(status, "\"mcp_guarded_whoami\"") != NULL);
  hermes_free(status);

  status = NULL;
  connect_guarded(port, refuse, &status);
  CHECK(destroyed == 2);
  CHECK(status != NULL && strstr(status, "\"connected\":false") != NULL);
  CHECK(status != NULL && strstr(status, "the authorization was refused") != NULL);
  hermes_free(status);
  pclose(server);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: capi_mcp_test <fixtures-dir>\n");
    return 2;
  }
  test_a_stdio_server_registers_its_tools(argv[1]);
  test_bad_documents_are_refused();
  test_a_server_behind_oauth_is_authorized_through_the_callback(argv[1]);
  if (failures != 0) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("capi_mcp_test: all checks passed\n");
  return 0;
}
