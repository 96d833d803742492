// The shell parser behind the structural command checks: simple commands, their words as
// written and unquoted, redirections, pipelines and the commands inside substitutions.
#include "safety/shell_commands.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

// Inside the namespace rather than `using` it: the tests of an area build as one unit.
namespace hermes::internal {
namespace {

std::vector<std::string> programs_of(const ParsedShell& parsed) {
  std::vector<std::string> out;
  for (const SimpleCommand& cmd : parsed.commands) {
    auto p = command_program_index(cmd);
    out.push_back(p ? cmd.words[*p] : "-");
  }
  return out;
}

}  // namespace

TEST_CASE("a pipeline's stages share a number and count up; separators start new pipelines") {
  ParsedShell p = parse_shell_commands("a | b |& c && d; e || f & g\nh");
  REQUIRE(p.commands.size() == 8);
  CHECK(programs_of(p) == std::vector<std::string>{"a", "b", "c", "d", "e", "f", "g", "h"});
  CHECK(p.commands[1].pipeline == p.commands[0].pipeline);
  CHECK(p.commands[2].pipeline == p.commands[0].pipeline);
  CHECK(p.commands[2].stage == 2);
  for (std::size_t i = 3; i < 8; ++i) {
    CAPTURE(i);
    CHECK(p.commands[i].stage == 0);
    CHECK(p.commands[i].pipeline != p.commands[i - 1].pipeline);
  }
}

TEST_CASE("words keep their quotes as written and lose them once unquoted") {
  ParsedShell p = parse_shell_commands(R"x(echo "a b" 'c$d' e\ f $'\x41' "$(date)")x");
  REQUIRE(p.commands.size() == 2);  // echo, and the date inside $(...).
  const SimpleCommand& echo = p.commands[0];
  CHECK(echo.raw ==
        std::vector<std::string>{"echo", "\"a b\"", "'c$d'", "e\\ f", "$'\\x41'", "\"$(date)\""});
  CHECK(echo.words == std::vector<std::string>{"echo", "a b", "c$d", "e f", "A", "$(date)"});
  CHECK(p.commands[1].words == std::vector<std::string>{"date"});
  CHECK(p.commands[1].depth == 1);
  CHECK(p.commands[1].parent == 0);
}

TEST_CASE("redirections are parsed with their operators and targets") {
  ParsedShell p = parse_shell_commands("cmd <in 2>>err.log >|out &>all <<<word 3<>rw >&2");
  REQUIRE(p.commands.size() == 1);
  const auto& r = p.commands[0].redirects;
  REQUIRE(r.size() == 7);
  CHECK(r[0].op == "<");
  CHECK(r[1].op == ">>");
  CHECK(r[1].target == "err.log");
  CHECK(r[2].op == ">|");
  CHECK(r[3].op == "&>");
  CHECK(r[4].op == "<<<");
  CHECK(r[5].op == "<>");
  CHECK(r[6].op == ">&");
  CHECK_FALSE(r[0].writes());
  CHECK(r[1].writes());
  CHECK(r[3].writes());
  CHECK_FALSE(r[6].writes());  // Duplicates a descriptor.
  CHECK(p.commands[0].words == std::vector<std::string>{"cmd"});
}

TEST_CASE("heredoc bodies are data, not commands") {
  ParsedShell p =
      parse_shell_commands("cat <<EOF > notes\nrm -rf x\nEOF\nls\ncat <<-'END'\n\tid\n\tEND\n");
  CHECK(programs_of(p) == std::vector<std::string>{"cat", "ls", "cat"});
}

TEST_CASE("commands inside substitutions of every kind are found") {
  ParsedShell p = parse_shell_commands("x=$(a) y=`b` echo \"${z:-$(c)}\" <(d) $((1 + $(e))) >(f)");
  std::vector<std::string> programs = programs_of(p);
  for (const char* name : {"a", "b", "c", "d", "e", "f"}) {
    CAPTURE(name);
    CHECK(std::find(programs.begin(), programs.end(), name) != programs.end());
  }
  CHECK(programs[0] == "echo");
}

TEST_CASE("the program is found past reserved words, assignments and wrappers") {
  ParsedShell p = parse_shell_commands(
      "if true; then X=1 sudo -u bob timeout -s KILL 5 nice -n 2 rm x; fi; for f in *; do "
      "xargs -I{} echo {}; done; command -v git");
  CHECK(programs_of(p) == std::vector<std::string>{"true", "rm", "-", "-", "echo", "-", "-"});
}

TEST_CASE("expansions are told apart from literal dollars") {
  CHECK(raw_word_expands("$c"));
  CHECK(raw_word_expands("${X:-rm}"));
  CHECK(raw_word_expands("\"$CMD\""));
  CHECK(raw_word_expands("$(echo rm)"));
  CHECK(raw_word_expands("`x`"));
  CHECK_FALSE(raw_word_expands("'$c'"));
  CHECK_FALSE(raw_word_expands("\\$c"));
  CHECK_FALSE(raw_word_expands("rm"));
  CHECK_FALSE(raw_word_expands("$'\\x72'"));  // ANSI-C: a literal, found separately.
  CHECK_FALSE(raw_word_expands("price$"));
}

TEST_CASE("hostile nesting and unclosed quotes end the parse, never the process") {
  std::string deep;
  for (int i = 0; i < 20000; ++i) deep += "\"$(";
  ParsedShell p = parse_shell_commands(deep);
  CHECK(p.too_deep);
  ParsedShell unclosed = parse_shell_commands("echo 'never closed");
  REQUIRE(unclosed.commands.size() == 1);
  CHECK(unclosed.commands[0].words.back() == "never closed");
  CHECK(parse_shell_commands("").commands.empty());
  CHECK(parse_shell_commands("((( ;;; ||| &&& )))").commands.empty());
}

TEST_CASE("joined words read back as the same words") {
  const std::vector<std::string> words = {"rm", "-rf", "my dir", "it's", "a;b", ""};
  const std::string joined = join_shell_words(words, 0);
  CHECK(joined == "rm -rf 'my dir' 'it'\"'\"'s' 'a;b' ''");
  ParsedShell p = parse_shell_commands(joined);
  REQUIRE(p.commands.size() == 1);
  CHECK(p.commands[0].words == words);
}

}  // namespace hermes::internal
