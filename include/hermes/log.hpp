// hermes/log.hpp — where hermes's diagnostic lines go.
#pragma once

#include "hermes/export.hpp"

#include <functional>
#include <string_view>

namespace hermes {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3 };

// Receives every log line at or above the minimum level. Called from any thread; must be
// thread-safe. Secrets are redacted before a line reaches the sink.
using LogSink = std::function<void(LogLevel level, std::string_view line)>;

// Replaces the process-wide sink. The default writes warnings and errors to stderr; the
// minimum level can also be set with $HERMES_LOG_LEVEL (debug, info, warning, error,
// off). An empty sink silences logging.
HERMES_API void set_log_sink(LogSink sink);
HERMES_API void set_log_level(LogLevel minimum);

}  // namespace hermes
