// A small regular-expression engine with Python `re` syntax and linear-time matching.
//
// Why not std::regex: libstdc++'s implementation recurses once per repeated character and
// overflows the stack on long inputs (a 100 KB minified line, a 1 MB command output), and
// it lacks look-behind. The guards, the redactor and search_files all run patterns over
// text a model or a command produced, so the engine must never crash and never take
// exponential time. This one compiles to a Thompson NFA and simulates it (Pike VM):
// time is O(text × pattern), captures follow Python's leftmost-first rules.
//
// Bounded: a look-around whose body is unbounded (`(?=.*x)`) is evaluated anew at every
// position it is tried at, which makes a search quadratic in the text, so every search
// runs on a work budget (see kRegexWorkBudget). Compiling is bounded too: nesting beyond
// kRegexMaxNesting and programs beyond a fixed size are compile errors, never a deep
// recursion or an allocation the size of the pattern's expansion.
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
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hermes/status.hpp"

namespace hermes::internal {

// Groups, look-arounds and quantifiers applied to one another may nest this deep; a
// deeper pattern is a compile error. The parser and the compiler recurse once per level
// (a few hundred bytes of stack each); real patterns rarely pass ten.
inline constexpr int kRegexMaxNesting = 100;

// Searches are measured in steps: one step is one NFA thread reaching one position, and a
// look-around costs the steps of its own search plus its program's size to set up. A
// pattern whose look-arounds are all bounded needs at most (text + 1) times a cost per
// character fixed when it is compiled; an unbounded look-around re-reads the rest of the
// text at every position it is tried at, which is quadratic.
//
// kRegexWorkBudget is the allowance for that: what a search of hermes' own patterns may
// spend beyond their linear cost, and all that a search with a model's pattern may spend
// (try_search's default). About half a second of matching in an optimised build.
inline constexpr std::uint64_t kRegexWorkBudget = 20'000'000;

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

  // The searches with their budget made visible: a search that would take more than
  // `budget` steps stops there and returns ResourceExhausted, whose message names the
  // budget. Patterns a model wrote go through these.
  Result<bool> try_search(std::string_view text, std::uint64_t budget = kRegexWorkBudget) const;
  Result<std::optional<Match>> try_find(std::string_view text, std::size_t from = 0,
                                        std::uint64_t budget = kRegexWorkBudget) const;

  // The searches for hermes' own patterns, each on its linear cost over the text plus
  // kRegexWorkBudget: one whose look-arounds are all bounded never runs out. One that
  // does is logged and gives the answer that is safe for a guard: search() says the
  // pattern matches (a dangerous-command rule that cannot be ruled out asks for
  // approval), the others find nothing, and replace() leaves the rest of the text as it is.
  //
  // Whether the pattern matches anywhere in `text`.
  bool search(std::string_view text) const;
  // The leftmost match starting at or after `from`.
  std::optional<Match> find(std::string_view text, std::size_t from = 0) const;
  // A match that starts exactly at `pos`.
  std::optional<Match> match_at(std::string_view text, std::size_t pos) const;
  // Whether the whole of `text` matches.
  bool full_match(std::string_view text) const;

  // `text` with every non-overlapping match replaced by what `render` returns. Each match
  // is looked for on the budget of the text left.
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
