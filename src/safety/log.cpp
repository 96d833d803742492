#include "safety/log.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>

#include "hermes/redaction.hpp"

namespace hermes {
namespace {

int level_from_env() {
  const char* env = std::getenv("HERMES_LOG_LEVEL");
  if (env == nullptr) return static_cast<int>(LogLevel::kWarning);
  std::string v(env);
  if (v == "debug") return 0;
  if (v == "info") return 1;
  if (v == "warning" || v == "warn") return 2;
  if (v == "error") return 3;
  if (v == "off" || v == "none") return 4;
  return static_cast<int>(LogLevel::kWarning);
}

const char* level_name(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
      return "debug";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kWarning:
      return "warning";
    case LogLevel::kError:
      return "error";
  }
  return "?";
}

struct Logger {
  std::atomic<int> minimum{level_from_env()};
  std::mutex mu;
  // Shared so a sink replaced during a call stays alive until that call returns.
  std::shared_ptr<LogSink> sink =
      std::make_shared<LogSink>([](LogLevel level, std::string_view line) {
        std::fprintf(stderr, "hermes %s: %.*s\n", level_name(level), static_cast<int>(line.size()),
                     line.data());
      });
};

Logger& logger() {
  static Logger* instance = new Logger();  // Never destroyed: usable during static teardown.
  return *instance;
}

}  // namespace

void set_log_sink(LogSink sink) {
  auto& l = logger();
  std::lock_guard<std::mutex> lock(l.mu);
  l.sink = sink ? std::make_shared<LogSink>(std::move(sink)) : nullptr;
}

void set_log_level(LogLevel minimum) {
  logger().minimum = static_cast<int>(minimum);
}

namespace internal {

bool log_enabled(LogLevel level) {
  return static_cast<int>(level) >= logger().minimum.load();
}

void log_line(LogLevel level, std::string_view raw_line) {
  // Lines quote provider errors and tool output, which can carry keys and tokens.
  const std::string line = redact_sensitive_text(raw_line);
  std::shared_ptr<LogSink> sink;
  {
    auto& l = logger();
    std::lock_guard<std::mutex> lock(l.mu);
    sink = l.sink;
  }
  if (!sink) return;
  try {
    (*sink)(level, line);
  } catch (...) {
    // A failing sink must not take the agent down with it.
  }
}

}  // namespace internal
}  // namespace hermes
