#include "trajectory.hpp"

namespace hermes_batch {
namespace {

using hermes::Json;
using hermes::Message;
using hermes::Role;

// Compact JSON; invalid UTF-8 (a tool's raw output) becomes U+FFFD instead of throwing.
std::string compact(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Json turn(const char* from, const std::string& value) {
  return Json{{"from", from}, {"value", redact_trajectory_text(value)}};
}

std::string think_block(const Message& m) {
  return "<think>\n" + (m.reasoning.empty() ? "" : m.reasoning + "\n") + "</think>\n";
}

// Arguments as a JSON object; arguments that do not parse become {} (the model saw an
// error result for them already).
Json arguments_of(const hermes::ToolCall& call) {
  Json parsed = Json::parse(call.arguments, nullptr, false);
  return parsed.is_discarded() ? Json::object() : parsed;
}

std::string gpt_value(const Message& m) {
  std::string value = think_block(m) + m.content;
  for (const hermes::ToolCall& call : m.tool_calls) {
    if (!value.empty() && value.back() != '\n') value += '\n';
    // Written by hand: the name leads, as readers of this format expect.
    value += "<tool_call>\n{\"name\":" + compact(call.name) +
             ",\"arguments\":" + compact(arguments_of(call)) + "}\n</tool_call>";
  }
  while (!value.empty() && (value.back() == '\n' || value.back() == ' ')) value.pop_back();
  return value;
}

// JSON-looking results are embedded as JSON, everything else as text.
Json tool_content(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && (text[first] == '{' || text[first] == '[')) {
    Json parsed = Json::parse(text, nullptr, false);
    if (!parsed.is_discarded()) return parsed;
  }
  return text;
}

std::string tool_responses(const std::vector<Message>& t, std::size_t& i) {
  std::string value;
  for (; i < t.size() && t[i].role == Role::kTool; ++i) {
    if (!value.empty()) value += '\n';
    value += "<tool_response>\n{\"tool_call_id\":" + compact(t[i].tool_call_id) +
             ",\"name\":" + compact(t[i].name) +
             ",\"content\":" + compact(tool_content(t[i].content)) + "}\n</tool_response>";
  }
  return value;
}

}  // namespace

std::string redact_trajectory_text(const std::string& text) {
  hermes::RedactionOptions options;
  options.force = true;
  options.redact_url_credentials = true;
  return hermes::redact_sensitive_text(text, options);
}

std::string trajectory_system_message(const Json& definitions) {
  Json tools = Json::array();
  for (const Json& d : definitions) {
    const Json& f = d.contains("function") ? d["function"] : d;
    tools.push_back(Json{{"name", f.value("name", "")},
                         {"description", f.value("description", "")},
                         {"parameters", f.value("parameters", Json::object())}});
  }
  return "You are a function-calling assistant. The functions you may call are listed as JSON "
         "inside <tools></tools>. Call a function only when it helps with the request; "
         "otherwise answer in plain language, and never guess argument values.\n<tools>\n" +
         compact(tools) +
         "\n</tools>\nTo call a function, write a JSON object {\"name\": <function name>, "
         "\"arguments\": <arguments object>} inside <tool_call></tool_call> tags, one call per "
         "tag. Results come back inside <tool_response></tool_response> tags.";
}

Json to_conversations(const std::vector<Message>& transcript, const std::string& prompt,
                      const Json& definitions) {
  Json out = Json::array();
  out.push_back(Json{{"from", "system"}, {"value", trajectory_system_message(definitions)}});
  out.push_back(turn("human", prompt));
  // The transcript opens with the prompt itself, already added above.
  std::size_t i = 0;
  while (i < transcript.size() && transcript[i].role != Role::kUser) ++i;
  ++i;
  while (i < transcript.size()) {
    const Message& m = transcript[i++];
    if (m.role == Role::kUser) {
      out.push_back(turn("human", m.content));
    } else if (m.role == Role::kAssistant) {
      out.push_back(turn("gpt", gpt_value(m)));
      if (!m.tool_calls.empty() && i < transcript.size() && transcript[i].role == Role::kTool) {
        out.push_back(turn("tool", tool_responses(transcript, i)));
      }
    } else if (m.role == Role::kTool) {
      --i;
      out.push_back(turn("tool", tool_responses(transcript, i)));
    }
  }
  return out;
}

}  // namespace hermes_batch
