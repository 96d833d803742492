// ChatSession: the interactive chat and the single-query run.
//
// The main thread waits on InputEvents; a turn runs on a TurnWorker thread. While a turn
// runs, lines are still read: /steer and /stop reach the running turn, read-only
// commands answer at once, a pending approval or clarify question takes the next line,
// and other text is queued as the next message. Ctrl+C interrupts the running turn; a
// second Ctrl+C (or one at an idle prompt, twice) exits.
#pragma once

#include <deque>
#include <memory>
#include <string>

#include "hermes/hermes.hpp"
#include "input_events.hpp"
#include "input_history.hpp"
#include "prompt_broker.hpp"
#include "settings.hpp"
#include "terminal.hpp"
#include "turn_worker.hpp"
#include "usage_tally.hpp"

namespace hermes_cli {

class LineEditor;

class ChatSession {
 public:
  ChatSession(Settings settings, Terminal& terminal, InputEvents& events);
  ~ChatSession();

  // Creates the tools and the agent, resuming `resume_id` when set. `interactive`
  // decides whether approvals and clarify questions can be asked.
  hermes::Status open(const std::string& resume_id, bool interactive);

  // The chat loop; returns the exit status.
  int run_interactive();

  // One turn; returns 0 when it completed, 1 otherwise, 130 after a second Ctrl+C.
  int run_single_query(const std::string& query);

  // --- For the slash commands ---
  Terminal& terminal() { return terminal_; }
  const Settings& settings() const { return settings_; }
  hermes::Agent& agent() { return *agent_; }
  hermes::ToolRegistry& tools() { return *tools_; }
  bool turn_running() const { return worker_.busy(); }
  // The current session id (refreshed after every turn and command).
  const std::string& session_id() const { return session_id_; }
  void refresh_session_id();
  UsageTally& usage() { return usage_; }
  const InputHistory& history() const { return history_; }
  // Sends `message` as a turn (the caller checked no turn runs).
  void start_turn(const std::string& message);
  // Sends a typed message, with a loaded skill's instructions when one is staged.
  void send_message(const std::string& text);
  // Loads `command`'s skill into the next message.
  void stage_skill(const std::string& command) { staged_skill_ = command; }
  // Recreates the agent with another model, keeping the conversation.
  hermes::Status switch_model(const std::string& model);
  void request_exit() { exit_requested_ = true; }

 private:
  void handle_line(const std::string& line);
  void handle_interrupt();
  void finish_turn(const hermes::ConversationResult& result);
  void show_prompt();
  hermes::Status create_agent(const std::string& session_id);

  Settings settings_;
  Terminal& terminal_;
  InputEvents& events_;
  PromptBroker prompts_;
  hermes::Callbacks callbacks_;
  std::shared_ptr<hermes::ToolRegistry> tools_;
  std::unique_ptr<hermes::Agent> agent_;
  TurnWorker worker_;
  UsageTally usage_;
  InputHistory history_;
  LineEditor* editor_ = nullptr;  // While run_interactive() edits lines.
  std::string session_id_;
  std::string staged_skill_;
  std::deque<std::string> queued_;
  bool exit_requested_ = false;
  bool interrupting_ = false;  // Ctrl+C was pressed during the running turn.
  bool exit_armed_ = false;    // Ctrl+C was pressed at an idle prompt.
  bool input_closed_ = false;
  bool last_completed_ = false;
};

}  // namespace hermes_cli
