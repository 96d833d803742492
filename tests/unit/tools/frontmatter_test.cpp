// The YAML subset of SKILL.md frontmatter.
#include "skills/frontmatter.hpp"

#include <doctest/doctest.h>

using namespace hermes;
using hermes::internal::parse_skill_document;
using hermes::internal::parse_yaml_subset;

namespace {

Json yaml(std::string_view text) {
  auto r = parse_yaml_subset(text);
  REQUIRE_MESSAGE(r.ok(), r.status().message());
  return *r;
}

}  // namespace

TEST_CASE("scalars resolve like PyYAML's safe loader") {
  Json j = yaml(
      "a: 1\nb: 2.5\nc: yes\nd: off\ne: ~\nf: 1.0.0\ng: 'it''s'\nh: \"tab\\there\"\ni: plain text "
      "# comment\n");
  CHECK(j["a"] == 1);
  CHECK(j["b"] == 2.5);
  CHECK(j["c"] == true);
  CHECK(j["d"] == false);
  CHECK(j["e"].is_null());
  CHECK(j["f"] == "1.0.0");
  CHECK(j["g"] == "it's");
  CHECK(j["h"] == "tab\there");
  CHECK(j["i"] == "plain text");
}

TEST_CASE("nested mappings, block sequences and flow collections") {
  Json j = yaml(
      "platforms: [macos, linux]\n"
      "prerequisites:\n"
      "  commands: [curl, \"jq\"]\n"
      "required_environment_variables:\n"
      "  - name: MY_API_KEY\n"
      "    prompt: \"Enter your key\"\n"
      "    optional: false\n"
      "  - name: OTHER\n"
      "metadata:\n"
      "  hermes:\n"
      "    tags: [A, B]\n"
      "    config:\n"
      "      - {key: my.setting, default: 3}\n"
      "list:\n"
      "- one\n"
      "- two\n");
  CHECK(j["platforms"] == Json{"macos", "linux"});
  CHECK(j["prerequisites"]["commands"] == Json{"curl", "jq"});
  REQUIRE(j["required_environment_variables"].size() == 2);
  CHECK(j["required_environment_variables"][0] ==
        Json{{"name", "MY_API_KEY"}, {"prompt", "Enter your key"}, {"optional", false}});
  CHECK(j["metadata"]["hermes"]["tags"] == Json{"A", "B"});
  CHECK(j["metadata"]["hermes"]["config"][0]["default"] == 3);
  CHECK(j["list"] == Json{"one", "two"});
}

TEST_CASE("folded continuation lines and block scalars") {
  Json j = yaml(
      "description: a long line\n  that continues\nbody: |\n  line one\n  line two\nfolded: >-\n  "
      "a\n  b\n");
  CHECK(j["description"] == "a long line that continues");
  CHECK(j["body"] == "line one\nline two\n");
  CHECK(j["folded"] == "a b");
}

TEST_CASE("broken YAML is an error naming the line") {
  for (const char* bad : {"a: [1, 2\n", "a: 'open\n", "a:\n\tb: 1\n", "a: 1\n  b: 2\n",
                          "a: &anchor x\n", "just: ok\nno colon here\n"}) {
    auto r = parse_yaml_subset(bad);
    CHECK_MESSAGE(!r.ok(), bad);
    if (!r.ok()) CHECK(r.status().message().rfind("line ", 0) == 0);
  }
}

TEST_CASE("a SKILL.md splits into frontmatter and body") {
  auto doc = parse_skill_document(
      "\xEF\xBB\xBF---\nname: demo\ndescription: Does things\n---\n# Demo\nSteps.\n");
  REQUIRE(doc.ok());
  CHECK(doc->frontmatter["name"] == "demo");
  CHECK(doc->body == "# Demo\nSteps.\n");
}

TEST_CASE("a SKILL.md without proper frontmatter is rejected with a reason") {
  CHECK(parse_skill_document("# no frontmatter\n").status().message() ==
        "SKILL.md must start with YAML frontmatter (---)");
  CHECK(parse_skill_document("---\nname: x\n").status().message() ==
        "SKILL.md frontmatter is not closed with ---");
  CHECK(parse_skill_document("---\n- a\n- b\n---\nbody").status().message() ==
        "Frontmatter must be a YAML mapping");
  CHECK(parse_skill_document("---\nname: [x\n---\nbody")
            .status()
            .message()
            .rfind("YAML frontmatter parse error", 0) == 0);
}
