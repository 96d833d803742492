// hermes' regex engine on the patterns a model writes for search_files: the first line of
// the input is the pattern, the rest the text searched (the first byte past the newline
// picks the flags).
//
// Invariants: nothing throws or crashes, however deep or large the pattern (compiling is
// bounded by the nesting and size limits, not by the stack); every search ends within its
// work budget, which shows up as a libFuzzer timeout when it does not; a match lies inside
// the text with its groups inside it too; and searching and finding agree.
#include <string>

#include "fuzz/fuzz_support.hpp"
#include "safety/regex.hpp"

namespace {

using hermes::fuzz::require;
using hermes::internal::Regex;
using hermes::internal::RegexOptions;

// Small enough for thousands of inputs a second, large enough for real patterns to finish.
constexpr std::uint64_t kFuzzBudget = 200'000;

void check_match(const Regex::Match& m, std::string_view text, int groups) {
  require(m.offsets.size() == 2 * static_cast<std::size_t>(groups + 1), "wrong number of offsets");
  require(m.offsets[0] >= 0 && m.offsets[0] <= m.offsets[1] &&
              static_cast<std::size_t>(m.offsets[1]) <= text.size(),
          "the match lies outside the text");
  for (int g = 1; g <= groups; ++g) {
    const std::ptrdiff_t b = m.offsets[2 * g];
    const std::ptrdiff_t e = m.offsets[2 * g + 1];
    require((b < 0 && e < 0) || (b >= 0 && b <= e && static_cast<std::size_t>(e) <= text.size()),
            "a group lies outside the text");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = hermes::fuzz::as_text(data, size);
  const std::size_t newline = input.find('\n');
  const std::string_view pattern = input.substr(0, newline);
  std::string_view text =
      newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);
  RegexOptions options;
  if (!text.empty()) {
    const auto flags = static_cast<unsigned char>(text.front());
    options = RegexOptions{(flags & 1) != 0, (flags & 2) != 0, (flags & 4) != 0};
    text.remove_prefix(1);
  }
  hermes::fuzz::no_throw("Regex", [&] {
    auto re = Regex::compile(pattern, options);
    if (!re.ok()) {
      require(!re.status().message().empty(), "a compile error without a message");
      return;
    }
    const auto found = re->try_find(text, 0, kFuzzBudget);
    const auto searched = re->try_search(text, kFuzzBudget);
    if (found.ok() && *found) check_match(**found, text, re->group_count());
    if (found.ok() && searched.ok()) {
      require(found->has_value() == *searched, "search and find disagree", pattern);
    }
    if (!found.ok()) {
      require(found.status().code() == hermes::StatusCode::kResourceExhausted,
              "a search failed for another reason than its budget", found.status().message());
    }
  });
  return 0;
}
