#include "floor_client.hpp"

#include <curl/curl.h>

#include <memory>

namespace hermes::bench {
namespace {

std::size_t keep_bytes(char* data, std::size_t size, std::size_t count, void* sink) {
  static_cast<std::string*>(sink)->append(data, size * count);
  return size * count;
}

struct CurlDeleter {
  void operator()(CURL* easy) const { curl_easy_cleanup(easy); }
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};
using EasyHandle = std::unique_ptr<CURL, CurlDeleter>;
using HeaderList = std::unique_ptr<curl_slist, CurlDeleter>;

HeaderList request_headers() {
  curl_slist* list = curl_slist_append(nullptr, "Content-Type: application/json");
  list = curl_slist_append(list, "Authorization: Bearer sk-bench");
  list = curl_slist_append(list, "Expect:");  // No 100-continue round trip for big bodies.
  return HeaderList(list);
}

// One conversation in flight on one connection.
struct Lane {
  EasyHandle easy{curl_easy_init()};
  std::string url;
  std::string response;
  std::size_t step = 0;
  int conversations_left = 0;

  void prepare(const std::string& body, curl_slist* headers) {
    response.clear();
    CURL* e = easy.get();
    curl_easy_setopt(e, CURLOPT_URL, url.c_str());
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, body.data());
    curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, keep_bytes);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, &response);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  }

  Status check(CURLcode code) const {
    long status = 0;
    curl_easy_getinfo(easy.get(), CURLINFO_RESPONSE_CODE, &status);
    if (code != CURLE_OK)
      return Status::unavailable(std::string("floor: ") + curl_easy_strerror(code));
    if (status != 200) return Status::unavailable("floor: HTTP " + std::to_string(status));
    return Status();
  }
};

std::string endpoint(const std::string& base_url) {
  return base_url + "/chat/completions";
}

}  // namespace

Status run_floor_sequential(const std::string& base_url, const ConversationBodies& bodies,
                            int conversations) {
  HeaderList headers = request_headers();
  Lane lane;
  lane.url = endpoint(base_url);
  for (int c = 0; c < conversations; ++c) {
    for (const std::string& body : bodies) {
      lane.prepare(body, headers.get());
      if (Status s = lane.check(curl_easy_perform(lane.easy.get())); !s.ok()) return s;
    }
  }
  return Status();
}

Status run_floor_concurrent(const std::vector<std::string>& base_urls,
                            const ConversationBodies& bodies, int conversations) {
  HeaderList headers = request_headers();
  CURLM* multi = curl_multi_init();
  curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, static_cast<long>(base_urls.size()) * 2);
  std::vector<Lane> lanes(base_urls.size());
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    lanes[i].url = endpoint(base_urls[i]);
    lanes[i].conversations_left = conversations;
    lanes[i].prepare(bodies[0], headers.get());
    curl_easy_setopt(lanes[i].easy.get(), CURLOPT_PRIVATE, &lanes[i]);
    curl_multi_add_handle(multi, lanes[i].easy.get());
  }
  Status status;
  int running = 1;
  while (running > 0 && status.ok()) {
    curl_multi_perform(multi, &running);
    int queued = 0;
    while (CURLMsg* message = curl_multi_info_read(multi, &queued)) {
      if (message->msg != CURLMSG_DONE) continue;
      Lane* lane = nullptr;
      curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, &lane);
      CURLcode code = message->data.result;
      curl_multi_remove_handle(multi, lane->easy.get());
      if (Status s = lane->check(code); !s.ok()) {
        status = s;
        break;
      }
      if (++lane->step == bodies.size()) {
        lane->step = 0;
        if (--lane->conversations_left == 0) continue;
      }
      lane->prepare(bodies[lane->step], headers.get());
      curl_multi_add_handle(multi, lane->easy.get());
      running = 1;
    }
    if (running > 0) curl_multi_poll(multi, nullptr, 0, 100, nullptr);
  }
  for (Lane& lane : lanes) curl_multi_remove_handle(multi, lane.easy.get());
  curl_multi_cleanup(multi);
  return status;
}

}  // namespace hermes::bench
