// The chat's slash commands: /new, /resume, /sessions, /search, /compress, /model,
// /tools, /skills, /<skill-name>, /memory, /usage, /steer, /stop, /history, /help, /exit.
#pragma once

#include <string>
#include <vector>

namespace hermes_cli {

class ChatSession;

// Runs the command on `line` (which starts with '/'). Unknown commands get a message
// naming them and pointing at /help.
void run_slash_command(ChatSession& chat, const std::string& line);

// What Tab completes at the start of a line: every command and every skill's
// /<skill-name>, sorted.
std::vector<std::string> slash_command_words(const ChatSession& chat);

}  // namespace hermes_cli
