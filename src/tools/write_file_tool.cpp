// write_file: replace a whole file (creating it and its directories), atomically.
#include <algorithm>

#include "common/atomic_file.hpp"
#include "common/json_text.hpp"
#include "common/text_utils.hpp"
#include "tools/file_tools.hpp"
#include "tools/tool_args.hpp"

namespace hermes::internal {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

// Models sometimes write back what read_file showed them: most lines prefixed with
// consecutive "N|" numbers.
bool looks_like_read_file_output(const std::string& content) {
  std::vector<std::string_view> lines;
  for (std::size_t b = 0; b < content.size();) {
    std::size_t e = content.find('\n', b);
    if (e == std::string::npos) e = content.size();
    if (content.find_first_not_of(" \t\r", b) < e) lines.emplace_back(content.data() + b, e - b);
    b = e + 1;
  }
  if (lines.size() < 2) return false;
  std::size_t numbered = 0;
  long expected = -1;
  for (std::string_view l : lines) {
    std::size_t i = 0;
    while (i < l.size() && l[i] == ' ') ++i;
    std::size_t j = i;
    while (j < l.size() && l[j] >= '0' && l[j] <= '9') ++j;
    if (j == i || j - i > 9 || j >= l.size() || l[j] != '|') continue;
    const long n = std::stol(std::string(l.substr(i, j - i)));
    if (expected < 0 || n == expected) ++numbered;
    expected = n + 1;
  }
  return numbered * 10 >= lines.size() * 6;
}

// An existing file keeps its line endings and byte-order mark.
std::string match_existing_style(std::string content, const std::string& existing) {
  const auto newlines = std::count(existing.begin(), existing.end(), '\n');
  std::size_t crlf = 0;
  for (std::size_t p = existing.find("\r\n"); p != std::string::npos;
       p = existing.find("\r\n", p + 2))
    ++crlf;
  if (newlines > 0 && crlf * 2 > static_cast<std::size_t>(newlines) &&
      content.find("\r\n") == std::string::npos) {
    std::string converted;
    for (char c : content) {
      if (c == '\n') converted += '\r';
      converted += c;
    }
    content = std::move(converted);
  }
  if (starts_with(existing, kBom) && !starts_with(content, kBom))
    content = std::string(kBom) + content;
  return content;
}

Result<std::string> run_write(const FileToolEnv& env, const Json& args, ToolContext& ctx) {
  auto raw = arg_string(args, "path");
  if (!raw.ok()) return raw.status();
  if (!args.contains("content") || args["content"].is_null()) {
    return Status::invalid_argument(
        "write_file requires 'content' (the whole new file text); it was missing.");
  }
  auto content = arg_string(args, "content");
  if (!content.ok()) return content.status();
  if (looks_like_read_file_output(*content)) {
    return Status::invalid_argument(
        "The content looks like read_file output (lines prefixed with 'N|'). Write the file's "
        "actual text, without "
        "the line numbers.");
  }
  auto path = resolve_for_write(env, *raw, ctx);
  if (!path.ok()) return path.status();
  const auto before = stamp_of(*path);
  std::string text = *content;
  std::optional<std::string> warning;
  if (before) {
    auto existing = read_whole_file(*path);
    if (existing.ok()) text = match_existing_style(text, *existing);
    auto tracker = file_tracker(ctx);
    std::lock_guard<std::mutex> lock(tracker->mu);
    auto seen = tracker->last_read.find(*path);
    if (seen == tracker->last_read.end()) {
      warning =
          "You overwrote an existing file you had not read in this session; make sure nothing was "
          "lost.";
    } else if (seen->second != *before) {
      warning = "The file had changed since you last read it; those changes were overwritten.";
    }
  }
  if (Status s = write_file_atomically(*path, text, FileOwner::kUser); !s.ok()) return s;
  remember_file_contents(ctx, *path);
  Json result = {{"success", true},
                 {"path", env.roots.display(*path)},
                 {"bytes_written", text.size()},
                 {"created", !before}};
  if (warning) result["warning"] = *warning;
  return dump_json(result);
}

}  // namespace

void remember_file_contents(ToolContext& ctx, const std::string& path) {
  auto tracker = file_tracker(ctx);
  std::lock_guard<std::mutex> lock(tracker->mu);
  if (auto stamp = stamp_of(path)) tracker->last_read[path] = *stamp;
  tracker->last_call.clear();  // A write ends any run of repeated reads.
  tracker->repeats = 0;
}

ToolSpec write_file_tool(std::shared_ptr<const FileToolEnv> env) {
  ToolSpec spec;
  spec.name = "write_file";
  spec.toolset = "file";
  spec.description =
      "Write a whole file, replacing it if it exists and creating missing directories. Prefer "
      "patch for "
      "changes to an existing file. An existing file keeps its line endings. Content must be the "
      "real text, "
      "not read_file output with line numbers.";
  static const Json kSchema = Json::parse(R"({
    "type": "object",
    "properties": {
      "path": {"type": "string", "description": "The file to write."},
      "content": {"type": "string", "description": "The complete new content."}
    },
    "required": ["path", "content"]
  })");
  spec.parameters = kSchema;
  spec.handler = [env](const Json& args, ToolContext& ctx) { return run_write(*env, args, ctx); };
  spec.parallel_safe = false;
  spec.path_argument = "path";
  return spec;
}

}  // namespace hermes::internal
