// A small regular-expression engine with Python `re` syntax and linear-time matching.
//
// Why not std::regex: libstdc++'s implementation recurses once per repeated character and
// overflows the stack on long inputs (a 100 KB minified line, a 1 MB command output), and
// it lacks look-behind. The guards, the redactor and search_files all run patterns over
// text a model or a command produced, so the engine must never crash and never take
// exponential time. This one compiles to a Thompson NFA and simulates it (Pike VM):
// time is O(text × pattern), captures follow Python's leftmost-first rules.
//
// Supported: literals, escapes (\d \w \s \D \W \S \b \B \A \Z \n \t \r \f \v \xHH \uHHHH),
// classes, `.`, `^`, `$`, groups (capturing, `(?:)`, `(?P<name>)`), alternation, greedy
// and lazy quantifiers including {m,n}, look-ahead, fixed-width look-behind, and the
// flags i, m, s (as options, as a leading `(?ims)`, or scoped `(?i:...)`, `(?-i:...)`).
// Possessive quantifiers and atomic groups are accepted and behave as greedy ones.
// Not supported: backreferences. Case folding is ASCII-only. Text is UTF-8; invalid bytes
// match only `.`, negated classes and \S / \W.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/status.hpp"

namespace hermes::internal {

struct RegexOptions {
  bool ignore_case = false;
  bool multiline = false;  // ^ and $ match at line boundaries.
  bool dotall = false;     // . matches a newline.
};

struct RegexProgram;

// A compiled pattern. Cheap to copy (the program is shared and immutable); safe to use
// from many threads at once.
class Regex {
 public:
  // One match: byte offsets into the searched text. Group 0 is the whole match.
  struct Match {
    std::vector<std::ptrdiff_t> offsets;  // Begin/end pairs; -1 for a group that did not take part.

    std::size_t begin() const { return static_cast<std::size_t>(offsets[0]); }
    std::size_t end() const { return static_cast<std::size_t>(offsets[1]); }
    bool has(int group) const { return offsets[2 * group] >= 0; }
    std::string_view group(std::string_view text, int group) const;
  };

  // Compiles `pattern`. InvalidArgument names the problem and its position.
  static Result<Regex> compile(std::string_view pattern, RegexOptions options = {});
  // Compiles a pattern written into hermes itself; a failure is a bug and aborts.
  static Regex builtin(std::string_view pattern, RegexOptions options = {});

  // Whether the pattern matches anywhere in `text`.
  bool search(std::string_view text) const;
  // The leftmost match starting at or after `from`.
  std::optional<Match> find(std::string_view text, std::size_t from = 0) const;
  // A match that starts exactly at `pos`.
  std::optional<Match> match_at(std::string_view text, std::size_t pos) const;
  // Whether the whole of `text` matches.
  bool full_match(std::string_view text) const;

  // `text` with every non-overlapping match replaced by what `render` returns.
  std::string replace(std::string_view text,
                      const std::function<std::string(const Match&)>& render) const;

  int group_count() const;
  // The index of the group named `name`, or -1.
  int group_index(std::string_view name) const;

 private:
  explicit Regex(std::shared_ptr<const RegexProgram> program) : program_(std::move(program)) {}
  std::shared_ptr<const RegexProgram> program_;
};

}  // namespace hermes::internal
