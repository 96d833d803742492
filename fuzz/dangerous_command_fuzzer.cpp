// The shell command guards: normalisation for detection, then the dangerous table and
// the hardline floor, on arbitrary command text.
//
// Invariants: nothing throws or runs away (the guards use hermes's own regex engine, so
// a pattern that backtracks without bound shows up as a libFuzzer timeout); a finding
// carries a description and a non-finding none; normalising and folding valid UTF-8
// gives valid UTF-8 (the patterns, and the approval prompt, see that copy); and the
// verdict is a function of the text (asking twice gives the same answer).
#include <string>

#include "common/utf8.hpp"
#include "fuzz/fuzz_support.hpp"
#include "hermes/safety.hpp"
#include "safety/command_normalization.hpp"

namespace {

using hermes::fuzz::require;
using hermes::internal::is_valid_utf8;

void check_finding(const hermes::CommandFinding& finding, const char* guard) {
  require(finding.found == !finding.description.empty(), guard,
          "a finding without a description, or a description without a finding");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view command = hermes::fuzz::as_text(data, size);
  hermes::fuzz::no_throw("command guards", [&] {
    static const auto folds = hermes::internal::default_home_folds("/home/fuzz/.hermes");
    const std::string normalized =
        hermes::internal::normalize_command_for_detection(command, folds);
    const std::string folded = hermes::internal::fold_compatibility_characters(command);
    (void)hermes::internal::lower_preserving_flags(normalized);
    if (is_valid_utf8(command)) {
      require(is_valid_utf8(folded), "folding broke UTF-8", folded);
      require(is_valid_utf8(normalized), "normalising broke UTF-8", normalized);
    }

    const hermes::CommandFinding dangerous = hermes::detect_dangerous_command(command);
    const hermes::CommandFinding hardline = hermes::detect_hardline_command(command);
    check_finding(dangerous, "detect_dangerous_command");
    check_finding(hardline, "detect_hardline_command");
    require(hermes::detect_dangerous_command(command).description == dangerous.description,
            "the dangerous verdict changed between two calls");
  });
  return 0;
}
