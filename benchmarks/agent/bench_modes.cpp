#include "bench_modes.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

#include "encode_cost.hpp"
#include "floor_client.hpp"
#include "hermes/message.hpp"
#include "hermes/otlp_exporter.hpp"
#include "hermes_contender.hpp"
#include "measure.hpp"
#include "parse_throughput.hpp"
#include "support/mock_server.hpp"
#include "support/temp_dir.hpp"
#include "workload.hpp"

namespace hermes::bench {
namespace {

std::string arg(const Args& args, const std::string& key, const std::string& fallback = "") {
  auto it = args.find(key);
  return it == args.end() ? fallback : it->second;
}

int int_arg(const Args& args, const std::string& key, int fallback) {
  auto it = args.find(key);
  return it == args.end() ? fallback : std::atoi(it->second.c_str());
}

Result<Json> read_json(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Status::not_found("cannot read " + path);
  std::ostringstream text;
  text << file.rdbuf();
  Json json = Json::parse(text.str(), nullptr, false);
  if (json.is_discarded()) return Status::invalid_argument(path + " is not JSON");
  return json;
}

Status write_json(const std::filesystem::path& path, const Json& json) {
  std::ofstream file(path, std::ios::binary);
  file << json.dump() << '\n';
  return file ? Status() : Status::io_error("cannot write " + path.string());
}

void print_line(const Json& line) {
  std::printf("%s\n", line.dump().c_str());
  std::fflush(stdout);
}

// A mock server conversation URL no other conversation uses (see
// MockServer::set_conversation_script).
std::string conversation_url(const std::string& server, const std::string& tag) {
  static int counter = 0;
  return server + "/c/" + tag + "-" + std::to_string(getpid()) + "-" + std::to_string(counter++) +
         "/v1";
}

// The workload parts every run mode shares, read from the command line.
struct Workload {
  std::string server;
  int steps = 8;
  bool stream = true;
  bool store = false;
  Durability durability = Durability::kFull;  // Of the store, when on.
  // Tracing on, with the OTLP exporter sending to --otlp-endpoint (a collector in another
  // process, as in production), else to a receiver in this process that answers every
  // POST with {} (its work then counts in this process's CPU).
  bool tracing = false;
  std::unique_ptr<testing::MockServer> otlp_receiver;
  int history_size = 0;
  Json history_json;
  std::unique_ptr<testing::TempDir> home;
  HermesSetup setup;
};

Result<Workload> read_workload(const Args& args) {
  Workload w;
  w.server = arg(args, "server");
  w.steps = int_arg(args, "steps", 8);
  w.stream = arg(args, "stream", "1") == "1";
  w.store = arg(args, "store", "0") == "1";
  if (w.server.empty()) return Status::invalid_argument("--server is required");
  std::optional<Durability> durability = durability_from_name(arg(args, "durability", "full"));
  if (!durability) return Status::invalid_argument("--durability must be full or normal");
  w.durability = *durability;
  w.tracing = arg(args, "tracing", "0") == "1";
  if (w.steps < 1) return Status::invalid_argument("--steps must be at least 1");
  std::string history_path = arg(args, "history");
  if (history_path.empty()) {
    w.history_json = make_history(int_arg(args, "history-size", 10));
  } else {
    Result<Json> history = read_json(history_path);
    if (!history.ok()) return history.status();
    w.history_json = std::move(history).value();
  }
  Result<std::vector<Message>> messages = messages_from_json(w.history_json);
  if (!messages.ok()) return messages.status();
  w.history_size = static_cast<int>(messages->size());
  w.home = std::make_unique<testing::TempDir>();
  w.setup.home = w.home->path();
  w.setup.stream = w.stream;
  w.setup.history = std::move(messages).value();
  w.setup.tools = std::make_shared<ToolRegistry>();
  if (Status s = w.setup.tools->register_tool(add_tool()); !s.ok()) return s;
  if (w.store) {
    SqliteStoreOptions store_options;
    store_options.durability = w.durability;
    auto store = open_sqlite_store(w.home->path() + "/state.db", store_options);
    if (!store.ok()) return store.status();
    w.setup.store = std::move(store).value();
  }
  if (w.tracing) {
    OtlpExporterOptions exporter;
    exporter.endpoint = arg(args, "otlp-endpoint");
    if (exporter.endpoint.empty()) {
      w.otlp_receiver = std::make_unique<testing::MockServer>();
      w.otlp_receiver->set_recording(false);
      testing::MockResponse accepted;
      accepted.body = "{}";
      w.otlp_receiver->set_default(accepted);
      exporter.endpoint = w.otlp_receiver->url();
    }
    auto sink = OtlpExporter::create(exporter);
    if (!sink.ok()) return sink.status();
    w.setup.trace_sink = std::move(sink).value();
  }
  return w;
}

// The contender's name in the results: the store's durability shows when it is not the
// default.
std::string hermes_contender_name(const Workload& w) {
  if (w.tracing) return w.store ? "hermes_cpp_store_traced" : "hermes_cpp_traced";
  if (!w.store) return "hermes_cpp";
  return w.durability == Durability::kFull ? "hermes_cpp_store" : "hermes_cpp_store_normal";
}

Json run_line(const Workload& w, const std::string& contender, const Elapsed& elapsed,
              int steps_done) {
  return {{"contender", contender},
          {"history", w.history_size},
          {"stream", w.stream},
          {"steps", w.steps},
          {"steps_done", steps_done},
          {"wall_per_step_us", elapsed.wall * 1e6 / steps_done},
          {"cpu_per_step_us", elapsed.cpu * 1e6 / steps_done},
          {"steps_per_s", steps_done / elapsed.wall},
          {"peak_rss_kib", peak_rss_kib()}};
}

// The floor replays what hermes sends without a store; captured once per process.
Result<ConversationBodies> floor_bodies(const Workload& w) {
  HermesSetup plain = w.setup;
  plain.store = nullptr;
  return capture_request_bodies(plain, make_script(w.steps, w.stream), w.steps);
}

}  // namespace

Status write_workload(const Args& args) {
  std::filesystem::path out = arg(args, "out", ".");
  int steps = int_arg(args, "steps", 8);
  std::filesystem::create_directories(out);
  for (int size : {10, 100, 1000}) {
    Status s = write_json(out / ("history-" + std::to_string(size) + ".json"), make_history(size));
    if (!s.ok()) return s;
  }
  for (bool stream : {true, false}) {
    auto name = std::string("script-") + (stream ? "stream" : "plain") + ".json";
    if (Status s = write_json(out / name, make_script(steps, stream)); !s.ok()) return s;
  }
  // For the idle agents: one answer, so that an agent holds its history and one turn.
  if (Status s = write_json(out / "script-single.json", make_script(1, true)); !s.ok()) return s;
  return write_json(out / "opening.json", Json(opening_message()));
}

Status run_sequential_mode(const Args& args) {
  Result<Workload> w = read_workload(args);
  if (!w.ok()) return w.status();
  const bool floor = arg(args, "mode") == "floor";
  const int conversations = int_arg(args, "conversations", 10);
  const int runs = int_arg(args, "runs", 1);
  std::string contender = floor ? "floor" : hermes_contender_name(*w);
  ConversationBodies bodies;
  if (floor) {
    Result<ConversationBodies> captured = floor_bodies(*w);
    if (!captured.ok()) return captured.status();
    bodies = std::move(captured).value();
  }
  auto conversation = [&]() -> Status {
    std::string url = conversation_url(w->server, contender);
    return floor ? run_floor_sequential(url, bodies, 1)
                 : run_hermes_conversation(w->setup, url, w->steps);
  };
  if (Status s = conversation(); !s.ok()) return s;  // Warm-up: connections, caches.
  for (int run = 0; run < runs; ++run) {
    Stopwatch watch;
    for (int c = 0; c < conversations; ++c) {
      if (Status s = conversation(); !s.ok()) return s;
    }
    print_line(run_line(*w, contender, watch.elapsed(), conversations * w->steps));
  }
  return Status();
}

Status run_concurrent_mode(const Args& args) {
  Result<Workload> w = read_workload(args);
  if (!w.ok()) return w.status();
  const bool floor = arg(args, "contender") == "floor";
  const int lanes = int_arg(args, "lanes", 200);
  const int conversations = int_arg(args, "conversations", 2);
  const int runs = int_arg(args, "runs", 1);
  // --runtime N: hermes on a Runtime with N I/O threads instead of a thread per lane.
  const int io_threads = int_arg(args, "runtime", 0);
  std::string contender = floor ? "floor" : hermes_contender_name(*w);
  if (!floor && io_threads > 0) contender += "_runtime";
  ConversationBodies bodies;
  if (floor) {
    Result<ConversationBodies> captured = floor_bodies(*w);
    if (!captured.ok()) return captured.status();
    bodies = std::move(captured).value();
  }
  for (int run = 0; run < runs; ++run) {
    std::vector<std::string> urls;
    for (int i = 0; i < lanes; ++i) urls.push_back(conversation_url(w->server, contender));
    std::vector<double> latencies;
    Stopwatch watch;
    Status s = floor ? run_floor_concurrent(urls, bodies, conversations)
               : io_threads > 0
                   ? run_hermes_concurrent_on_runtime(w->setup, urls, w->steps, conversations,
                                                      io_threads, latencies)
                   : run_hermes_concurrent(w->setup, urls, w->steps, conversations);
    if (!s.ok()) return s;
    Json line = run_line(*w, contender, watch.elapsed(), lanes * conversations * w->steps);
    line["lanes"] = lanes;
    if (!floor && io_threads > 0) line["io_threads"] = io_threads;
    line["rss_kib"] = current_rss_kib();
    std::size_t text = 0;
    for (const Message& m : w->setup.history) text += m.content.size();
    line["history_text_bytes"] = text;
    if (!latencies.empty()) {
      std::sort(latencies.begin(), latencies.end());
      auto at = [&](double q) {
        const auto i = static_cast<std::size_t>(q * static_cast<double>(latencies.size()));
        return latencies[std::min(latencies.size() - 1, i)];
      };
      line["step_latency_p50_us"] = at(0.50);
      line["step_latency_p99_us"] = at(0.99);
    }
    print_line(line);
  }
  return Status();
}

Status run_idle_mode(const Args& args) {
  Result<Workload> w = read_workload(args);
  if (!w.ok()) return w.status();
  const int count = int_arg(args, "agents", 1000);
  std::vector<std::unique_ptr<Agent>> agents(static_cast<std::size_t>(count));
  // One agent first, so that what every agent shares (libcurl, the connection cache,
  // the tool registry's schemas) is not counted per agent.
  std::unique_ptr<Agent> first;
  if (Status s =
          run_hermes_conversation(w->setup, conversation_url(w->server, "idle"), w->steps, &first);
      !s.ok()) {
    return s;
  }
  const std::size_t heap_before = heap_in_use();
  const int64_t rss_before = current_rss_kib();
  std::size_t text = 0;
  std::size_t messages = 0;
  for (auto& agent : agents) {
    Status s =
        run_hermes_conversation(w->setup, conversation_url(w->server, "idle"), w->steps, &agent);
    if (!s.ok()) return s;
    std::vector<Message> history = agent->history();
    text += text_bytes(history);
    messages += history.size();
  }
  const double heap = static_cast<double>(heap_in_use() - heap_before);
  const double rss = static_cast<double>(current_rss_kib() - rss_before) * 1024;
  print_line({{"contender", "hermes_cpp"},
              {"agents", count},
              {"history", w->history_size},
              {"messages_per_agent", static_cast<double>(messages) / count},
              {"text_bytes_per_agent", static_cast<double>(text) / count},
              {"heap_bytes_per_agent", heap / count},
              {"rss_bytes_per_agent", rss / count},
              {"peak_rss_kib", peak_rss_kib()}});
  return Status();
}

Status run_parse_mode(const Args& args) {
  double seconds = std::atof(arg(args, "seconds", "1").c_str());
  Result<Json> figures =
      measure_parse_throughput(arg(args, "streams", "tests/fixtures/streams"), seconds);
  if (!figures.ok()) return figures.status();
  print_line(*figures);
  return Status();
}

Status run_encode_mode(const Args& args) {
  Result<Json> figures = measure_encode_cost(int_arg(args, "history-size", 1000),
                                             std::atof(arg(args, "seconds", "1").c_str()));
  if (!figures.ok()) return figures.status();
  print_line(*figures);
  return Status();
}

// Every C++ contender once on a tiny workload, against in-process servers: proves the
// benchmark still runs (CTest), measures nothing.
Status run_tiny_mode(const Args& args) {
  const int steps = 3;
  for (bool stream : {true, false}) {
    testing::MockServer server;
    server.set_recording(false);
    if (Status s = play_conversation_script(server, make_script(steps, stream)); !s.ok()) return s;
    Args common = {{"server", server.url()},
                   {"steps", std::to_string(steps)},
                   {"stream", stream ? "1" : "0"},
                   {"history-size", "10"},
                   {"conversations", "2"}};
    auto with = [&](Args extra) {
      extra.insert(common.begin(), common.end());
      return extra;
    };
    Status runs[] = {
        run_sequential_mode(with({{"mode", "floor"}})),
        run_sequential_mode(with({{"mode", "hermes"}})),
        run_sequential_mode(with({{"mode", "hermes"}, {"store", "1"}})),
        run_sequential_mode(with({{"mode", "hermes"}, {"store", "1"}, {"durability", "normal"}})),
        run_sequential_mode(with({{"mode", "hermes"}, {"tracing", "1"}})),
        run_concurrent_mode(with({{"contender", "floor"}, {"lanes", "4"}})),
        run_concurrent_mode(with({{"contender", "hermes"}, {"lanes", "4"}})),
        run_idle_mode(with({{"agents", "3"}})),
    };
    for (const Status& s : runs) {
      if (!s.ok()) return s;
    }
  }
  if (Status s = run_encode_mode({{"history-size", "10"}, {"seconds", "0.01"}}); !s.ok()) return s;
  return run_parse_mode({{"streams", arg(args, "streams")}, {"seconds", "0.01"}});
}

}  // namespace hermes::bench
