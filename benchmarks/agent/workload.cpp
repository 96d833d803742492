#include "workload.hpp"

#include <array>
#include <cstdint>
#include <string_view>

namespace hermes::bench {
namespace {

constexpr std::array<std::string_view, 48> kWords = {
    "the",     "function", "returns", "a",         "value",   "when",     "file",   "config",
    "error",   "test",     "build",   "module",    "request", "response", "thread", "buffer",
    "and",     "of",       "to",      "in",        "is",      "with",     "that",   "for",
    "parser",  "session",  "context", "message",   "tool",    "result",   "call",   "stream",
    "because", "should",   "could",   "directory", "import",  "class",    "method", "string",
    "length",  "index",    "memory",  "cache",     "lock",    "queue",    "server", "client"};

// A fixed linear congruential generator: the same history on every machine and run.
class Words {
 public:
  uint32_t next(uint32_t bound) {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(state_ >> 33) % bound;
  }
  std::string text(std::size_t min_bytes, std::size_t max_bytes) {
    std::size_t target = min_bytes + next(static_cast<uint32_t>(max_bytes - min_bytes + 1));
    std::string out;
    out.reserve(target + 16);
    while (out.size() < target) {
      if (!out.empty()) out += next(12) == 0 ? ". " : " ";
      out += kWords[next(kWords.size())];
    }
    out += '.';
    return out;
  }

 private:
  uint64_t state_ = 42;
};

Json user(Words& words) {
  return {{"role", "user"}, {"content", words.text(40, 400)}};
}

Json answer(Words& words) {
  return {{"role", "assistant"}, {"content", words.text(200, 1500)}};
}

// An assistant tool call and its result: a file read of a few kilobytes, say.
void add_tool_exchange(Words& words, int n, Json& out) {
  std::string id = "call_h" + std::to_string(n);
  Json arguments = {{"path", "src/" + words.text(8, 24) + ".cpp"}, {"limit", 200}};
  out.push_back(
      {{"role", "assistant"},
       {"content", ""},
       {"tool_calls",
        Json::array({{{"id", id},
                      {"type", "function"},
                      {"function", {{"name", "read_file"}, {"arguments", arguments.dump()}}}}})}});
  out.push_back({{"role", "tool"}, {"tool_call_id", id}, {"content", words.text(200, 3000)}});
}

}  // namespace

Json make_history(int count) {
  Words words;
  Json out = Json::array();
  int n = 0;
  while (static_cast<int>(out.size()) + 4 <= count) {
    out.push_back(user(words));
    add_tool_exchange(words, n++, out);
    out.push_back(answer(words));
  }
  if (static_cast<int>(out.size()) + 2 <= count) out.push_back(user(words));
  while (static_cast<int>(out.size()) < count) out.push_back(answer(words));
  return out;
}

Json make_script(int steps, bool stream) {
  Json script = Json::array();
  Json usage = {{"prompt_tokens", 1200}, {"completion_tokens", 20}};
  for (int step = 1; step < steps; ++step) {
    Json call = {{"id", "call_" + std::to_string(step)},
                 {"name", "add"},
                 {"arguments", {{"a", step}, {"b", 1}}}};
    script.push_back(
        {{"chat_tool_calls", Json::array({call})}, {"stream", stream}, {"usage", usage}});
  }
  script.push_back(
      {{"chat_text", "All the sums are done: the last one was " + std::to_string(steps) + "."},
       {"stream", stream},
       {"usage", usage}});
  return script;
}

std::string opening_message() {
  return "Add the numbers one step at a time with the add tool, then tell me the last sum.";
}

ToolSpec add_tool() {
  ToolSpec add;
  add.name = "add";
  add.toolset = "bench";
  add.description = "Add two numbers and return their sum.";
  add.parameters = {{"type", "object"},
                    {"properties", {{"a", {{"type", "number"}}}, {"b", {{"type", "number"}}}}},
                    {"required", {"a", "b"}}};
  add.handler = [](const Json& args, ToolContext&) -> Result<std::string> {
    if (!args.contains("a") || !args.contains("b") || !args["a"].is_number() ||
        !args["b"].is_number()) {
      return Status::invalid_argument("a and b must be numbers");
    }
    return Json{{"sum", args["a"].get<double>() + args["b"].get<double>()}}.dump();
  };
  return add;
}

std::size_t text_bytes(const std::vector<Message>& messages) {
  std::size_t bytes = 0;
  for (const Message& message : messages) {
    bytes += message.content.size();
    for (const ToolCall& call : message.tool_calls) bytes += call.arguments.size();
  }
  return bytes;
}

}  // namespace hermes::bench
