#include "support/mock_control_api.hpp"

#include <string>
#include <utility>
#include <vector>

#include "common/json_text.hpp"

namespace hermes::testing {
namespace {

MockResponse json_reply(int status, const Json& body) {
  MockResponse reply;
  reply.status = status;
  reply.body = internal::dump_json(body);
  return reply;
}

MockResponse error_reply(int status, const std::string& message) {
  return json_reply(status, Json{{"error", {{"message", message}}}});
}

Json request_to_json(const RecordedRequest& request) {
  return Json{{"method", request.method},
              {"path", request.path},
              {"headers", request.headers},
              {"body", request.body}};
}

MockResponse enqueue(MockServer& server, const RecordedRequest& request) {
  std::optional<Json> specs = internal::parse_json(request.body);
  if (!specs) return error_reply(400, "the body is not JSON");
  if (!specs->is_array()) specs = Json::array({std::move(*specs)});
  std::vector<MockResponse> responses;
  for (std::size_t i = 0; i < specs->size(); ++i) {
    Result<MockResponse> response = mock_response_from_json((*specs)[i]);
    if (!response.ok()) {
      return error_reply(400, "spec " + std::to_string(i) + ": " + response.status().message());
    }
    responses.push_back(std::move(response).value());
  }
  server.enqueue(std::move(responses));
  return json_reply(200, Json{{"pending", server.pending()}});
}

MockResponse set_default(MockServer& server, const RecordedRequest& request) {
  std::optional<Json> spec = internal::parse_json(request.body);
  if (!spec) return error_reply(400, "the body is not JSON");
  if (spec->is_null()) {
    server.set_default(std::nullopt);
  } else {
    Result<MockResponse> response = mock_response_from_json(*spec);
    if (!response.ok()) return error_reply(400, response.status().message());
    server.set_default(std::move(response).value());
  }
  return json_reply(200, Json{{"ok", true}});
}

MockResponse recorded_requests(const MockServer& server) {
  Json list = Json::array();
  for (const RecordedRequest& request : server.requests()) list.push_back(request_to_json(request));
  return json_reply(200, list);
}

}  // namespace

ControlReply handle_control_request(MockServer& server, const RecordedRequest& request,
                                    bool can_shutdown) {
  std::string_view path = request.path;
  path = path.substr(0, path.find('?'));
  const bool get = request.method == "GET";
  const bool post = request.method == "POST";
  if (path == "/_mock/enqueue" && post) return {enqueue(server, request)};
  if (path == "/_mock/default" && post) return {set_default(server, request)};
  if (path == "/_mock/requests" && get) return {recorded_requests(server)};
  if (path == "/_mock/pending" && get) {
    return {json_reply(200, Json{{"pending", server.pending()}})};
  }
  if (path == "/_mock/reset" && post) {
    server.reset();
    return {json_reply(200, Json{{"ok", true}})};
  }
  if (path == "/_mock/shutdown" && post && can_shutdown) {
    return {json_reply(200, Json{{"ok", true}}), true};
  }
  return {error_reply(404, "no control endpoint " + request.method + " " + std::string(path))};
}

}  // namespace hermes::testing
