// The chat's slash commands: /new, /resume, /sessions, /search, /compress, /model,
// /tools, /skills, /<skill-name>, /memory, /usage, /steer, /stop, /history, /help, /exit.
#pragma once

#include <string>

namespace hermes_cli {

class ChatSession;

// Runs the command on `line` (which starts with '/'). Unknown commands get a message
// naming them and pointing at /help.
void run_slash_command(ChatSession& chat, const std::string& line);

}  // namespace hermes_cli
