#include "safety/command_guard.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <set>

#include "common/text_utils.hpp"
#include "hermes/home.hpp"
#include "safety/command_indirection.hpp"
#include "safety/command_rules.hpp"
#include "safety/interpreters.hpp"
#include "safety/protected_paths.hpp"
#include "safety/shell_commands.hpp"
#include "safety/shell_lexer.hpp"

namespace hermes::internal {
namespace {

constexpr std::size_t kMaxCommandChars = 128000;
constexpr std::size_t kMaxSeparatorFreeChars = 4096;
constexpr std::size_t kMaxSeparators = 25000;
constexpr std::string_view kParserLimit = "command parser limit exceeded";
constexpr std::string_view kSelfTermination = "kill hermes/gateway process (self-termination)";

// The payload of `sh -c PAYLOAD` (short options may be bundled: -lc, -ec).
std::optional<std::optional<std::string>> shell_c_payload(const std::vector<std::string>& args,
                                                          std::size_t first) {
  static constexpr std::string_view kLetters = "ilrsDcabefhkmnptuvxBCEHPTOo";
  for (std::size_t i = first; i < args.size();) {
    const std::string& token = args[i];
    if (token.empty() || token == "--" || (token[0] != '-' && token[0] != '+')) break;
    if (token == "-O" || token == "+O" || token == "-o" || token == "+o" ||
        token == "--init-file" || token == "--rcfile") {
      i += 2;
      continue;
    }
    const std::string_view chars = std::string_view(token).substr(1);
    if (starts_with(token, "--") || chars.find_first_not_of(kLetters) != std::string_view::npos) {
      ++i;
      continue;
    }
    const std::size_t takes = chars.find_first_of("Oo") != std::string_view::npos ? 1 : 0;
    if (chars.find('c') != std::string_view::npos) {
      const std::size_t at = i + 1 + takes;
      return at < args.size() ? std::optional<std::string>(args[at]) : std::nullopt;
    }
    i += 1 + takes;
  }
  return std::nullopt;
}

// Options of read-only tools that run another program: rg --pre, sort --compress-program.
std::optional<ExecutionFinding> read_tool_finding(std::string_view tool,
                                                  const std::vector<std::string>& args,
                                                  std::size_t first) {
  static const std::array<std::pair<std::string_view, std::vector<std::string_view>>, 4> kTools = {{
      {"sort", {"--compress-program"}},
      {"rg", {"--pre", "--hostname-bin"}},
      {"ag", {"--pager"}},
      {"man", {"--pager", "--html", "-P", "-H"}},
  }};
  auto tool_it =
      std::find_if(kTools.begin(), kTools.end(), [&](const auto& t) { return t.first == tool; });
  if (tool_it == kTools.end()) return std::nullopt;
  for (std::size_t i = first; i < args.size(); ++i) {
    const std::string& token = args[i];
    if (token == "--") break;
    const std::size_t eq = token.find('=');
    std::string option = token.substr(0, eq);
    std::optional<std::string> payload;
    if (eq != std::string::npos) payload = token.substr(eq + 1);
    if (tool == "man" && (starts_with(token, "-P") || starts_with(token, "-H")) &&
        token.size() > 2) {
      option = token.substr(0, 2);
      payload = token.substr(2);
    }
    if (!list_contains(tool_it->second, option)) continue;
    if (!payload && i + 1 < args.size()) payload = args[i + 1];
    if (payload && !payload->empty()) {
      return ExecutionFinding{"arbitrary program execution via " + std::string(tool) + " " + option,
                              payload};
    }
  }
  return std::nullopt;
}

// ---- Self-termination: commands that would kill the process hermes runs in ----

bool kills_this_process(std::string_view normalized) {
  const std::string pid = std::to_string(::getpid());
  const std::string group = "-" + std::to_string(::getpgrp());
  for (std::string_view segment : shell_segments(normalized)) {
    auto words = shell_words(segment);
    if (!words) continue;
    auto index = shell_program_index(*words);
    if (!index || program_basename((*words)[*index]) != "kill") continue;
    for (std::size_t i = *index + 1; i < words->size(); ++i) {
      if ((*words)[i] == pid || (*words)[i] == group) return true;
    }
  }
  return false;
}

bool contains_shell_carrier(std::string_view command) {
  static const std::set<std::string, std::less<>> kCarriers = {"eval", "sh",   "bash",   "zsh",
                                                               "ksh",  "dash", "source", "."};
  for (const std::string& word : command_position_words(command)) {
    if (kCarriers.count(word)) return true;
  }
  return false;
}

void add_unique(std::vector<std::string>& variants, std::string v) {
  if (!v.empty() && std::find(variants.begin(), variants.end(), v) == variants.end())
    variants.push_back(std::move(v));
}

}  // namespace

bool command_exceeds_parser_limits(std::string_view command) {
  if (command.size() > kMaxCommandChars) return true;
  const std::size_t separators =
      static_cast<std::size_t>(std::count_if(command.begin(), command.end(), [](char c) {
        return c == ';' || c == '&' || c == '|' || c == '\n';
      }));
  if (command.size() > kMaxSeparatorFreeChars && separators == 0) return true;
  return separators >= kMaxSeparators;
}

std::vector<ExecutionFinding> execution_findings(std::string_view command) {
  std::vector<ExecutionFinding> out;
  for (std::string_view segment : shell_segments(command)) {
    auto words = shell_words(segment);
    if (!words) continue;
    auto index = shell_program_index(*words);
    if (!index) continue;
    const std::string name = program_basename((*words)[*index]);
    const std::size_t first = *index + 1;
    if (const Interpreter* interp = interpreter_for(name)) {
      if (interpreter_runs_inline_code(*interp, *words, first)) {
        out.push_back({"script execution via -e/-c flag", std::nullopt});
      } else if (std::any_of(words->begin() + static_cast<std::ptrdiff_t>(first), words->end(),
                             [](const std::string& w) { return starts_with(w, "<<"); })) {
        out.push_back({"script execution via heredoc", std::nullopt});
      }
      continue;
    }
    if (name == "bash" || name == "sh" || name == "zsh" || name == "ksh" || name == "dash") {
      if (auto payload = shell_c_payload(*words, first))
        out.push_back({"shell command via -c/-lc flag", *payload});
    }
    if (auto finding = read_tool_finding(name, *words, first)) out.push_back(std::move(*finding));
  }
  return out;
}

std::vector<std::string> command_detection_variants(std::string_view command,
                                                    const std::vector<HomeFold>& folds) {
  // Quoted newlines are masked before normalisation, which drops escapes and would
  // corrupt the quote state.
  const std::string masked = mask_quoted_newlines(command);
  const std::string normalized = normalize_command_for_detection(masked, folds);
  std::vector<std::string> variants{normalized};
  // Windows paths: normalisation reads their backslashes as escapes.
  if (command.find(":\\") != std::string_view::npos ||
      command.find("\\\\") != std::string_view::npos) {
    std::string slashed(command);
    std::replace(slashed.begin(), slashed.end(), '\\', '/');
    add_unique(variants, normalize_command_for_detection(mask_quoted_newlines(slashed), folds));
  }
  // What `sh -c`, `rg --pre` and friends will run is checked like a command of its own.
  std::vector<std::string> payloads;
  std::vector<std::string> pending{normalized};
  for (int depth = 0; depth < 4 && !pending.empty(); ++depth) {
    std::vector<std::string> next;
    for (const std::string& text : pending) {
      for (ExecutionFinding& f : execution_findings(text)) {
        if (!f.payload || std::find(variants.begin(), variants.end(), *f.payload) != variants.end())
          continue;
        add_unique(variants, *f.payload);
        add_unique(variants, mark_shell_command_starts(*f.payload));
        payloads.push_back(*f.payload);
        next.push_back(std::move(*f.payload));
      }
    }
    pending = std::move(next);
  }
  add_unique(variants, mark_shell_command_starts(normalized));
  // Starts found on the raw text, where the quote state is the author's own.
  add_unique(variants,
             normalize_command_for_detection(mark_shell_command_starts(masked, " \n"), folds));
  add_unique(variants, unquote_command_words(normalized));
  // Last, so the reasons given for plain commands stay as they were: the commands behind
  // wrappers (timeout, nohup, xargs, watch), eval and find -exec, and what those run.
  pending = unwrapped_commands(parse_shell_commands(prepare_command_for_parsing(masked, folds)));
  for (const std::string& payload : payloads) {
    for (std::string& inner : unwrapped_commands(parse_shell_commands(payload)))
      pending.push_back(std::move(inner));
  }
  for (int depth = 0; depth < 4 && !pending.empty(); ++depth) {
    std::vector<std::string> next;
    for (const std::string& text : pending) {
      if (std::find(variants.begin(), variants.end(), text) != variants.end()) continue;
      add_unique(variants, text);
      add_unique(variants, mark_shell_command_starts(text));
      for (ExecutionFinding& f : execution_findings(text)) {
        if (f.payload) next.push_back(std::move(*f.payload));
      }
      for (std::string& inner : unwrapped_commands(parse_shell_commands(text)))
        next.push_back(std::move(inner));
    }
    pending = std::move(next);
  }
  return variants;
}

CommandFinding detect_hardline(std::string_view command, const std::vector<HomeFold>& folds) {
  if (command_exceeds_parser_limits(command)) return {true, std::string(kParserLimit)};
  for (const std::string& variant : command_detection_variants(command, folds)) {
    const std::string lower = lower_ascii(variant);
    std::optional<std::string> masked;
    for (const CommandRule& rule : hardline_rules()) {
      if (rule.quote_masked && !masked) {
        // Under a shell carrier (sh -c, eval) quoted text is code, not prose.
        masked = contains_shell_carrier(variant) ? lower : lower_ascii(mask_quoted_prose(variant));
      }
      if (rule.regex.search(rule.quote_masked ? *masked : lower))
        return {true, std::string(rule.description)};
    }
  }
  return {};
}

CommandFinding detect_dangerous(std::string_view command, const std::vector<HomeFold>& folds) {
  if (command_exceeds_parser_limits(command)) return {true, std::string(kParserLimit)};
  for (const std::string& variant : command_detection_variants(command, folds)) {
    const std::string lower = lower_preserving_flags(variant);
    std::optional<std::string> masked;
    for (const CommandRule& rule : dangerous_rules()) {
      if (rule.quote_masked && !masked) masked = lower_preserving_flags(mask_quoted_prose(variant));
      if (rule.regex.search(rule.quote_masked ? *masked : lower))
        return {true, std::string(rule.description)};
    }
  }
  const std::string normalized = normalize_command_for_detection(command, folds);
  for (const ExecutionFinding& f : execution_findings(normalized)) return {true, f.description};
  if (kills_this_process(normalized)) return {true, std::string(kSelfTermination)};
  // The structure of the command as the shell will read it (quotes intact).
  const ParsedShell parsed =
      parse_shell_commands(prepare_command_for_parsing(mask_quoted_newlines(command), folds));
  if (auto hidden = indirection_finding(parsed)) return {true, *hidden};
  if (auto write = protected_write_finding(parsed)) return {true, *write};
  if (auto leak = exfiltration_finding(parsed)) return {true, *leak};
  return {};
}

std::optional<std::string> first_unlisted_program(std::string_view command,
                                                  const std::vector<HomeFold>& folds,
                                                  const std::vector<std::string>& allowed) {
  std::vector<std::string> listed;
  for (const std::string& a : allowed) listed.push_back(program_basename(trim_ascii(a)));
  auto unlisted = [&listed](const std::string& word) {
    return std::find(listed.begin(), listed.end(), program_basename(word)) == listed.end();
  };
  std::vector<std::string> pending{
      prepare_command_for_parsing(mask_quoted_newlines(command), folds)};
  for (int depth = 0; depth < 4 && !pending.empty(); ++depth) {
    std::vector<std::string> next;
    for (const std::string& text : pending) {
      const ParsedShell parsed = parse_shell_commands(text);
      if (parsed.too_deep) return std::string("(nesting too deep to inspect)");
      for (const SimpleCommand& cmd : parsed.commands) {
        const std::size_t first = command_first_word_index(cmd);
        const auto program = command_program_index(cmd);
        if (!program) {
          // Nothing runs (x=1, for ...), or a wrapper only asks (command -v x).
          if (first < cmd.words.size() && is_command_wrapper(program_basename(cmd.words[first])) &&
              unlisted(cmd.words[first])) {
            return program_basename(cmd.words[first]);
          }
          continue;
        }
        if (raw_word_expands(cmd.raw[*program]) || contains(cmd.raw[*program], "$'"))
          return std::string("(computed command word)");
        for (std::size_t i = first; i <= *program; ++i) {
          const bool wrapper = i == *program || is_command_wrapper(program_basename(cmd.words[i]));
          if (wrapper && unlisted(cmd.words[i])) return program_basename(cmd.words[i]);
        }
      }
      for (std::string& inner : unwrapped_commands(parsed)) next.push_back(std::move(inner));
      for (ExecutionFinding& f : execution_findings(normalize_command_for_detection(text, {}))) {
        if (f.payload) next.push_back(std::move(*f.payload));
      }
    }
    pending = std::move(next);
  }
  if (!pending.empty()) return std::string("(nesting too deep to inspect)");
  return std::nullopt;
}

}  // namespace hermes::internal

namespace hermes {

CommandFinding detect_dangerous_command(std::string_view command) {
  return internal::detect_dangerous(command, internal::default_home_folds(default_home()));
}

CommandFinding detect_hardline_command(std::string_view command) {
  return internal::detect_hardline(command, internal::default_home_folds(default_home()));
}

}  // namespace hermes
