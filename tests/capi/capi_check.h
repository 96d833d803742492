/* The C test programs' assertion: a failed check is printed with its place and counted,
 * and the program goes on; main returns non-zero when `failures` is not zero. */
#ifndef HERMES_TESTS_CAPI_CHECK_H
#define HERMES_TESTS_CAPI_CHECK_H

#include <stdio.h>

static int failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

#endif
