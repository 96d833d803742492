#include "parse_throughput.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "hermes/token_estimate.hpp"
#include "measure.hpp"
#include "providers/chat_stream_assembler.hpp"
#include "providers/sse_parser.hpp"
#include "workload.hpp"

namespace hermes::bench {
namespace {

// Network reads deliver a stream in slices; 4 KiB is a typical one.
constexpr std::size_t kSlice = 4096;

std::string read_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// Repeats `pass` (which handles `bytes_per_pass` bytes) for about `seconds`; MB/s.
template <typename Pass>
double throughput(std::size_t bytes_per_pass, double seconds, Pass pass) {
  Stopwatch watch;
  std::size_t passes = 0;
  do {
    pass();
    ++passes;
  } while (watch.elapsed().wall < seconds);
  return static_cast<double>(bytes_per_pass * passes) / 1e6 / watch.elapsed().cpu;
}

void feed_in_slices(internal::SseParser& parser, const std::string& stream) {
  for (std::size_t at = 0; at < stream.size(); at += kSlice) {
    parser.feed(std::string_view(stream).substr(at, kSlice));
  }
  parser.finish();
}

}  // namespace

Result<Json> measure_parse_throughput(const std::string& streams_dir, double seconds) {
  std::vector<std::string> streams;
  std::vector<std::string> chat_streams;
  std::size_t bytes = 0;
  std::size_t chat_bytes = 0;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(streams_dir, error)) {
    if (entry.path().extension() != ".sse") continue;
    std::string text = read_file(entry.path());
    bytes += text.size();
    if (text.find("chat.completion.chunk") != std::string::npos) {
      chat_bytes += text.size();
      chat_streams.push_back(text);
    }
    streams.push_back(std::move(text));
  }
  if (streams.empty()) return Status::not_found("no .sse files in " + streams_dir);

  std::size_t events = 0;
  double sse = throughput(bytes, seconds, [&] {
    for (const std::string& stream : streams) {
      internal::SseParser parser([&](const internal::SseEvent&) { ++events; });
      feed_in_slices(parser, stream);
    }
  });
  double chat = throughput(chat_bytes, seconds, [&] {
    for (const std::string& stream : chat_streams) {
      internal::ChatStreamAssembler assembler;
      internal::SseParser parser([&](const internal::SseEvent& e) { assembler.add_event(e); });
      feed_in_slices(parser, stream);
      (void)assembler.finish();
    }
  });

  Result<std::vector<Message>> history = messages_from_json(make_history(1000));
  if (!history.ok()) return history.status();
  std::string text;
  for (const Message& message : *history) text += message.content;
  int64_t tokens = 0;
  double estimate =
      throughput(text.size(), seconds, [&] { tokens += estimate_tokens_rough(text); });
  double estimate_messages = throughput(
      text_bytes(*history), seconds, [&] { tokens += estimate_messages_tokens_rough(*history); });
  return Json{{"sse_mb_s", sse},
              {"sse_bytes", bytes},
              {"sse_events", events > 0},
              {"chat_stream_mb_s", chat},
              {"chat_stream_bytes", chat_bytes},
              {"token_estimate_mb_s", estimate},
              {"token_estimate_messages_mb_s", estimate_messages},
              {"tokens", tokens > 0}};
}

}  // namespace hermes::bench
