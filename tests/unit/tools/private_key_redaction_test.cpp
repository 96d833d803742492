// Private keys are masked whole and in pieces: a page that starts or ends inside a key,
// a search hit on one line of a key, a key body without its BEGIN and END lines. Public
// material and ordinary base64 pass through.
#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>

#include "common/base64.hpp"
#include "hermes/redaction.hpp"
#include "safety/private_keys.hpp"
#include "tools/builtin_toolsets.hpp"
#include "unit/tools/fixture_file.hpp"
#include "unit/tools/tool_harness.hpp"

using namespace hermes;
namespace fs = std::filesystem;

namespace {

const char* const kPrivateKeys[] = {"pkcs8_rsa.pem",      "pkcs1_rsa.pem",       "ec.pem",
                                    "ed25519_pkcs8.pem",  "encrypted_pkcs8.pem", "openssh_rsa.key",
                                    "openssh_ed25519.key"};

std::string key_text(const std::string& name) {
  return testing::load_fixture_text("redaction/keys/" + name);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Lines [first, last) as read_file shows them ("N|text"), or as they are.
std::string page(const std::vector<std::string>& lines, std::size_t first, std::size_t last,
                 bool numbered) {
  std::string out;
  for (std::size_t i = first; i < last; ++i)
    out += (numbered ? std::to_string(i + 1) + "|" : "") + lines[i] + "\n";
  return out;
}

std::string redact_read(const std::string& text) {
  RedactionOptions o;
  o.file_read = true;
  return redact_sensitive_text(text, o);
}

bool is_body_line(const std::string& line) {
  return line.size() >= 12 && line.find("-----") == std::string::npos;
}

}  // namespace

TEST_CASE("every kind of private key is masked whole") {
  for (const char* name : kPrivateKeys) {
    CAPTURE(name);
    const std::string key = key_text(name);
    const std::string out = redact_sensitive_text("key:\n" + key + "done\n");
    CHECK(out == "key:\n[REDACTED PRIVATE KEY]\ndone\n");
  }
}

TEST_CASE("any page of two or more lines cut from a key shows none of the key") {
  for (const char* name : kPrivateKeys) {
    const std::vector<std::string> lines = lines_of(key_text(name));
    for (bool numbered : {true, false}) {
      for (std::size_t first = 0; first < lines.size(); ++first) {
        for (std::size_t last = first + 1; last <= lines.size(); ++last) {
          // One line from the middle of a key is indistinguishable from any base64.
          if (last - first < 2 && first != 1) continue;
          const std::string text = page(lines, first, last, numbered);
          const std::string out = redact_read(text);
          CAPTURE(name);
          CAPTURE(text);
          CAPTURE(out);
          for (std::size_t i = first; i < last; ++i) {
            if (is_body_line(lines[i])) CHECK(out.find(lines[i]) == std::string::npos);
          }
        }
      }
    }
  }
}

TEST_CASE("the first line of a key body is recognised on its own") {
  for (const char* name : kPrivateKeys) {
    CAPTURE(name);
    const std::string first_line = lines_of(key_text(name))[1];
    CHECK(redact_sensitive_text(first_line) == "[REDACTED PRIVATE KEY]");
    CHECK(redact_sensitive_text("notes.txt:2:" + first_line) ==
          "notes.txt:2:[REDACTED PRIVATE KEY]");
  }
}

TEST_CASE("a key cut off in a JSON string or encoded as base64 is masked") {
  const std::vector<std::string> lines = lines_of(key_text("pkcs8_rsa.pem"));
  std::string escaped;
  for (std::size_t i = 0; i < 6; ++i) escaped += lines[i] + "\\n";
  const std::string json = "{\"type\": \"service_account\", \"private_key\": \"" + escaped;
  const std::string out = redact_sensitive_text(json);
  CHECK(out == "{\"type\": \"service_account\", \"private_key\": \"[REDACTED PRIVATE KEY]");

  const std::string secret =
      "data:\n  tls.key: " + internal::base64_encode(key_text("ec.pem")) + "\n";
  CHECK(redact_sensitive_text(secret) == "data:\n  tls.key: [REDACTED PRIVATE KEY]\n");
}

TEST_CASE("certificates, public keys, hashes and ordinary base64 pass through") {
  const std::string certificate = key_text("certificate.pem");
  const std::string public_key = key_text("rsa_public.pem");
  CHECK(redact_sensitive_text(certificate) == certificate);
  CHECK(redact_sensitive_text(public_key) == public_key);
  // A page that starts inside a certificate ends with the certificate's END line.
  const std::vector<std::string> cert_lines = lines_of(certificate);
  const std::string cert_page = page(cert_lines, 1, cert_lines.size(), true);
  CHECK(redact_read(cert_page) == cert_page);
  CHECK(redact_sensitive_text(lines_of(public_key)[1]) == lines_of(public_key)[1]);
  CHECK(redact_sensitive_text(internal::base64_encode(certificate)) ==
        internal::base64_encode(certificate));

  const std::string hashes =
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n"
      "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\n";
  CHECK(redact_sensitive_text(hashes) == hashes);
  // Base64 wrapped at 64 columns inside other text is not a page cut from a key.
  std::string blob = internal::base64_encode(std::string(150, 'q') + "payload");
  std::string wrapped = "attachment follows\n";
  for (std::size_t i = 0; i < blob.size(); i += 64) wrapped += blob.substr(i, 64) + "\n";
  wrapped += "end of attachment\n";
  CHECK(redact_sensitive_text(wrapped) == wrapped);
  for (const std::string& text :
       {std::string("MTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0NTY3ODkw"), std::string("Mozilla/5.0 (X11)"),
        std::string("b3JkaW5hcnkgdGV4dCBlbmNvZGVkIGluIGJhc2U2NA=="),
        std::string("LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t")}) {
    CAPTURE(text);
    CHECK(redact_sensitive_text(text) == text);
  }
}

TEST_CASE("search_files hides every line of a key in a project, not just its first") {
  testing::TempDir project;
  const std::string root = fs::canonical(project.path()).string();
  const std::string key = key_text("pkcs1_rsa.pem");
  testing::put_file(root + "/deploy/server.key", key);
  FileToolOptions options;
  options.root = root;
  auto tools = internal::file_tools(options, ApprovalOptions{});
  testing::ToolHarness h;
  const std::vector<std::string> lines = lines_of(key);
  const std::string middle = lines[lines.size() / 2];
  // The middle line itself is the pattern: the hit is found, and not shown.
  Json found = h.call_json(testing::spec_named(tools, "search_files"),
                           {{"pattern", middle.substr(0, 20)}, {"context", 2}});
  REQUIRE(found["matches"].size() == 5);
  for (const Json& m : found["matches"]) CHECK(m["text"] == "[REDACTED PRIVATE KEY]");
  CHECK(found.dump().find(middle.substr(0, 20)) == std::string::npos);
}

TEST_CASE("private_key_lines marks the lines of each key and nothing else") {
  std::vector<std::string> lines = {"# deploy notes", "ssh-keygen output:"};
  for (const std::string& l : lines_of(key_text("openssh_ed25519.key"))) lines.push_back(l);
  lines.push_back("done");
  const std::vector<bool> marked = internal::private_key_lines(lines);
  REQUIRE(marked.size() == lines.size());
  CHECK_FALSE(marked[0]);
  CHECK_FALSE(marked[1]);
  for (std::size_t i = 2; i + 1 < lines.size(); ++i) CHECK(marked[i]);
  CHECK_FALSE(marked.back());
}
