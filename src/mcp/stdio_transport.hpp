// The stdio transport: the server is a child process; messages are single lines of JSON
// on its stdin and stdout; what it writes to stderr goes to the hermes log.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>

#include "mcp/child_process.hpp"
#include "mcp/transport.hpp"

namespace hermes::internal {

struct StdioTransportOptions {
  std::string label;  // "MCP server 'files'", for messages.
  ChildProcessOptions process;
  std::size_t max_message_bytes = 16u << 20;
};

class StdioTransport final : public McpTransport {
 public:
  explicit StdioTransport(StdioTransportOptions options);
  ~StdioTransport() override;

  Status start(Handlers handlers) override;
  Status send(const Json& message) override;
  void close() override;

 private:
  void read_stdout();
  void read_stderr();
  // Handles one complete line of stdout.
  void receive_line(std::string_view line);
  // The stream broke: stop the process and report `reason` unless we closed it.
  void fail(Status reason);

  const StdioTransportOptions options_;
  Handlers handlers_;
  std::mutex process_mu_;  // Guards waiting for and stopping the process.
  ChildProcess process_;
  std::mutex write_mu_;
  std::atomic<bool> closing_{false};
  std::atomic<bool> failed_{false};
  std::mutex reason_mu_;
  std::condition_variable reason_cv_;
  Status close_reason_;  // Why the stream broke, once it has.
  std::thread stdout_reader_;
  std::thread stderr_reader_;
  std::mutex lifecycle_mu_;
  bool started_ = false;
  bool closed_ = false;
};

}  // namespace hermes::internal
