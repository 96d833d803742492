// Blocking socket helpers shared by the mock server and the loopback test client.
#pragma once

#include <initializer_list>
#include <string_view>

namespace hermes::testing {

// Writes every byte of `parts` (at most four non-empty ones), in order, as one gather
// write where the kernel allows.
// Never raises SIGPIPE. False when the peer is gone or the socket failed.
bool send_all(int fd, std::initializer_list<std::string_view> parts);

// Disables Nagle's algorithm so every write leaves at once: streamed chunks must reach
// the client when they are written, not when the next one fills a segment.
void set_no_delay(int fd);

// Makes the next close of `fd` abort the connection with a TCP reset (a zero linger
// time) instead of an orderly shutdown.
void reset_on_close(int fd);

// Closes `fd` if it is open and sets it to -1.
void close_fd(int& fd);

}  // namespace hermes::testing
