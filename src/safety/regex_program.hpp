// The compiled form of a Regex: a Thompson-NFA program shared by the compiler and the VM.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/utf8.hpp"

namespace hermes::internal {

// The start of the code point that ends right before `pos` (pos > 0).
std::size_t previous_utf8_start(std::string_view text, std::size_t pos);

// Python's notion of word and space characters, approximated without Unicode tables:
// every non-ASCII code point outside the punctuation and space blocks counts as a letter.
bool regex_is_word(char32_t cp);
bool regex_is_space(char32_t cp);
bool regex_is_digit(char32_t cp);

enum class BuiltinSet : uint8_t { kDigit, kWord, kSpace };

struct CharClass {
  std::vector<std::pair<char32_t, char32_t>> ranges;
  std::vector<std::pair<BuiltinSet, bool>> sets;  // (set, negated)
  bool negated = false;

  bool contains(char32_t cp) const;
};

enum class Op : uint8_t {
  kChar,     // Consume arg (a code point).
  kClass,    // Consume a code point in classes[arg].
  kAny,      // Consume any code point.
  kAnyNoNl,  // Consume any code point but '\n'.
  kSplit,    // Continue at x (preferred) and y.
  kJmp,      // Continue at x.
  kSave,     // Record the position in capture slot arg.
  kAssert,   // Zero-width check of kind arg.
  kLook,     // Zero-width look-around looks[arg].
  kMatch,
};

enum class AssertKind : uint32_t {
  kLineStart,         // ^ with multiline
  kLineEnd,           // $ with multiline
  kTextStart,         // ^ / \A
  kTextEndOrFinalNl,  // $ without multiline
  kTextEnd,           // \Z
  kWordBoundary,
  kNotWordBoundary,
};

struct Inst {
  Op op = Op::kMatch;
  uint32_t arg = 0;
  uint32_t x = 0;
  uint32_t y = 0;
};

struct RegexProgram;

struct LookAround {
  bool ahead = true;
  bool negated = false;
  std::shared_ptr<const RegexProgram> body;
  std::vector<int> widths;  // Look-behind: the possible widths in code points.
  // The body only consumes characters, one instruction each, then matches: checked
  // directly instead of by a nested VM (the common [^\w] boundary case).
  bool straight_line = false;
  // The most characters the body can match; unset when unbounded (`(?=.*x)`), which is
  // what makes a search with it quadratic.
  std::optional<int> max_width;
};

struct RegexProgram {
  std::vector<Inst> insts;
  std::vector<CharClass> classes;
  std::vector<LookAround> looks;
  uint32_t start = 0;
  int groups = 0;  // Capturing groups, not counting group 0.
  // The most work a search can do per character of text, its bounded look-arounds
  // included; unbounded look-arounds are the only cost beyond (text + 1) times this.
  std::uint64_t steps_per_char = 0;
  // Which ASCII characters, and pairs of them, a match can start with. When known (a
  // match is never empty), the search skips ASCII text that cannot start one.
  bool has_start_filter = false;
  std::array<bool, 128> first_bytes{};
  std::vector<bool> first_pairs;  // 128 x 128, [first * 128 + second].
  std::map<std::string, int, std::less<>> names;
};

}  // namespace hermes::internal
