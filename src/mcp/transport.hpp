// How JSON-RPC messages travel between hermes and one MCP server.
#pragma once

#include <functional>

#include "hermes/json.hpp"
#include "hermes/status.hpp"

namespace hermes::internal {

// A message channel to one server. Implementations: StdioTransport (a child process),
// HttpTransport (Streamable HTTP).
//
// Thread-safety: send() may be called from any thread; handlers run on a thread of the
// transport (or inside send(), for transports that answer a request in its response) and
// must not block on the transport.
class McpTransport {
 public:
  struct Handlers {
    // A message from the server.
    std::function<void(const Json& message)> on_message;
    // The connection broke on its own (the server exited, the stream ended, a protocol
    // violation): called at most once, never after close() was called.
    std::function<void(Status reason)> on_closed;
    // A request that was sent will get no answer (its HTTP exchange failed): its caller
    // should fail with `reason` now rather than wait for its deadline. Transports that
    // cannot tell which request a failure belongs to never call it.
    std::function<void(const Json& id, Status reason)> on_request_failed;
  };

  virtual ~McpTransport() = default;

  // Opens the connection (starts the process). Called once, before any send().
  virtual Status start(Handlers handlers) = 0;
  // Sends one message.
  virtual Status send(const Json& message) = 0;
  // Closes the connection and releases its resources. Idempotent; blocks until the
  // transport's threads have finished.
  virtual void close() = 0;
  // Called once the handshake agreed on `version` (HTTP sends it as a header).
  virtual void set_protocol_version(const std::string& /*version*/) {}
};

}  // namespace hermes::internal
