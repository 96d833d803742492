// hermes — the command-line chat over the hermes library (public API only).
#include <cstdio>
#include <string>

#include "chat_session.hpp"
#include "cli_options.hpp"
#include "hermes/hermes.hpp"
#include "input_events.hpp"
#include "session_listing.hpp"
#include "settings.hpp"
#include "terminal.hpp"
#include "tracing_sink.hpp"

namespace {

using hermes_cli::Settings;
using hermes_cli::Terminal;

int report(const hermes::Status& s) {
  std::fprintf(stderr, "hermes: %s\n", s.to_string().c_str());
  return 2;
}

// --list and --search: read the store without starting an agent.
int browse_sessions(const hermes_cli::CliOptions& cli, const Settings& settings) {
  auto store = hermes::open_sqlite_store(hermes::default_state_db_path(settings.home));
  if (!store.ok()) return report(store.status());
  Terminal out(true);
  hermes::Status s = cli.search ? hermes_cli::print_search(out, **store, *cli.search, 10)
                                : hermes_cli::print_sessions(out, **store, "", 50);
  return s.ok() ? 0 : report(s);
}

}  // namespace

int main(int argc, char** argv) {
  hermes_cli::CliOptions cli;
  if (auto err = hermes_cli::parse_cli(argc, argv, cli)) {
    std::fprintf(stderr, "hermes: %s\n\n%s", err->c_str(), hermes_cli::usage_text().c_str());
    return 2;
  }
  if (cli.help) {
    std::printf("%s", hermes_cli::usage_text().c_str());
    return 0;
  }
  if (cli.version) {
    std::printf("hermes %s\n", hermes::version());
    return 0;
  }
  Settings settings = hermes_cli::resolve_settings(cli);
  if (settings.config_error) {
    std::fprintf(stderr, "hermes: %s\n", settings.config_error->c_str());
    return 2;
  }
  for (const std::string& warning : settings.warnings)
    std::fprintf(stderr, "hermes: %s\n", warning.c_str());
  if (cli.list || cli.search) return browse_sessions(cli, settings);
  if (settings.provider_error) {
    std::fprintf(stderr, "hermes: %s\n", settings.provider_error->c_str());
    return 2;
  }

  // Before any thread starts: every thread must inherit the blocked SIGINT.
  hermes_cli::InputEvents events;
  settings.trace_sink = hermes_cli::tracing_sink_from_environment("hermes");
  // Declared before the chat: it flushes after the agent is gone.
  hermes_cli::FlushAtExit flush_traces(settings.trace_sink);
  Terminal terminal(settings.quiet);
  hermes_cli::ChatSession chat(settings, terminal, events);
  if (hermes::Status s = chat.open(cli.resume, !cli.query.has_value()); !s.ok()) return report(s);
  if (cli.query) return chat.run_single_query(*cli.query);
  return chat.run_interactive();
}
