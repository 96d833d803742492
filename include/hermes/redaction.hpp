// hermes/redaction.hpp — masking secrets in text that leaves hermes's control.
//
// hermes runs one redactor over what tools hand to the model (terminal output, file
// contents, search matches). It recognises vendor-prefixed credentials (sk-, ghp_, AKIA,
// xoxb-, ...), secret-named assignments in env, config, JSON, YAML and Python-repr syntax,
// Authorization and API-key headers, Telegram bot tokens, private keys (PEM and OpenSSH,
// also a piece of one: a page or search hit without the BEGIN or END line, a key body
// that starts like one), passwords in database URLs, bare tokens in URL userinfo, JWTs
// and phone numbers.
//
// A matched value becomes `***` when shorter than 18 characters, else its first 6 and last
// 4 characters around "...". File contents use a non-reusable sentinel instead
// («redacted:ghp_…»), so an agent cannot write a truncated key back into a config file.
//
// Redaction is on unless HERMES_REDACT_SECRETS is set to something other than 1/true/
// yes/on when hermes first redacts; the switch is read once, so a command run by the model
// cannot turn it off.
#pragma once

#include <string>
#include <string_view>

#include "hermes/export.hpp"

namespace hermes {

struct RedactionOptions {
  // Redact even when redaction is switched off (safety boundaries).
  bool force = false;
  // The text is source code: skip the key-based assignment passes, so fixtures such as
  // MAX_TOKENS=100 or "apiKey": "test" stay intact.
  bool code_file = false;
  // The text is file content returned to the agent: prefix-matched credentials get the
  // non-reusable sentinel. Implies code_file unless secret_file is set.
  bool file_read = false;
  // The source is known to hold secrets (.env, shell rc files, the hermes config):
  // re-enables the assignment passes; wins over code_file.
  bool secret_file = false;
  // Also mask credential-named URL query parameters and all URL userinfo. Off by
  // default: OAuth callbacks and pre-signed links must survive tool flows unchanged.
  bool redact_url_credentials = false;
};

// `text` with secrets masked. Never throws; any text is valid input. Thread-safe.
HERMES_API std::string redact_sensitive_text(std::string_view text,
                                             const RedactionOptions& options = {});

}  // namespace hermes
