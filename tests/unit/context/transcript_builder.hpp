// Helpers for the context tests: fixtures, transcripts built turn by turn, a scripted
// summariser, and the validity check every compacted transcript must pass.
#pragma once

#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "hermes/context_compressor.hpp"
#include "hermes/json.hpp"
#include "hermes/message.hpp"
#include "support/scripted_provider.hpp"

namespace hermes::testing {

inline std::string read_fixture_text(const std::string& relative) {
  std::ifstream in(std::string(HERMES_FIXTURES_DIR) + "/context/" + relative);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

inline Json load_fixture(const std::string& relative) {
  return Json::parse(read_fixture_text(relative));
}

inline std::string fixture_text(const std::string& key) {
  return load_fixture("markers.json").at(key).get<std::string>();
}

// Builds a transcript with unique tool-call ids.
class TranscriptBuilder {
 public:
  TranscriptBuilder& system(std::string text) { return add(Message::system(std::move(text))); }
  TranscriptBuilder& user(std::string text) { return add(Message::user(std::move(text))); }
  TranscriptBuilder& assistant(std::string text) {
    return add(Message::assistant(std::move(text)));
  }

  // An assistant message (saying `text`) calling one tool, then its result.
  TranscriptBuilder& tool_round(const std::string& name, const std::string& args,
                                const std::string& result, const std::string& text = "") {
    return parallel_round({{name, args, result}}, text);
  }

  // An assistant message calling several tools at once, then their results in order.
  TranscriptBuilder& parallel_round(
      const std::vector<std::tuple<std::string, std::string, std::string>>& calls,
      const std::string& text = "") {
    Message a = Message::assistant(text);
    std::vector<Message> results;
    for (const auto& [name, args, result] : calls) {
      ToolCall call;
      call.id = "call_" + std::to_string(next_id_++);
      call.name = name;
      call.arguments = args;
      a.tool_calls.push_back(call);
      results.push_back(Message::tool(call.id, name, result));
    }
    add(std::move(a));
    for (auto& r : results) add(std::move(r));
    return *this;
  }

  TranscriptBuilder& add(Message m) {
    messages_.push_back(std::move(m));
    return *this;
  }

  const std::vector<Message>& messages() const { return messages_; }
  std::vector<Message> build() const { return messages_; }

 private:
  std::vector<Message> messages_;
  int next_id_ = 1;
};

// A text of `chars` characters that mentions `tag` (so outputs stay distinguishable).
inline std::string bulk(const std::string& tag, std::size_t chars) {
  std::string out = tag + ":";
  while (out.size() < chars) out += " lorem ipsum dolor sit amet";
  out.resize(chars);
  return out;
}

// "" when `messages` is a transcript every provider accepts, else what is wrong: each
// assistant's tool calls are followed by exactly their results, results appear nowhere
// else, and user and assistant turns alternate (an assistant turn may span tool rounds).
inline std::string transcript_problem(const std::vector<Message>& messages) {
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const Message& m = messages[i];
    if (m.role == Role::kTool) return "orphan tool result at " + std::to_string(i);
    if (m.role != Role::kAssistant || m.tool_calls.empty()) continue;
    std::vector<std::string> open;
    for (const auto& c : m.tool_calls) open.push_back(c.id);
    std::size_t j = i + 1;
    for (; j < messages.size() && messages[j].role == Role::kTool; ++j) {
      auto it = std::find(open.begin(), open.end(), messages[j].tool_call_id);
      if (it == open.end()) {
        return "result " + messages[j].tool_call_id + " does not answer the call at " +
               std::to_string(i);
      }
      open.erase(it);
    }
    if (!open.empty())
      return "call " + open.front() + " at " + std::to_string(i) + " has no result";
    i = j - 1;
  }
  const Message* previous = nullptr;
  bool tool_since_previous = false;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const Message& m = messages[i];
    if (m.role == Role::kTool) {
      tool_since_previous = true;
      continue;
    }
    if (previous != nullptr && previous->role == m.role &&
        (m.role == Role::kUser || (m.role == Role::kAssistant && !tool_since_previous))) {
      return "two " + std::string(role_name(m.role)) + " messages in a row at " + std::to_string(i);
    }
    previous = &m;
    tool_since_previous = false;
  }
  return "";
}

// A summary body in the template's shape.
inline std::string summary_body(const std::string& detail) {
  return "## Historical Task Snapshot\nUser asked: 'keep going'\n\n## Goal\n" + detail +
         "\n\n## Completed Actions\n1. READ a.py \xE2\x80\x94 fine [tool: read_file]\n\n## "
         "Critical Context\nnone";
}

// A provider that answers summary requests in order from `answers` ("" for an empty answer).
inline std::shared_ptr<ScriptedProvider> summariser(const std::vector<std::string>& answers) {
  auto p = std::make_shared<ScriptedProvider>();
  for (const auto& a : answers) p->text(a);
  return p;
}

// The text of the one user message of a summary request.
inline std::string prompt_of(const ProviderRequest& r) {
  return r.messages.empty() ? std::string() : r.messages.front().content;
}

}  // namespace hermes::testing
