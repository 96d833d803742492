#include "mcp/elicitation.hpp"

#include <exception>

namespace hermes::internal {
namespace {

Result<McpElicitation> read_request(const std::string& server, const Json& params) {
  if (!params.is_object()) return Status::invalid_argument("elicitation/create without params");
  // URL mode (2025-11-25) sends the user to a web page: a form handler cannot answer it.
  if (params.value("mode", "form") != "form") {
    return Status::invalid_argument("elicitation mode '" + params.value("mode", "") +
                                    "' is not supported");
  }
  auto message = params.find("message");
  auto schema = params.find("requestedSchema");
  if (message == params.end() || !message->is_string())
    return Status::invalid_argument("elicitation/create: message must be a string");
  if (schema == params.end() || !schema->is_object())
    return Status::invalid_argument("elicitation/create: requestedSchema must be an object");
  return McpElicitation{server, message->get<std::string>(), *schema};
}

Result<McpElicitationResult> ask(const McpElicitationHandler& handler,
                                 const McpElicitation& request) {
  try {
    return handler(request);
  } catch (const std::exception& e) {
    return Status::internal(std::string("the elicitation handler failed: ") + e.what());
  } catch (...) {
    return Status::internal("the elicitation handler failed");
  }
}

}  // namespace

Result<Json> answer_elicitation(const McpElicitationHandler& handler, const std::string& server,
                                const Json& params) {
  Result<McpElicitation> request = read_request(server, params);
  if (!request.ok()) return request.status();
  Result<McpElicitationResult> answer = ask(handler, *request);
  if (!answer.ok()) return answer.status();
  const std::string& action = answer->action;
  if (action == "decline" || action == "cancel") return Json{{"action", action}};
  if (action != "accept") {
    return Status::internal("the elicitation handler answered with the action '" + action +
                            "' (accept, decline or cancel)");
  }
  if (!answer->content.is_object())
    return Status::internal("the elicitation handler accepted with content that is not an object");
  return Json{{"action", "accept"}, {"content", answer->content}};
}

}  // namespace hermes::internal
