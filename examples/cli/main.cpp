// hermes — the command-line chat over the hermes library (public API only).
#include <atomic>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <string>
#include <thread>

#include "cli_options.hpp"
#include "hermes/hermes.hpp"

namespace {

std::atomic<int> g_sigint_count{0};

void on_sigint(int) { g_sigint_count.fetch_add(1); }

bool g_streamed = false;  // The current answer was printed as it streamed.

hermes::Callbacks make_callbacks(const hermes_cli::CliOptions& cli) {
  hermes::Callbacks cb;
  if (!cli.quiet) {
    cb.on_stream_delta = [](std::string_view delta) {
      if (delta.empty()) return;
      g_streamed = true;
      std::fwrite(delta.data(), 1, delta.size(), stdout);
      std::fflush(stdout);
    };
    cb.on_tool_progress = [](const hermes::ToolProgress& p) {
      if (p.phase == hermes::ToolProgress::Phase::kStarted) {
        std::fprintf(stderr, "  \xE2\x9A\x99 %s %s\n", p.name.c_str(), p.preview.c_str());
      } else {
        std::fprintf(stderr, "  %s %s (%.2fs)\n", p.is_error ? "\xE2\x9C\x97" : "\xE2\x9C\x93",
                     p.name.c_str(), static_cast<double>(p.duration.count()) / 1000.0);
      }
    };
    cb.on_status = [](std::string_view kind, std::string_view message) {
      std::fprintf(stderr, "  [%.*s] %.*s\n", static_cast<int>(kind.size()), kind.data(),
                   static_cast<int>(message.size()), message.data());
    };
  }
  return cb;
}

std::string home_of(const hermes_cli::CliOptions& cli) {
  return cli.home.empty() ? hermes::default_home() : cli.home;
}

int list_sessions(const hermes_cli::CliOptions& cli) {
  auto store = hermes::open_sqlite_store(hermes::default_state_db_path(home_of(cli)));
  if (!store.ok()) {
    std::fprintf(stderr, "hermes: %s\n", store.status().to_string().c_str());
    return 2;
  }
  hermes::ListOptions opts;
  opts.limit = 50;
  auto sessions = (*store)->list_sessions(opts);
  if (!sessions.ok()) {
    std::fprintf(stderr, "hermes: %s\n", sessions.status().to_string().c_str());
    return 2;
  }
  for (const auto& s : *sessions) {
    std::printf("%s  %-10s %4lld messages  %s\n", s.id.c_str(), s.source.c_str(),
                static_cast<long long>(s.message_count), s.title.c_str());
  }
  if (sessions->empty()) std::printf("(no sessions)\n");
  return 0;
}

int search_sessions(const hermes_cli::CliOptions& cli) {
  auto store = hermes::open_sqlite_store(hermes::default_state_db_path(home_of(cli)));
  if (!store.ok()) {
    std::fprintf(stderr, "hermes: %s\n", store.status().to_string().c_str());
    return 2;
  }
  hermes::SearchOptions opts;
  opts.limit = 10;
  auto hits = (*store)->search(*cli.search, opts);
  if (!hits.ok()) {
    std::fprintf(stderr, "hermes: %s\n", hits.status().to_string().c_str());
    return 2;
  }
  for (const auto& h : *hits) {
    std::printf("%s  #%lld %-9s %s\n", h.session_id.c_str(), static_cast<long long>(h.message_id),
                h.role.c_str(), h.snippet.c_str());
  }
  if (hits->empty()) std::printf("(no matches for \"%s\")\n", cli.search->c_str());
  return 0;
}

// Runs one turn and prints its outcome. Returns whether it completed.
bool run_turn(hermes::Agent& agent, const std::string& input, const hermes_cli::CliOptions& cli) {
  g_streamed = false;
  g_sigint_count = 0;
  std::atomic<bool> done{false};
  // Ctrl+C interrupts the turn; the watcher runs because signal handlers may not call
  // into the library.
  std::thread watcher([&] {
    while (!done.load()) {
      if (g_sigint_count.load() > 0) {
        agent.interrupt("interrupted from the keyboard");
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  hermes::ConversationResult r = agent.run_conversation(input);
  done = true;
  watcher.join();

  if (r.final_response) {
    if (g_streamed && !cli.quiet) {
      std::printf("\n");
    } else {
      std::printf("%s\n", r.final_response->c_str());
    }
  }
  if (!r.completed && !cli.quiet) {
    std::fprintf(stderr, "  (turn did not complete: %s%s%s)\n", r.exit_reason.c_str(),
                 r.error.empty() ? "" : " \xE2\x80\x94 ", r.error.c_str());
  }
  std::fflush(stdout);
  return r.completed;
}

}  // namespace

int main(int argc, char** argv) {
  hermes_cli::CliOptions cli;
  if (auto err = hermes_cli::parse_cli(argc, argv, cli)) {
    std::fprintf(stderr, "hermes: %s\n\n%s", err->c_str(), hermes_cli::usage_text());
    return 2;
  }
  if (cli.help) {
    std::printf("%s", hermes_cli::usage_text());
    return 0;
  }
  if (cli.version) {
    std::printf("hermes %s\n", hermes::version());
    return 0;
  }
  if (cli.list) return list_sessions(cli);
  if (cli.search) return search_sessions(cli);

  hermes::AgentOptions options;
  options.model = cli.model;
  options.provider = cli.provider;
  options.base_url = cli.base_url;
  options.api_key = cli.api_key;
  options.home = cli.home;
  options.session_id = cli.resume;
  options.enabled_toolsets = cli.toolsets;
  options.max_iterations = cli.max_iterations;
  options.stream = !cli.no_stream;
  options.callbacks = make_callbacks(cli);
  // options.tools stays empty: the agent offers the built-in toolsets (see --toolsets).

  auto agent = hermes::Agent::create(options);
  if (!agent.ok()) {
    std::fprintf(stderr, "hermes: %s\n", agent.status().to_string().c_str());
    return 2;
  }
  std::signal(SIGINT, on_sigint);
  const std::string db = hermes::default_state_db_path(home_of(cli));

  if (cli.query) {
    bool ok = run_turn(**agent, *cli.query, cli);
    if (!cli.quiet) {
      std::fprintf(stderr, "  session %s saved in %s\n", (*agent)->session_id().c_str(), db.c_str());
    }
    return ok ? 0 : 1;
  }

  if (!cli.quiet) {
    std::fprintf(stderr, "hermes %s \xE2\x80\x94 model %s \xE2\x80\x94 session %s\n", hermes::version(),
                 cli.model.c_str(), (*agent)->session_id().c_str());
    std::fprintf(stderr, "Type a message; /exit or Ctrl+D to quit.\n");
  }
  for (std::string line;;) {
    std::fprintf(stderr, "\xE2\x80\xBA ");
    if (!std::getline(std::cin, line)) break;
    if (line == "/exit" || line == "/quit") break;
    if (line.empty()) continue;
    run_turn(**agent, line, cli);
  }
  if (!cli.quiet) {
    std::fprintf(stderr, "\nsession %s saved in %s\n", (*agent)->session_id().c_str(), db.c_str());
  }
  return 0;
}
