/* The options document from C: every option of tests/fixtures/options/every_option.json
 * applied through hermes_agent_options_set_json and read back unchanged; a bad document
 * refused with the option's name and nothing changed; the typed setters and the document
 * reaching the same fields. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_check.h"
#include "hermes_c.h"

static char* read_file(const char* path) {
  FILE* file = fopen(path, "rb");
  char* text = NULL;
  long size = 0;
  if (file == NULL) return NULL;
  if (fseek(file, 0, SEEK_END) == 0 && (size = ftell(file)) >= 0 && fseek(file, 0, SEEK_SET) == 0) {
    text = malloc((size_t)size + 1);
    if (text != NULL && fread(text, 1, (size_t)size, file) == (size_t)size) {
      text[size] = '\0';
    } else {
      free(text);
      text = NULL;
    }
  }
  fclose(file);
  return text;
}

/* Drops the whitespace outside strings, in place: the fixture then reads as the library
 * writes a document (compact, keys sorted). */
static void compact(char* text) {
  char* out = text;
  int in_string = 0;
  for (const char* p = text; *p != '\0'; ++p) {
    if (in_string) {
      *out++ = *p;
      if (*p == '\\' && p[1] != '\0') {
        *out++ = *++p;
      } else if (*p == '"') {
        in_string = 0;
      }
    } else if (*p == '"') {
      in_string = 1;
      *out++ = *p;
    } else if (*p != ' ' && *p != '\n' && *p != '\t' && *p != '\r') {
      *out++ = *p;
    }
  }
  *out = '\0';
}

static char* options_json(const hermes_agent_options_t* options) {
  char* out = NULL;
  hermes_error_t* error = NULL;
  CHECK(hermes_agent_options_get_json(options, &out, &error) == HERMES_OK);
  CHECK(error == NULL);
  return out;
}

static void every_option_reads_back(const char* fixtures) {
  char path[4096];
  char* document = NULL;
  char* back = NULL;
  hermes_error_t* error = NULL;
  hermes_agent_options_t* options = hermes_agent_options_new();
  snprintf(path, sizeof path, "%s/options/every_option.json", fixtures);
  document = read_file(path);
  CHECK(document != NULL);
  if (document == NULL) return;
  CHECK(hermes_agent_options_set_json(options, document, &error) == HERMES_OK);
  CHECK(error == NULL);
  back = options_json(options);
  compact(document);
  CHECK(back != NULL && strcmp(back, document) == 0);
  if (back != NULL && strcmp(back, document) != 0) fprintf(stderr, "read back: %s\n", back);
  hermes_free(back);
  free(document);
  hermes_agent_options_free(options);
}

static void a_bad_document_changes_nothing(void) {
  hermes_agent_options_t* options = hermes_agent_options_new();
  hermes_error_t* error = NULL;
  char* before = NULL;
  char* after = NULL;
  CHECK(hermes_agent_options_set_model(options, "kept") == HERMES_OK);
  before = options_json(options);
  CHECK(hermes_agent_options_set_json(options, "{\"provider\":{\"model\":\"lost\"},\"compression\":{\"threshold_percent\":2}}",
                                      &error) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(error != NULL && strcmp(hermes_error_message(error), "compression.threshold_percent: must be at most 1") == 0);
  hermes_error_free(error);
  error = NULL;
  CHECK(hermes_agent_options_set_json(options, "{\"model\": ", &error) == HERMES_ERR_INVALID_ARGUMENT);
  hermes_error_free(error);
  error = NULL;
  CHECK(hermes_agent_options_set_json(options, NULL, &error) == HERMES_ERR_INVALID_ARGUMENT);
  hermes_error_free(error);
  error = NULL;
  CHECK(hermes_agent_options_set_json(NULL, "{}", &error) == HERMES_ERR_INVALID_ARGUMENT);
  hermes_error_free(error);
  after = options_json(options);
  CHECK(before != NULL && after != NULL && strcmp(before, after) == 0);
  hermes_free(before);
  hermes_free(after);
  hermes_agent_options_free(options);
}

static void setters_and_document_share_fields(void) {
  hermes_agent_options_t* options = hermes_agent_options_new();
  hermes_error_t* error = NULL;
  char* out = NULL;
  CHECK(hermes_agent_options_set_max_iterations(options, 9) == HERMES_OK);
  out = options_json(options);
  CHECK(out != NULL && strstr(out, "\"max_iterations\":9,") != NULL);
  hermes_free(out);
  CHECK(hermes_agent_options_set_model(options, "set-by-setter") == HERMES_OK);
  out = options_json(options);
  CHECK(out != NULL && strstr(out, "\"model\":\"set-by-setter\"") != NULL);
  hermes_free(out);
  CHECK(hermes_agent_options_set_json(options, "{\"max_iterations\":7}", &error) == HERMES_OK);
  out = options_json(options);
  CHECK(out != NULL && strstr(out, "\"max_iterations\":7,") != NULL);
  hermes_free(out);
  out = NULL;
  CHECK(hermes_agent_options_describe(&out, &error) == HERMES_OK);
  CHECK(out != NULL && strstr(out, "\"name\":\"compression.threshold_percent\"") != NULL);
  hermes_free(out);
  hermes_agent_options_free(options);
}

static void durability_is_full_normal_or_refused(void) {
  hermes_agent_options_t* options = hermes_agent_options_new();
  char* out = options_json(options);
  CHECK(out != NULL && strstr(out, "\"durability\":\"full\"") != NULL);
  hermes_free(out);
  CHECK(hermes_agent_options_set_durability(options, "normal") == HERMES_OK);
  out = options_json(options);
  CHECK(out != NULL && strstr(out, "\"durability\":\"normal\"") != NULL);
  hermes_free(out);
  CHECK(hermes_agent_options_set_durability(options, "eventually") == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(hermes_agent_options_set_durability(options, NULL) == HERMES_OK);
  out = options_json(options);
  CHECK(out != NULL && strstr(out, "\"durability\":\"full\"") != NULL);
  hermes_free(out);
  hermes_agent_options_free(options);
}

static void output_schema_is_set_and_cleared(void) {
  hermes_agent_options_t* options = hermes_agent_options_new();
  hermes_error_t* error = NULL;
  char* out = NULL;
  CHECK(hermes_agent_options_set_output_schema(options, "{\"type\":\"object\"}", "city", &error) == HERMES_OK);
  out = options_json(options);
  CHECK(out != NULL && strstr(out, "\"schema\":{\"type\":\"object\"}") != NULL);
  CHECK(out != NULL && strstr(out, "\"name\":\"city\"") != NULL);
  hermes_free(out);
  CHECK(hermes_agent_options_set_output_schema(options, "{not json", NULL, &error) == HERMES_ERR_INVALID_ARGUMENT);
  CHECK(error != NULL && strstr(hermes_error_message(error), "schema_json") != NULL);
  hermes_error_free(error);
  error = NULL;
  out = options_json(options);  /* The refused call changed nothing. */
  CHECK(out != NULL && strstr(out, "\"name\":\"city\"") != NULL);
  hermes_free(out);
  CHECK(hermes_agent_options_set_output_schema(options, NULL, NULL, &error) == HERMES_OK);
  out = options_json(options);
  CHECK(out != NULL && strstr(out, "\"schema\":null") != NULL);
  CHECK(out != NULL && strstr(out, "\"name\":\"final_answer\"") != NULL);
  hermes_free(out);
  CHECK(hermes_agent_options_set_output_schema(NULL, NULL, NULL, NULL) == HERMES_ERR_INVALID_ARGUMENT);
  hermes_agent_options_free(options);
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: capi_options_test FIXTURES_DIR\n");
    return 2;
  }
  every_option_reads_back(argv[1]);
  a_bad_document_changes_nothing();
  setters_and_document_share_fields();
  durability_is_full_normal_or_refused();
  output_schema_is_set_and_cleared();
  if (failures != 0) fprintf(stderr, "%d check(s) failed\n", failures);
  return failures == 0 ? 0 : 1;
}
