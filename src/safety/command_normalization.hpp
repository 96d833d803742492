// Normalisation of a shell command before the guards match it: the command that runs is
// never changed, but the copy the patterns see has every spelling trick folded away
// (escape codes, NUL bytes, fullwidth letters, `r\m`, `r''m`, `$'\x72\x6d'`, `${IFS}`,
// line continuations, absolute home paths).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hermes::internal {

// An absolute directory whose spelling in a command is rewritten to `replacement`
// ("/home/alice/.bashrc" -> "~/.bashrc") so one rule covers both forms.
struct HomeFold {
  std::string path;
  std::string replacement;
};

// The folds for the current user's home ($HOME) and the hermes home `hermes_home`, the
// hermes home first (it usually sits inside the user's home).
std::vector<HomeFold> default_home_folds(const std::string& hermes_home);

// The compatibility characters NFKC would fold that matter for shell text: fullwidth ASCII
// (U+FF01..U+FF5E), the ideographic space and the other Unicode spaces, and ligatures
// such as U+FB01. (A subset of NFKC; hermes carries no Unicode tables.)
std::string fold_compatibility_characters(std::string_view text);

// The first half of normalisation, which keeps the shell's quoting intact for the parser:
// escape codes, NUL bytes and compatibility characters folded, line continuations joined,
// absolute home paths folded to ~ and ~/.hermes.
std::string prepare_command_for_parsing(std::string_view command,
                                        const std::vector<HomeFold>& folds);

// `command` with every $'...' string (outside other quotes) replaced by its decoded text,
// bare when it is a plain word and single-quoted otherwise: `$'\x72\x6d'` -> `rm`.
std::string decode_ansi_c_strings(std::string_view command);

// The detection copy of `command` (see the file comment).
std::string normalize_command_for_detection(std::string_view command,
                                            const std::vector<HomeFold>& folds);

// `command` lower-cased, except words starting with '-' (so `-D` and `-d` stay distinct).
std::string lower_preserving_flags(std::string_view command);

}  // namespace hermes::internal
