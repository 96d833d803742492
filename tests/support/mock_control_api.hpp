// The control API: requests to /_mock/... that script and inspect a running server.
// It is how tests in other languages (Python, C, Rust, Go) drive hermes-mock-server.
//
//   POST /_mock/enqueue   a response spec or a list of specs  -> {"pending": n}
//   POST /_mock/default   a response spec, or null to clear    -> {"ok": true}
//   GET  /_mock/requests  [{"method","path","headers","body"}, ...]
//   GET  /_mock/pending   {"pending": n}
//   POST /_mock/reset     drops queued responses and recorded requests
//   POST /_mock/shutdown  asks the process to exit (only where a handler is installed)
//
// Specs are read by mock_response_from_json(); a bad spec gets 400 naming the problem
// and queues nothing.
#pragma once

#include <string_view>

#include "support/mock_server.hpp"

namespace hermes::testing {

inline constexpr std::string_view kControlPrefix = "/_mock/";

struct ControlReply {
  MockResponse response;
  bool shutdown = false;  // Run the shutdown handler once the reply is written.
};

// Answers one control request. `can_shutdown` says whether a shutdown handler exists.
ControlReply handle_control_request(MockServer& server, const RecordedRequest& request,
                                    bool can_shutdown);

}  // namespace hermes::testing
