/* Starts the loopback mock model server as a child process, for C tests. */
#ifndef HERMES_TEST_MOCK_PROCESS_H
#define HERMES_TEST_MOCK_PROCESS_H

#include <sys/types.h>

typedef struct {
  pid_t pid;
  int port;
  char base_url[64]; /* "http://127.0.0.1:<port>/v1" */
} mock_process_t;

/* Runs `server_path --script script_path` and waits for its PORT= line. 0 on success. */
int mock_process_start(mock_process_t *mock, const char *server_path, const char *script_path);
/* The same with the server's arguments after --quiet: `args` is a NULL-terminated list of
 * at most 8, e.g. {"--conversation-script", path, NULL}. */
int mock_process_start_args(mock_process_t *mock, const char *server_path, const char *const *args);
void mock_process_stop(mock_process_t *mock);

#endif
