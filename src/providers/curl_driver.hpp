// What drives the transfers of one libcurl multi handle for an I/O loop. On Linux it is
// epoll with libcurl's socket interface: a wakeup costs the sockets that are ready, not
// every transfer in flight, which matters at thousands of conversations per thread.
// Elsewhere it is curl_multi_perform and curl_multi_poll.
#pragma once

#include <curl/curl.h>

#include <chrono>
#include <optional>
#include <utility>
#include <vector>

namespace hermes::internal {

class CurlDriver {
 public:
  // Installs its callbacks on `multi`, which must outlive it. Throws std::runtime_error
  // when the event mechanism cannot be set up.
  explicit CurlDriver(CURLM* multi);
  ~CurlDriver();
  CurlDriver(const CurlDriver&) = delete;
  CurlDriver& operator=(const CurlDriver&) = delete;

  // Lets libcurl act on what the last wait() found ready and on its expired timer (also
  // a transfer just added). On the loop's thread.
  void perform();
  // Sleeps until a socket is ready, libcurl's timer is due, `timeout_ms` passes or wake()
  // is called. On the loop's thread.
  void wait(long timeout_ms);
  // Ends a wait() in progress, or the next one at once. Any thread.
  void wake();

 private:
  static int on_socket(CURL* easy, curl_socket_t socket, int what, void* self, void* socket_data);
  static int on_timer(CURLM* multi, long timeout_ms, void* self);

  CURLM* multi_;
#ifdef __linux__
  int epoll_fd_ = -1;
  int wake_fd_ = -1;                                  // An eventfd.
  std::vector<std::pair<curl_socket_t, int>> ready_;  // Sockets and CURL_CSELECT_* flags.
  std::optional<std::chrono::steady_clock::time_point> curl_due_;
#endif
};

}  // namespace hermes::internal
