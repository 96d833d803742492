// SKILL.md frontmatter: a YAML mapping between two `---` lines at the top of the file.
//
// The parser covers the YAML that skills use: nested block mappings and sequences
// (including `- key: value` items), flow sequences and mappings ([a, b], {k: v}), plain,
// single- and double-quoted scalars, folded continuation lines, `|` and `>` block
// scalars, comments. Scalars resolve like PyYAML's safe loader: null/~, booleans
// (true/false/yes/no/on/off), integers and floats; everything else is a string.
// Anchors, aliases, tags and multi-document streams are not supported (an error).
#pragma once

#include <string>
#include <string_view>

#include "hermes/json.hpp"
#include "hermes/status.hpp"

namespace hermes::internal {

// Parses a YAML document of the subset above. InvalidArgument names the line.
Result<Json> parse_yaml_subset(std::string_view text);

struct SkillDocument {
  Json frontmatter;  // Always an object.
  std::string body;  // Everything after the closing `---` line.
};

// Splits a SKILL.md into frontmatter and body. The file must start with `---` (a UTF-8
// BOM before it is tolerated) and the frontmatter must be a mapping closed by a line that
// is exactly `---`.
Result<SkillDocument> parse_skill_document(std::string_view text);

}  // namespace hermes::internal
