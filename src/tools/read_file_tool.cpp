// read_file: a page of a text file with line numbers ("N|text"), secrets redacted.
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "common/json_text.hpp"
#include "common/utf8.hpp"
#include "hermes/redaction.hpp"
#include "safety/redaction_passes.hpp"
#include "tools/file_tool_env.hpp"
#include "tools/file_tools.hpp"
#include "tools/sequence_similarity.hpp"
#include "tools/tool_args.hpp"

namespace fs = std::filesystem;

namespace hermes::internal {
namespace {

constexpr int64_t kDefaultLimit = 500;
constexpr int64_t kMaxLimit = 2000;
constexpr std::size_t kMaxLineChars = 2000;

struct Page {
  std::string content;
  int64_t first = 0;  // 1-based number of the first line shown.
  int64_t last = 0;
  int64_t total_lines = 0;
};

std::string numbered(int64_t n, std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::string text = utf8_length(line) > kMaxLineChars
                         ? std::string(utf8_head(line, kMaxLineChars)) + "... [truncated]"
                         : std::string(line);
  return std::to_string(n) + "|" + text + "\n";
}

// Streams the file once: keeps lines [offset, offset + limit) and counts the rest, so a
// huge file never sits in memory whole.
Page read_page(const std::string& path, int64_t offset, int64_t limit) {
  Page page;
  std::ifstream in(path, std::ios::binary);
  std::string line;
  int64_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (n >= offset && n < offset + limit) {
      if (page.first == 0) page.first = n;
      page.last = n;
      page.content += numbered(n, line);
    }
  }
  page.total_lines = n;
  return page;
}

// Up to three names in the same directory that look like the one asked for.
std::string similar_names(const std::string& path) {
  const fs::path p(path);
  std::error_code ec;
  std::vector<std::pair<double, std::string>> scored;
  for (const auto& entry : fs::directory_iterator(p.parent_path(), ec)) {
    const std::string name = entry.path().filename().string();
    const double r = similarity_ratio(name, p.filename().string());
    if (r >= 0.6) scored.emplace_back(r, name);
  }
  std::sort(scored.begin(), scored.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string out;
  for (std::size_t i = 0; i < scored.size() && i < 3; ++i)
    out += (i ? ", " : "") + scored[i].second;
  return out;
}

Result<std::string> special_file_error(const std::string& path, const std::string& shown) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const std::string similar = similar_names(path);
    return Status::not_found("File not found: " + shown +
                             (similar.empty() ? "" : ". Did you mean: " + similar + "?"));
  }
  if (S_ISDIR(st.st_mode))
    return Status::invalid_argument("'" + shown +
                                    "' is a directory; use search_files to list files.");
  // Devices and pipes can block or never end (/dev/zero, /dev/stdin, /dev/tty).
  if (!S_ISREG(st.st_mode))
    return Status::invalid_argument("Cannot read '" + shown + "': it is a device or special file.");
  return std::string();
}

Result<std::string> run_read(const FileToolEnv& env, const Json& args, ToolContext& ctx) {
  auto raw = arg_string(args, "path");
  if (!raw.ok()) return raw.status();
  auto offset_arg = arg_optional_int(args, "offset");
  if (!offset_arg.ok()) return offset_arg.status();
  auto limit_arg = arg_optional_int(args, "limit");
  if (!limit_arg.ok()) return limit_arg.status();
  const int64_t offset = std::max<int64_t>(1, offset_arg->value_or(1));
  const int64_t limit = std::clamp<int64_t>(limit_arg->value_or(kDefaultLimit), 1, kMaxLimit);

  auto path = resolve_for_read(env, *raw, ctx);
  if (!path.ok()) return path.status();
  const std::string shown = env.roots.display(*path);
  if (auto special = special_file_error(*path, shown); !special.ok()) return special.status();
  if (auto binary = binary_file_description(*path)) {
    return Status::invalid_argument("Binary file (" + *binary +
                                    ") \xE2\x80\x94 cannot display as text.");
  }

  const int repeats = note_file_call(
      ctx, "read_file\n" + *path + "\n" + std::to_string(offset) + "\n" + std::to_string(limit));
  const auto stamp = stamp_of(*path);
  auto tracker = file_tracker(ctx);
  {
    std::lock_guard<std::mutex> lock(tracker->mu);
    auto seen = tracker->last_read.find(*path);
    const bool unchanged = seen != tracker->last_read.end() && stamp && seen->second == *stamp;
    if (repeats >= 4) {
      return Status::failed_precondition("BLOCKED: this is the same read of " + shown + " " +
                                         std::to_string(repeats) +
                                         " times in a row and the file has not changed. Use the "
                                         "content you already have, read another range, "
                                         "or change approach.");
    }
    if (repeats >= 2 && unchanged) {
      Json stub = {{"content", ""},
                   {"unchanged", true},
                   {"message", shown + " has not changed since your last read of this range; refer "
                                       "to the earlier result."}};
      if (repeats == 3)
        stub["warning"] = "You have made this exact read 3 times in a row; a 4th will be blocked.";
      return dump_json(stub);
    }
    if (stamp) tracker->last_read[*path] = *stamp;
  }

  Page page = read_page(*path, offset, limit);
  if (page.content.size() > env.options.max_read_chars) {
    return Status::resource_exhausted(
        "Lines " + std::to_string(offset) + "-" + std::to_string(page.last) + " of " + shown +
        " are " + std::to_string(page.content.size()) + " characters, more than the " +
        std::to_string(env.options.max_read_chars) +
        " a read may return. Read fewer lines with offset and limit.");
  }
  RedactionOptions redaction;
  redaction.file_read = true;
  redaction.secret_file = is_secret_bearing_path(*path, ctx.home);
  const bool truncated = page.last < page.total_lines && page.last >= offset;
  Json result = {{"content", redact_sensitive_text(page.content, redaction)},
                 {"total_lines", page.total_lines},
                 {"file_size", stamp ? stamp->size : 0},
                 {"truncated", truncated}};
  if (truncated) {
    result["hint"] = "Use offset=" + std::to_string(page.last + 1) +
                     " to continue reading (showing " + std::to_string(page.first) + "-" +
                     std::to_string(page.last) + " of " + std::to_string(page.total_lines) +
                     " lines)";
  } else if (page.first == 0 && page.total_lines > 0) {
    result["hint"] = "offset " + std::to_string(offset) + " is past the end of the file (" +
                     std::to_string(page.total_lines) + " lines)";
  }
  return dump_json(result);
}

}  // namespace

ToolSpec read_file_tool(std::shared_ptr<const FileToolEnv> env) {
  ToolSpec spec;
  spec.name = "read_file";
  spec.toolset = "file";
  spec.description =
      "Read a text file with line numbers (each line as 'N|text'). Reads 500 lines from offset "
      "(1-based) by "
      "default, at most 2000; long files say how to continue. Use this instead of cat/head/tail in "
      "the "
      "terminal. Binary files and devices are refused; secrets in the output are masked.";
  static const Json kSchema = Json::parse(R"({
    "type": "object",
    "properties": {
      "path": {"type": "string", "description": "The file, relative to the working directory or absolute."},
      "offset": {"type": "integer", "description": "The first line to read, 1-based.", "default": 1},
      "limit": {"type": "integer", "description": "How many lines to read (max 2000).", "default": 500}
    },
    "required": ["path"]
  })");
  spec.parameters = kSchema;
  spec.handler = [env](const Json& args, ToolContext& ctx) { return run_read(*env, args, ctx); };
  return spec;
}

}  // namespace hermes::internal
