#include "slash_commands.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "chat_session.hpp"
#include "session_listing.hpp"

namespace hermes_cli {
namespace {

using Handler = void (*)(ChatSession&, const std::string& args);

struct Command {
  const char* name;
  const char* args;
  const char* help;
  bool while_running;  // Allowed while a turn runs.
  Handler run;
};

void print_help(ChatSession& chat, const std::string&);

void fail(ChatSession& chat, const hermes::Status& s) {
  chat.terminal().print("error: " + s.message());
}

hermes::SessionStore* store_of(ChatSession& chat) {
  hermes::SessionStore* store = chat.agent().session_store().get();
  if (store == nullptr) chat.terminal().print("sessions are not being saved (no session store)");
  return store;
}

void cmd_new(ChatSession& chat, const std::string&) {
  if (hermes::Status s = chat.agent().new_session(); !s.ok()) return fail(chat, s);
  chat.refresh_session_id();
  chat.usage() = UsageTally();
  chat.terminal().print("new session " + chat.session_id());
}

// A session named by id, or by title when no id matches.
std::string find_session(hermes::SessionStore& store, const std::string& key) {
  if (store.get_session(key).ok()) return key;
  hermes::ListOptions opts;
  opts.limit = 500;
  auto sessions = store.list_sessions(opts);
  if (!sessions.ok()) return "";
  for (const auto& s : *sessions) {
    if (s.title == key) return s.id;
  }
  return "";
}

void cmd_resume(ChatSession& chat, const std::string& args) {
  hermes::SessionStore* store = store_of(chat);
  if (store == nullptr) return;
  if (args.empty()) {
    chat.terminal().print("Usage: /resume <session id or title>. Recent sessions:");
    if (hermes::Status s = print_sessions(chat.terminal(), *store, chat.session_id(), 10); !s.ok())
      fail(chat, s);
    return;
  }
  const std::string id = find_session(*store, args);
  if (id.empty()) return chat.terminal().print("no session \"" + args + "\" (see /sessions)");
  if (hermes::Status s = chat.agent().resume(id); !s.ok()) return fail(chat, s);
  chat.refresh_session_id();
  chat.usage() = UsageTally();
  chat.terminal().print("resumed session " + chat.session_id() + " (" +
                        std::to_string(chat.agent().history().size()) + " messages)");
}

void cmd_sessions(ChatSession& chat, const std::string&) {
  if (hermes::SessionStore* store = store_of(chat)) {
    if (hermes::Status s = print_sessions(chat.terminal(), *store, chat.session_id(), 20); !s.ok())
      fail(chat, s);
  }
}

void cmd_search(ChatSession& chat, const std::string& args) {
  if (args.empty()) return chat.terminal().print("Usage: /search <words>");
  if (hermes::SessionStore* store = store_of(chat)) {
    if (hermes::Status s = print_search(chat.terminal(), *store, args, 10); !s.ok()) fail(chat, s);
  }
}

void cmd_compress(ChatSession& chat, const std::string& args) {
  chat.terminal().print("compressing the conversation\xE2\x80\xA6");
  auto r = chat.agent().compress(args);
  if (!r.ok()) return fail(chat, r.status());
  chat.refresh_session_id();
  if (!r->compacted)
    return chat.terminal().print("nothing compressed" + (r->note.empty() ? "" : ": " + r->note));
  chat.terminal().print("compressed " + std::to_string(r->messages_before) + " messages (~" +
                        std::to_string(r->tokens_before) + " tokens) into " +
                        std::to_string(r->messages_after) + " (~" +
                        std::to_string(r->tokens_after) + " tokens); session " + r->session_id);
}

void cmd_model(ChatSession& chat, const std::string& args) {
  if (args.empty())
    return chat.terminal().print("model: " + chat.settings().model +
                                 " (change it with /model <name>)");
  if (hermes::Status s = chat.switch_model(args); !s.ok()) return fail(chat, s);
  chat.terminal().print("model: " + args + " (session " + chat.session_id() + ")");
}

void cmd_tools(ChatSession& chat, const std::string&) {
  const Settings& s = chat.settings();
  std::map<std::string, std::vector<std::string>> by_toolset;
  for (const std::string& name : chat.tools().resolve(s.toolsets, s.disabled_toolsets)) {
    auto spec = chat.tools().find(name);
    by_toolset[spec ? spec->toolset : "?"].push_back(name);
  }
  if (by_toolset.empty()) return chat.terminal().print("no tools enabled");
  chat.terminal().print("Enabled tools (toolsets: " + [&] {
    std::string joined;
    for (const auto& t : s.toolsets) joined += (joined.empty() ? "" : ", ") + t;
    return joined;
  }() + "):");
  for (const auto& [toolset, names] : by_toolset) {
    std::string line = "  " + toolset + ":";
    for (const auto& n : names) line += " " + n;
    chat.terminal().print(line);
  }
  chat.terminal().print("All toolsets: " + [&] {
    std::string joined;
    for (const auto& t : chat.tools().toolsets()) joined += (joined.empty() ? "" : ", ") + t;
    return joined;
  }() + " (choose with --toolsets)");
}

void cmd_skills(ChatSession& chat, const std::string&) {
  auto skills = hermes::list_skill_commands(chat.settings().home, chat.settings().skills);
  if (skills.empty())
    return chat.terminal().print("no skills in " + chat.settings().home + "/skills");
  chat.terminal().print("Skills (invoke with /<name> [instruction]):");
  for (const auto& s : skills) {
    char line[256];
    std::snprintf(line, sizeof line, "  %-24s ", s.command.c_str());
    chat.terminal().print(line + s.description);
  }
}

void cmd_memory(ChatSession& chat, const std::string&) {
  std::string snapshot = hermes::render_memory_snapshot(chat.settings().home);
  if (snapshot.empty()) {
    return chat.terminal().print("memory is empty (" + chat.settings().home +
                                 "/memories/MEMORY.md, USER.md)");
  }
  chat.terminal().print(snapshot);
  chat.terminal().print(
      "(as stored now; a running session sees the snapshot taken when it started)");
}

void cmd_usage(ChatSession& chat, const std::string&) {
  for (const auto& line : chat.usage().describe(chat.settings().model)) chat.terminal().print(line);
}

void cmd_steer(ChatSession& chat, const std::string& args) {
  if (!chat.turn_running())
    return chat.terminal().print("no turn is running; send it as a message instead");
  if (hermes::Status s = chat.agent().steer(args); !s.ok()) return fail(chat, s);
  chat.terminal().notice("  (guidance queued for the running turn)", true);
}

void cmd_stop(ChatSession& chat, const std::string&) {
  if (!chat.turn_running()) return chat.terminal().print("no turn is running");
  chat.agent().interrupt("stopped with /stop");
  chat.terminal().notice("  \xE2\x8F\xB9 stopping\xE2\x80\xA6", true);
}

// The last lines typed (20, or the number given), numbered, the newest last.
void cmd_history(ChatSession& chat, const std::string& args) {
  const auto& entries = chat.history().entries();
  char* end = nullptr;
  const long wanted = args.empty() ? 20 : std::strtol(args.c_str(), &end, 10);
  if (!args.empty() && (end == args.c_str() || *end != '\0' || wanted < 1)) {
    return chat.terminal().print("Usage: /history [number of lines]");
  }
  const std::size_t count = std::min(entries.size(), static_cast<std::size_t>(wanted));
  for (std::size_t i = entries.size() - count; i < entries.size(); ++i) {
    char number[32];
    std::snprintf(number, sizeof number, "%5zu  ", i + 1);
    chat.terminal().print(number + entries[i]);
  }
}

void cmd_exit(ChatSession& chat, const std::string&) {
  chat.request_exit();
}

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"/new", "", "start a new session", false, cmd_new},
      {"/resume", "[id]", "continue a saved session (no id: list recent ones)", false, cmd_resume},
      {"/sessions", "", "list saved sessions", true, cmd_sessions},
      {"/search", "<words>", "full-text search over saved sessions", true, cmd_search},
      {"/compress", "[focus]", "summarise the conversation now, keeping [focus]", false,
       cmd_compress},
      {"/model", "[name]", "show or change the model", false, cmd_model},
      {"/tools", "", "list the enabled tools", true, cmd_tools},
      {"/skills", "", "list the skills; /<skill-name> loads one into the next message", true,
       cmd_skills},
      {"/memory", "", "show what hermes remembers", true, cmd_memory},
      {"/usage", "", "tokens and cost of this session", true, cmd_usage},
      {"/steer", "<text>", "guide the running turn without stopping it", true, cmd_steer},
      {"/stop", "", "stop the running turn (also Ctrl+C)", true, cmd_stop},
      {"/history", "[n]", "the last lines typed (kept in <home>/cli_history)", true, cmd_history},
      {"/help", "", "this list", true, print_help},
      {"/exit", "", "quit (also /quit, Ctrl+D)", true, cmd_exit},
      {"/quit", "", "", true, cmd_exit},
  };
  return table;
}

void print_help(ChatSession& chat, const std::string&) {
  chat.terminal().print("Commands:");
  for (const Command& c : commands()) {
    if (*c.help == '\0') continue;
    char line[256];
    std::snprintf(line, sizeof line, "  %-10s %-8s %s", c.name, c.args, c.help);
    chat.terminal().print(line);
  }
  chat.terminal().print("While a turn runs you can type /steer, /stop or a message to queue.");
}

// A /<skill-name> command: with an instruction it runs now, without one the skill is
// loaded into the next message.
bool run_skill_command(ChatSession& chat, const std::string& name, const std::string& args) {
  const std::string slug = hermes::skill_command_slug(name.substr(1));
  bool found = false;
  for (const auto& s : hermes::list_skill_commands(chat.settings().home, chat.settings().skills)) {
    found = found || s.command == "/" + slug;
  }
  if (!found) return false;
  if (chat.turn_running()) {
    chat.terminal().print(name + " must wait until the running turn ends (or /stop it)");
    return true;
  }
  chat.stage_skill(name);
  if (!args.empty()) {
    chat.send_message(args);
  } else {
    chat.terminal().print("skill " + slug + " loaded: its instructions go with your next message");
  }
  return true;
}

}  // namespace

void run_slash_command(ChatSession& chat, const std::string& line) {
  const std::size_t space = line.find(' ');
  const std::string name = line.substr(0, space);
  std::string args = space == std::string::npos ? "" : line.substr(space + 1);
  args.erase(0, args.find_first_not_of(' '));
  for (const Command& c : commands()) {
    if (name != c.name) continue;
    if (!c.while_running && chat.turn_running()) {
      chat.terminal().print(name + " must wait until the running turn ends (or /stop it)");
      return;
    }
    return c.run(chat, args);
  }
  if (run_skill_command(chat, name, args)) return;
  chat.terminal().print("Unknown command: " + name + ". Type /help for the list of commands.");
}

std::vector<std::string> slash_command_words(const ChatSession& chat) {
  std::vector<std::string> words;
  for (const Command& c : commands()) words.emplace_back(c.name);
  for (const auto& s : hermes::list_skill_commands(chat.settings().home, chat.settings().skills)) {
    words.push_back(s.command);
  }
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  return words;
}

}  // namespace hermes_cli
