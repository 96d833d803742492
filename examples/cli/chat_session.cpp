#include "chat_session.hpp"

#include <optional>

#include "line_editor.hpp"
#include "slash_commands.hpp"
#include "terminal_callbacks.hpp"

namespace hermes_cli {
namespace {

constexpr const char* kPrompt = "\xE2\x80\xBA ";

}  // namespace

ChatSession::ChatSession(Settings settings, Terminal& terminal, InputEvents& events)
    : settings_(std::move(settings)),
      terminal_(terminal),
      events_(events),
      prompts_([&events] { events.wake(); }),
      worker_([&events] { events.wake(); }),
      history_(settings_.home + "/cli_history") {}

ChatSession::~ChatSession() {
  if (worker_.busy()) {
    agent_->interrupt("the CLI is exiting");
    prompts_.cancel();
    worker_.wait();
  }
}

hermes::Status ChatSession::open(const std::string& resume_id, bool interactive) {
  auto tools = make_tool_registry(settings_);
  if (!tools.ok()) return tools.status();
  tools_ = *tools;
  CallbackContext context;
  context.terminal = &terminal_;
  context.prompts = interactive ? &prompts_ : nullptr;
  context.question_timeout = settings_.approvals.timeout;
  callbacks_ = make_terminal_callbacks(context);
  return create_agent(resume_id);
}

hermes::Status ChatSession::create_agent(const std::string& session_id) {
  hermes::AgentOptions options = make_agent_options(settings_);
  options.tools = tools_;
  options.callbacks = callbacks_;
  options.persistence.session_id = session_id;
  auto agent = hermes::Agent::create(std::move(options));
  if (!agent.ok()) return agent.status();
  agent_ = std::move(*agent);
  refresh_session_id();
  return hermes::Status();
}

void ChatSession::refresh_session_id() {
  session_id_ = agent_->session_id();
}

hermes::Status ChatSession::switch_model(const std::string& model) {
  const std::string previous = settings_.model;
  std::unique_ptr<hermes::Agent> old = std::move(agent_);
  settings_.model = model;
  // An empty session has nothing to carry over (and may not be stored yet).
  const std::string keep = old->history().empty() ? "" : session_id_;
  if (hermes::Status s = create_agent(keep); !s.ok()) {
    settings_.model = previous;
    agent_ = std::move(old);
    return s;
  }
  return hermes::Status();
}

void ChatSession::start_turn(const std::string& message) {
  interrupting_ = false;
  terminal_.take_streamed();
  worker_.start(*agent_, message);
}

void ChatSession::send_message(const std::string& text) {
  if (staged_skill_.empty()) return start_turn(text);
  auto message = hermes::build_skill_invocation_message(settings_.home, settings_.skills,
                                                        staged_skill_, text, session_id_);
  staged_skill_.clear();
  if (!message.ok()) {
    terminal_.notice("hermes: " + message.status().message(), true);
    return start_turn(text);
  }
  start_turn(*message);
}

void ChatSession::finish_turn(const hermes::ConversationResult& r) {
  terminal_.status("");
  if (r.final_response) {
    if (terminal_.take_streamed()) {
      terminal_.end_stream();
    } else {
      terminal_.answer(*r.final_response);
    }
  }
  if (r.interrupted) {
    terminal_.notice("  \xE2\x8F\xB9 interrupted", true);
  } else if (!r.completed) {
    terminal_.notice("  (the turn did not complete: " + r.exit_reason +
                         (r.error.empty() ? "" : " \xE2\x80\x94 " + r.error) + ")",
                     true);
  }
  if (!r.pending_steer.empty()) {
    terminal_.notice("  (guidance not delivered before the turn ended: " + r.pending_steer + ")");
  }
  last_completed_ = r.completed;
  usage_.add(r);
  refresh_session_id();
}

void ChatSession::show_prompt() {
  if (worker_.busy() || exit_requested_ || input_closed_) return;
  if (editor_ == nullptr) return terminal_.prompt(kPrompt);
  terminal_.prompt("");  // Clears the status line and ends a partial line.
  editor_->prompt(kPrompt);
}

void ChatSession::handle_line(const std::string& raw) {
  exit_armed_ = false;
  if (prompts_.answer(raw)) return;
  std::string line = raw;
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.pop_back();
  if (line.empty()) return show_prompt();
  history_.add(line);
  if (editor_ != nullptr) editor_->remember(line);
  if (line[0] == '/') {
    run_slash_command(*this, line);
  } else if (worker_.busy()) {
    queued_.push_back(line);
    terminal_.notice("  (queued: sent when this turn ends; /stop ends it now)");
  } else {
    send_message(line);
  }
  show_prompt();
}

void ChatSession::handle_interrupt() {
  prompts_.cancel();
  if (worker_.busy()) {
    if (interrupting_) {
      exit_requested_ = true;
      agent_->interrupt("interrupted by the user");
      return;
    }
    interrupting_ = true;
    queued_.clear();
    agent_->interrupt("interrupted by the user");
    terminal_.notice("  \xE2\x8F\xB9 interrupting\xE2\x80\xA6 (Ctrl+C again to exit)", true);
    return;
  }
  if (exit_armed_) {
    exit_requested_ = true;
    return;
  }
  exit_armed_ = true;
  terminal_.notice("\n(Ctrl+C again to exit, or type /exit)", true);
  show_prompt();
}

int ChatSession::run_interactive() {
  // Line editing at a terminal; plain lines from a pipe or a file.
  std::optional<LineEditor> editor;
  if (!settings_.quiet && LineEditor::wanted()) {
    editor.emplace(std::vector<std::string>(history_.entries().begin(), history_.entries().end()),
                   [this] { return slash_command_words(*this); });
    editor_ = &*editor;
    events_.use_editor(editor_);
  }
  struct Detach {
    ChatSession& chat;
    ~Detach() {
      chat.events_.use_editor(nullptr);
      chat.editor_ = nullptr;
    }
  } detach{*this};
  terminal_.notice(std::string("hermes ") + hermes::version() + " \xE2\x80\x94 model " +
                   settings_.model + " \xE2\x80\x94 session " + session_id_);
  terminal_.notice("Type a message, or /help for commands. /exit or Ctrl+D quits.");
  show_prompt();
  while (!exit_requested_) {
    if (input_closed_ && !worker_.busy() && queued_.empty()) break;
    InputEvents::Event e = events_.next();
    switch (e.kind) {
      case InputEvents::Kind::kLine:
        handle_line(e.line);
        break;
      case InputEvents::Kind::kInterrupt:
        handle_interrupt();
        break;
      case InputEvents::Kind::kEndOfInput:
        input_closed_ = true;
        prompts_.cancel();
        break;
      case InputEvents::Kind::kWake:
        break;
    }
    if (auto result = worker_.collect()) {
      finish_turn(*result);
      if (!queued_.empty() && !exit_requested_) {
        std::string next = queued_.front();
        queued_.pop_front();
        send_message(next);
      }
      show_prompt();
    }
  }
  if (worker_.busy()) {
    agent_->interrupt("the CLI is exiting");
    if (auto result = worker_.wait()) finish_turn(*result);
  }
  terminal_.notice("\nsession " + session_id_ + " saved in " +
                   hermes::default_state_db_path(settings_.home));
  return 0;
}

int ChatSession::run_single_query(const std::string& query) {
  events_.ignore_input();
  start_turn(query);
  while (worker_.busy()) {
    InputEvents::Event e = events_.next();
    if (e.kind == InputEvents::Kind::kInterrupt) {
      if (interrupting_) exit_requested_ = true;
      interrupting_ = true;
      agent_->interrupt("interrupted by the user");
    }
    if (auto result = worker_.collect()) finish_turn(*result);
  }
  if (exit_requested_) return 130;
  terminal_.notice("  session " + session_id_ + " saved in " +
                   hermes::default_state_db_path(settings_.home));
  return last_completed_ ? 0 : 1;
}

}  // namespace hermes_cli
