// What every context file (SOUL.md and the project files) goes through before it enters
// the system prompt: a bounded read, a prompt-injection screen, and a size cap.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace hermes::internal {

// A slow file (an evicted file on a network or cloud-synced drive) must not stall the
// first turn, so a read that takes longer is abandoned.
constexpr std::chrono::milliseconds kContextFileReadTimeout{5'000};

// Receives, as one readable sentence, what a user should hear about a context file that
// did not load as written (skipped, blocked, truncated); it is logged as a warning too.
// May be empty.
using ContextFileNotice = std::function<void(const std::string&)>;

// The stripped text of the file at `path`, without a leading byte-order mark. Empty when
// the file is missing, not a regular file, unreadable, not UTF-8, or slower than
// `timeout` to read; none of these is an error.
std::string read_context_file(const std::filesystem::path& path,
                              std::chrono::milliseconds timeout = kContextFileReadTimeout,
                              const ContextFileNotice& notice = {});

// The most characters (code points) one context file may bring: 6% of the model's window
// (at four characters a token), never below 20,000 nor above 500,000. A window of 0 (not
// known) gives 20,000.
std::size_t context_file_char_cap(int64_t context_length);

// `content` when it is at most `cap` characters; otherwise its first 70% and last 20% of
// `cap` with a marker between them naming `name` and the `read_path` to read in full.
std::string truncate_context_file(std::string_view content, std::string_view name, std::size_t cap,
                                  std::string_view read_path, const ContextFileNotice& notice = {});

// `content`, or when it matches a prompt-injection pattern (or carries invisible
// Unicode) the notice that takes its place: the file never reaches the prompt.
std::string screen_context_file(std::string_view content, std::string_view name,
                                const ContextFileNotice& notice = {});

}  // namespace hermes::internal
