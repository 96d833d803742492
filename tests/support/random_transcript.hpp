// Random transcripts for differential tests: every kind of message the sequence repairs
// and the encoders treat specially (orphan and duplicate tool results, unanswered calls,
// blank and scaffolding messages, thinking-only replies, api_content, image parts,
// arguments that do not parse, invalid UTF-8), from a seeded generator so a failure can
// be replayed.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "hermes/message.hpp"

namespace hermes::testing {

class RandomTranscript {
 public:
  explicit RandomTranscript(uint32_t seed) : rng_(seed) {}

  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  std::string text() {
    static const char* const kTexts[] = {"hello",
                                         "",
                                         "   ",
                                         "line one\nline two \"quoted\"",
                                         "<think>plan</think>",
                                         "<think>plan</think> the answer",
                                         "\xC3\xA9t\xC3\xA9 \xE6\xBC\xA2\xE5\xAD\x97",
                                         "bad \xC3 byte",
                                         "tab\there",
                                         "\x01 control"};
    return kTexts[pick(static_cast<int>(sizeof kTexts / sizeof kTexts[0]))];
  }

  std::string arguments() {
    static const char* const kArgs[] = {"{\"a\": 1, \"b\": 2}",    "",  "{\"a\": [1, 2", "not json",
                                        "{\"path\":\"x\\u00e9\"}", "{}"};
    return kArgs[pick(static_cast<int>(sizeof kArgs / sizeof kArgs[0]))];
  }

  Message user() {
    Message m = Message::user(text());
    switch (pick(6)) {
      case 0:
        m.api_content = m.content + " [context]";
        break;
      case 1:
        m.parts = Json::array({{{"type", "text"}, {"text", m.content}},
                               {{"type", "image_url"}, {"image_url", {{"url", "data:x"}}}}});
        break;
      case 2:
        m.scaffolding = true;
        break;
      default:
        break;
    }
    if (pick(3) == 0) m.timestamp = 1700000000.5 + pick(100);
    if (pick(4) == 0) m.extra = Json{{"_hermes_turn_id", "t" + std::to_string(pick(5))}};
    return m;
  }

  Message assistant_with_calls() {
    Message m = Message::assistant(pick(2) == 0 ? std::string() : text());
    const int calls = 1 + pick(3);
    for (int i = 0; i < calls; ++i) {
      ToolCall call;
      call.id = "call_" + std::to_string(next_id_++);
      call.name = pick(5) == 0 ? "bad\xC3name" : "add";
      call.arguments = arguments();
      m.tool_calls.push_back(call);
      open_.push_back(call.id);
    }
    if (pick(3) == 0) m.reasoning = "thinking " + text();
    if (pick(4) == 0)
      m.reasoning_details = Json::array({{{"type", "reasoning.text"}, {"text", "r"}}});
    m.finish_reason = "tool_calls";
    return m;
  }

  Message assistant_text() {
    Message m = Message::assistant(text());
    if (pick(3) == 0) m.reasoning = "why";
    if (pick(5) == 0) m.scaffolding = true;
    return m;
  }

  Message tool_result() {
    std::string id;
    if (!open_.empty() && pick(5) != 0) {
      const int i = pick(static_cast<int>(open_.size()));
      id = open_[i];
      if (pick(4) != 0) open_.erase(open_.begin() + i);  // Else a duplicate may follow.
    } else {
      id = "call_orphan_" + std::to_string(pick(3));
    }
    Message m = Message::tool(id, "add", text());
    if (pick(6) == 0) {
      m.parts = Json::array({{{"type", "image_url"}, {"image_url", {{"url", "data:y"}}}}});
    }
    return m;
  }

  Message any() {
    switch (pick(7)) {
      case 0:
      case 1:
        return user();
      case 2:
      case 3:
        return assistant_with_calls();
      case 4:
        return assistant_text();
      default:
        return tool_result();
    }
  }

  std::vector<Message> messages(int n) {
    std::vector<Message> out;
    for (int i = 0; i < n; ++i) out.push_back(any());
    return out;
  }

  // A tool step as the loop appends it: the calls, then some of their results.
  std::vector<Message> tool_step() {
    std::vector<Message> out{assistant_with_calls()};
    const int results = pick(4);
    for (int i = 0; i < results; ++i) out.push_back(tool_result());
    return out;
  }

 private:
  std::mt19937 rng_;
  int next_id_ = 0;
  std::vector<std::string> open_;
};

}  // namespace hermes::testing
