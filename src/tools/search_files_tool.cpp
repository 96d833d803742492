// search_files: regex search of file contents, or glob search of file names, under the
// file tools' roots. Hidden directories and dependency caches are skipped (ripgrep skips
// them too), as are binary files and files the guards keep from being read.
#include <fnmatch.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "common/json_text.hpp"
#include "common/utf8.hpp"
#include "hermes/redaction.hpp"
#include "safety/file_guard.hpp"
#include "safety/private_keys.hpp"
#include "safety/redaction_passes.hpp"
#include "safety/regex.hpp"
#include "tools/file_tools.hpp"
#include "tools/tool_args.hpp"

namespace fs = std::filesystem;

namespace hermes::internal {
namespace {

constexpr std::size_t kMaxMatchLineChars = 500;
constexpr uintmax_t kMaxSearchedFileBytes = 50u << 20;
// Only this much of a line is searched: longer ones are minified or generated code, where
// a match is found in the head as often as anywhere, and every search of a line must fit
// the regex work budget.
constexpr std::size_t kMaxSearchedLineBytes = 64u << 10;
// How often the walk looks at the cancel token, in directory entries.
constexpr std::size_t kCancelCheckInterval = 256;

struct SearchRequest {
  std::string pattern;
  bool content = true;
  std::string root;  // Resolved.
  std::string file_glob;
  int64_t limit = 50;
  int64_t offset = 0;
  std::string mode = "content";  // content | files_only | count
  int64_t context = 0;
};

struct Walk {
  std::vector<fs::path> files;
  int omitted = 0;
  bool cancelled = false;  // The walk stopped early: the call was cancelled.
};

Status search_cancelled() {
  return Status::cancelled("search_files was interrupted before it finished");
}

bool skipped_dir(const fs::path& p) {
  const std::string name = p.filename().string();
  return (!name.empty() && name[0] == '.') || name == "node_modules" || name == "__pycache__";
}

bool glob_matches(const std::string& glob, const fs::path& file, const std::string& relative) {
  if (glob.empty()) return true;
  const std::string& subject =
      glob.find('/') != std::string::npos ? relative : file.filename().string();
  return ::fnmatch(glob.c_str(), subject.c_str(), 0) == 0;
}

// Symlinks are not followed: one could lead out of the roots.
Walk walk(const SearchRequest& req, const FileGuard& guard, const CancelToken& cancel) {
  Walk w;
  std::error_code ec;
  if (fs::is_regular_file(req.root, ec)) {
    w.files.emplace_back(req.root);
    return w;
  }
  fs::recursive_directory_iterator it(req.root, fs::directory_options::skip_permission_denied, ec);
  for (std::size_t seen = 0; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (++seen % kCancelCheckInterval == 0 && cancel.cancelled()) {
      w.cancelled = true;
      return w;
    }
    if (it->is_symlink(ec)) continue;
    if (it->is_directory(ec)) {
      if (skipped_dir(it->path())) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(ec)) continue;
    if (guard.check_read(it->path().string())) {
      ++w.omitted;
      continue;
    }
    w.files.push_back(it->path());
  }
  std::sort(w.files.begin(), w.files.end());
  return w;
}

bool is_binary(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  char buf[8192];
  in.read(buf, sizeof buf);
  return std::string_view(buf, static_cast<std::size_t>(in.gcount())).find('\0') !=
         std::string_view::npos;
}

std::string clip(std::string line) {
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (utf8_length(line) > kMaxMatchLineChars)
    line = std::string(utf8_head(line, kMaxMatchLineChars)) + "... [truncated]";
  RedactionOptions o;
  o.file_read = true;
  return redact_sensitive_text(line, o);
}

Json search_names(const SearchRequest& req, const Walk& w, const FileRoots& roots,
                  bool& truncated) {
  std::vector<std::pair<fs::file_time_type, std::string>> found;
  for (const fs::path& f : w.files) {
    const std::string rel = roots.display(f.string());
    if (::fnmatch(req.pattern.c_str(), f.filename().string().c_str(), 0) != 0 &&
        ::fnmatch(req.pattern.c_str(), rel.c_str(), 0) != 0) {
      continue;
    }
    std::error_code ec;
    found.emplace_back(fs::last_write_time(f, ec), rel);
  }
  // Most recently modified first, as upstream sorts file results.
  std::sort(found.begin(), found.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  Json files = Json::array();
  for (std::size_t i = static_cast<std::size_t>(req.offset);
       i < found.size() && files.size() < static_cast<std::size_t>(req.limit); ++i) {
    files.push_back(found[i].second);
  }
  truncated = found.size() > static_cast<std::size_t>(req.offset + req.limit);
  return {{"files", files}, {"total", found.size()}};
}

// The part of `line` that is searched; counts the lines that were cut.
std::string_view searched_part(std::string_view line, std::size_t& long_lines) {
  if (line.size() <= kMaxSearchedLineBytes) return line;
  ++long_lines;
  return line.substr(0, utf8_prefix_length(line, kMaxSearchedLineBytes));
}

// Whether line `number` of `rel` matches; the error says where a search ran out of budget.
Result<bool> line_matches(const Regex& re, std::string_view line, const std::string& rel,
                          std::size_t number) {
  Result<bool> found = re.try_search(line);
  if (found.ok()) return found;
  return Status::resource_exhausted("search_files stopped at " + rel + ":" +
                                    std::to_string(number) + ": " + found.status().message());
}

Result<Json> search_contents(const SearchRequest& req, const Regex& re, const Walk& w,
                             const FileRoots& roots, const CancelToken& cancel, bool& truncated,
                             std::size_t& long_lines) {
  Json matches = Json::array();
  Json counts = Json::object();
  Json names = Json::array();
  int64_t seen = 0;
  const auto wanted = static_cast<std::size_t>(req.limit);
  for (const fs::path& f : w.files) {
    if (cancel.cancelled()) return search_cancelled();
    std::error_code ec;
    if (!glob_matches(req.file_glob, f, roots.display(f.string())) ||
        fs::file_size(f, ec) > kMaxSearchedFileBytes || is_binary(f))
      continue;
    std::ifstream in(f, std::ios::binary);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(std::move(line));
    const std::string rel = roots.display(f.string());
    int64_t in_file = 0;
    // A line from inside a key looks like any base64 on its own; the file says what it is.
    std::optional<std::vector<bool>> key_lines;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      // A line may take a whole regex budget: look at the token before every one.
      if (cancel.cancelled()) return search_cancelled();
      Result<bool> found = line_matches(re, searched_part(lines[i], long_lines), rel, i + 1);
      if (!found.ok()) return found.status();
      if (!*found) continue;
      ++in_file;
      if (req.mode != "content") continue;
      if (seen++ < req.offset) continue;
      if (matches.size() >= wanted) {
        truncated = true;
        break;
      }
      const std::size_t from = i >= static_cast<std::size_t>(req.context)
                                   ? i - static_cast<std::size_t>(req.context)
                                   : 0;
      const std::size_t to = std::min(lines.size(), i + static_cast<std::size_t>(req.context) + 1);
      if (!key_lines) {
        key_lines =
            redaction_enabled() ? private_key_lines(lines) : std::vector<bool>(lines.size(), false);
      }
      for (std::size_t k = from; k < to; ++k) {
        Json m = {{"path", rel},
                  {"line", k + 1},
                  {"text", (*key_lines)[k] ? "[REDACTED PRIVATE KEY]" : clip(lines[k])}};
        if (k != i) m["context"] = true;
        matches.push_back(std::move(m));
      }
    }
    if (in_file > 0) {
      counts[rel] = in_file;
      names.push_back(rel);
    }
    if (truncated) break;
  }
  if (req.mode == "count") return Json{{"counts", counts}};
  if (req.mode == "files_only") {
    Json page = Json::array();
    for (std::size_t i = static_cast<std::size_t>(req.offset);
         i < names.size() && page.size() < wanted; ++i)
      page.push_back(names[i]);
    truncated = names.size() > static_cast<std::size_t>(req.offset) + wanted;
    return Json{{"files", page}, {"total", names.size()}};
  }
  return Json{{"matches", matches}};
}

Result<SearchRequest> parse_request(const FileToolEnv& env, const Json& args, ToolContext& ctx) {
  SearchRequest req;
  auto pattern = arg_string(args, "pattern");
  if (!pattern.ok()) return pattern.status();
  req.pattern = *pattern;
  auto target = arg_optional_string(args, "target");
  if (!target.ok()) return target.status();
  const std::string t = target->value_or("content");
  if (t != "content" && t != "files" && t != "grep" && t != "find") {
    return Status::invalid_argument("target must be 'content' or 'files', got '" + t + "'");
  }
  req.content = t == "content" || t == "grep";
  auto path = arg_optional_string(args, "path");
  auto glob = arg_optional_string(args, "file_glob");
  auto mode = arg_optional_string(args, "output_mode");
  auto limit = arg_optional_int(args, "limit");
  auto offset = arg_optional_int(args, "offset");
  auto context = arg_optional_int(args, "context");
  for (const Status& s : {path.status(), glob.status(), mode.status(), limit.status(),
                          offset.status(), context.status()}) {
    if (!s.ok()) return s;
  }
  auto root = resolve_for_read(env, path->value_or("."), ctx);
  if (!root.ok()) return root.status();
  req.root = *root;
  req.file_glob = glob->value_or("");
  req.mode = mode->value_or("content");
  if (req.mode != "content" && req.mode != "files_only" && req.mode != "count") {
    return Status::invalid_argument("output_mode must be content, files_only or count");
  }
  req.limit = std::clamp<int64_t>(limit->value_or(50), 1, 1000);
  req.offset = std::max<int64_t>(0, offset->value_or(0));
  req.context = std::clamp<int64_t>(context->value_or(0), 0, 20);
  return req;
}

Result<std::string> run_search(const FileToolEnv& env, const Json& args, ToolContext& ctx) {
  auto req = parse_request(env, args, ctx);
  if (!req.ok()) return req.status();
  const int repeats = note_file_call(ctx, "search_files\n" + dump_json(args));
  if (repeats >= 4) {
    return Status::failed_precondition(
        "BLOCKED: this exact search ran " + std::to_string(repeats) +
        " times in a row. Use the results you have or search differently.");
  }
  std::optional<Regex> re;
  if (req->content) {
    auto compiled = Regex::compile(req->pattern);
    if (!compiled.ok())
      return Status::invalid_argument("Invalid regex: " + compiled.status().message());
    re = std::move(*compiled);
  }
  const Walk files = walk(*req, make_file_guard(ctx.home), ctx.cancel);
  if (files.cancelled) return search_cancelled();
  bool truncated = false;
  std::size_t long_lines = 0;
  Json result;
  if (req->content) {
    Result<Json> found =
        search_contents(*req, *re, files, env.roots, ctx.cancel, truncated, long_lines);
    if (!found.ok()) return found.status();
    result = std::move(*found);
  } else {
    result = search_names(*req, files, env.roots, truncated);
  }
  result["truncated"] = truncated;
  if (long_lines > 0) {
    result["_long_lines"] = std::to_string(long_lines) + " line(s) longer than " +
                            std::to_string(kMaxSearchedLineBytes) +
                            " bytes were searched only in their first " +
                            std::to_string(kMaxSearchedLineBytes) + " bytes.";
  }
  if (truncated) {
    result["hint"] =
        "[Hint: Results truncated. Use offset=" + std::to_string(req->offset + req->limit) +
        " to see more, or narrow the pattern, path or file_glob.]";
  }
  if (files.omitted > 0) {
    result["_omitted"] = std::to_string(files.omitted) + " file(s) holding secrets were skipped.";
  }
  if (repeats == 3)
    result["warning"] = "You have run this exact search 3 times in a row; a 4th will be blocked.";
  return dump_json(result);
}

}  // namespace

ToolSpec search_files_tool(std::shared_ptr<const FileToolEnv> env) {
  ToolSpec spec;
  spec.name = "search_files";
  spec.toolset = "file";
  spec.description =
      "Search files. target 'content' (default): lines matching a regular expression (Python "
      "syntax), "
      "optionally only in files matching file_glob, with context lines; output_mode files_only or "
      "count "
      "summarise. target 'files': file names matching a glob, newest first. Results are paged with "
      "limit "
      "(default 50) and offset. Use this instead of grep/find in the terminal.";
  static const Json kSchema = Json::parse(R"({
    "type": "object",
    "properties": {
      "pattern": {"type": "string", "description": "A regex for content, a glob for files."},
      "target": {"type": "string", "enum": ["content", "files"], "default": "content"},
      "path": {"type": "string", "description": "Directory or file to search; default the working directory."},
      "file_glob": {"type": "string", "description": "content: only files matching this glob, e.g. '*.py'."},
      "limit": {"type": "integer", "default": 50},
      "offset": {"type": "integer", "default": 0},
      "output_mode": {"type": "string", "enum": ["content", "files_only", "count"], "default": "content"},
      "context": {"type": "integer", "description": "Lines of context around each match.", "default": 0}
    },
    "required": ["pattern"]
  })");
  spec.parameters = kSchema;
  spec.handler = [env](const Json& args, ToolContext& ctx) { return run_search(*env, args, ctx); };
  return spec;
}

}  // namespace hermes::internal
