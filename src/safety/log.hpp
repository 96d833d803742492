// Internal logging: formats a line and hands it to the process-wide sink (hermes/log.hpp).
#pragma once

#include <fmt/format.h>

#include <string_view>

#include "hermes/log.hpp"

namespace hermes::internal {

bool log_enabled(LogLevel level);
void log_line(LogLevel level, std::string_view line);

template <typename... Args>
void log(LogLevel level, fmt::format_string<Args...> format, Args&&... args) {
  if (!log_enabled(level)) return;
  log_line(level, fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace hermes::internal

#define HERMES_LOG_DEBUG(...) ::hermes::internal::log(::hermes::LogLevel::kDebug, __VA_ARGS__)
#define HERMES_LOG_INFO(...) ::hermes::internal::log(::hermes::LogLevel::kInfo, __VA_ARGS__)
#define HERMES_LOG_WARN(...) ::hermes::internal::log(::hermes::LogLevel::kWarning, __VA_ARGS__)
#define HERMES_LOG_ERROR(...) ::hermes::internal::log(::hermes::LogLevel::kError, __VA_ARGS__)
