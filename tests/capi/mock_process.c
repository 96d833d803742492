#define _POSIX_C_SOURCE 200809L
#include "mock_process.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int mock_process_start(mock_process_t *mock, const char *server_path, const char *script_path) {
  const char *args[] = {"--script", NULL, NULL};
  args[1] = script_path;
  return mock_process_start_args(mock, server_path, args);
}

int mock_process_start_args(mock_process_t *mock, const char *server_path, const char *const *args) {
  int fds[2];
  FILE *out;
  char line[128];
  char *argv[11];
  size_t n = 0;
  memset(mock, 0, sizeof *mock);
  argv[n++] = (char *)server_path;
  argv[n++] = (char *)"--quiet";
  while (args != NULL && *args != NULL && n < 10) argv[n++] = (char *)*args++;
  argv[n] = NULL;
  if (pipe(fds) != 0) return -1;
  mock->pid = fork();
  if (mock->pid < 0) return -1;
  if (mock->pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    execv(server_path, argv);
    _exit(127);
  }
  close(fds[1]);
  out = fdopen(fds[0], "r");
  if (out == NULL) return -1;
  while (fgets(line, sizeof line, out) != NULL) {
    if (strncmp(line, "PORT=", 5) == 0) {
      mock->port = atoi(line + 5);
      break;
    }
  }
  fclose(out);
  if (mock->port <= 0) {
    mock_process_stop(mock);
    return -1;
  }
  snprintf(mock->base_url, sizeof mock->base_url, "http://127.0.0.1:%d/v1", mock->port);
  return 0;
}

void mock_process_stop(mock_process_t *mock) {
  if (mock->pid > 0) {
    kill(mock->pid, SIGTERM);
    waitpid(mock->pid, NULL, 0);
    mock->pid = 0;
  }
}
