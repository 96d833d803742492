// patch: targeted edits. mode "replace" swaps old_string for new_string through the fuzzy
// matcher; mode "patch" applies a V4A patch that may touch several files, all or nothing.
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>

#include "common/atomic_file.hpp"
#include "common/json_text.hpp"
#include "tools/file_tools.hpp"
#include "tools/fuzzy_match.hpp"
#include "tools/tool_args.hpp"
#include "tools/v4a_patch.hpp"

namespace hermes::internal {
namespace {

constexpr int kFailuresBeforeAdvice = 3;
constexpr std::size_t kMaxPatchedFileBytes = 16u << 20;

// Failed patches on one file in a row; after a few the model is told to re-read.
int note_patch_outcome(ToolContext& ctx, const std::string& path, bool failed) {
  auto tracker = file_tracker(ctx);
  std::lock_guard<std::mutex> lock(tracker->mu);
  int& n = tracker->patch_failures[path];
  n = failed ? n + 1 : 0;
  return n;
}

Result<std::string> read_text_file(const std::string& path, const std::string& shown) {
  if (!std::filesystem::is_regular_file(path)) return Status::not_found("File not found: " + shown);
  if (auto binary = binary_file_description(path))
    return Status::invalid_argument("Cannot patch a binary file (" + *binary + ").");
  return read_whole_file(path, kMaxPatchedFileBytes);
}

Result<std::string> run_replace(const FileToolEnv& env, const Json& args, ToolContext& ctx) {
  auto raw = arg_string(args, "path");
  if (!raw.ok()) return raw.status();
  auto old_string = arg_string(args, "old_string");
  if (!old_string.ok()) return old_string.status();
  auto new_string = arg_optional_string(args, "new_string");
  if (!new_string.ok()) return new_string.status();
  auto replace_all = arg_bool(args, "replace_all", false);
  if (!replace_all.ok()) return replace_all.status();
  auto path = resolve_for_write(env, *raw, ctx);
  if (!path.ok()) return path.status();
  const std::string shown = env.roots.display(*path);
  auto content = read_text_file(*path, shown);
  if (!content.ok()) return content.status();

  const std::string replacement = new_string->value_or("");
  FuzzyReplaceResult r = fuzzy_find_and_replace(*content, *old_string, replacement, *replace_all);
  if (!r.error.empty()) {
    if (edit_already_applied(*content, *old_string, replacement)) {
      note_patch_outcome(ctx, *path, false);
      return dump_json({{"success", true},
                        {"path", shown},
                        {"replacements", 0},
                        {"message", "The change is already in the file; nothing to do."}});
    }
    const int failures = note_patch_outcome(ctx, *path, true);
    Json out = tool_failure(r.error);
    if (r.error.rfind("Could not find", 0) == 0) {
      const std::string hint = closest_lines_hint(*old_string, *content);
      out["hint"] = failures >= kFailuresBeforeAdvice
                        ? "Patching " + shown + " failed " + std::to_string(failures) +
                              " times in a row. Stop guessing: re-read the file with read_file, or "
                              "rewrite it with "
                              "write_file."
                        : "Re-read the file with read_file and copy old_string exactly." +
                              (hint.empty() ? std::string() : "\nClosest lines:\n" + hint);
    }
    return dump_json(out);
  }
  if (Status s = write_file_atomically(*path, r.content, FileOwner::kUser); !s.ok()) return s;
  note_patch_outcome(ctx, *path, false);
  remember_file_contents(ctx, *path);
  return dump_json({{"success", true},
                    {"path", shown},
                    {"replacements", r.replacements},
                    {"strategy", r.strategy},
                    {"diff", unified_diff(*content, r.content, shown)}});
}

// One file of a V4A patch, patched in memory.
struct V4aChange {
  std::string path, shown, before, after;
  bool remove = false;
  std::optional<mode_t> mode;  // A moved file keeps its permission bits.
};

// Where a patch went wrong before anything was written: the model's error.
std::string v4a_refusal(const std::string& why) {
  return dump_json(tool_failure(why + " Nothing was changed."));
}

// Writes every new content, then removes what goes (deleted files, the sources of moves):
// a move never loses its file, even when writing the destination fails. A failed write
// puts back what the earlier writes of the patch replaced.
Status apply_v4a_changes(const std::vector<V4aChange>& changes) {
  struct Written {
    const V4aChange* change;
    bool existed;
  };
  std::vector<Written> written;
  for (const V4aChange& c : changes) {
    if (c.remove) continue;
    std::error_code ec;
    const bool existed = std::filesystem::exists(c.path, ec);
    Status s = write_file_atomically(c.path, c.after, FileOwner::kUser);
    if (s.ok() && c.mode) ::chmod(c.path.c_str(), *c.mode);
    if (s.ok()) {
      written.push_back({&c, existed});
      continue;
    }
    for (auto it = written.rbegin(); it != written.rend(); ++it) {
      if (it->existed) {
        (void)write_file_atomically(it->change->path, it->change->before, FileOwner::kUser);
      } else {
        std::filesystem::remove(it->change->path, ec);
      }
    }
    return Status::io_error("cannot write " + c.shown + ": " + s.message() +
                            ". Nothing was changed.");
  }
  for (const V4aChange& c : changes) {
    if (!c.remove) continue;
    std::error_code ec;
    std::filesystem::remove(c.path, ec);
    if (ec) {
      return Status::io_error("cannot delete " + c.shown + ": " + ec.message() +
                              " (the other changes of the patch were made)");
    }
  }
  return {};
}

// Every file of the patch is resolved, read and patched in memory first; only then is
// anything written, so a failing hunk leaves the tree as it was.
Result<std::string> run_v4a(const FileToolEnv& env, const Json& args, ToolContext& ctx) {
  auto text = arg_string(args, "patch");
  if (!text.ok()) return text.status();
  auto ops = parse_v4a_patch(*text);
  if (!ops.ok()) return ops.status();
  std::vector<V4aChange> changes;
  auto claimed = [&](const std::string& path) {
    return std::any_of(changes.begin(), changes.end(),
                       [&](const V4aChange& c) { return c.path == path; });
  };
  for (const V4aFileOp& op : *ops) {
    auto path = resolve_for_write(env, op.path, ctx);
    if (!path.ok()) return path.status();
    V4aChange c{*path, env.roots.display(*path), "", "", false, std::nullopt};
    if (op.kind == V4aFileOp::Kind::kAdd) {
      std::error_code ec;
      if (std::filesystem::exists(*path, ec) || claimed(*path))
        return v4a_refusal("Cannot add " + c.shown + ": it already exists.");
      c.after = op.content;
    } else {
      auto content = read_text_file(*path, c.shown);
      if (!content.ok()) return content.status();
      c.before = c.after = *content;
      c.remove = op.kind == V4aFileOp::Kind::kDelete;
    }
    for (std::size_t h = 0; h < op.hunks.size(); ++h) {
      const V4aHunk& hunk = op.hunks[h];
      if (hunk.old_text.empty()) {
        c.after += (c.after.empty() || c.after.back() == '\n' ? "" : "\n") + hunk.new_text + "\n";
        continue;
      }
      FuzzyReplaceResult r = fuzzy_find_and_replace(c.after, hunk.old_text, hunk.new_text, false);
      if (!r.error.empty()) {
        return dump_json(tool_failure("Hunk " + std::to_string(h + 1) + " of " + c.shown + ": " +
                                      r.error +
                                      ". Nothing was changed; re-read the file and retry."));
      }
      c.after = std::move(r.content);
    }
    if (!op.move_to.empty()) {
      auto target = resolve_for_write(env, op.move_to, ctx);
      if (!target.ok()) return target.status();
      const std::string target_shown = env.roots.display(*target);
      if (*target == c.path) return v4a_refusal("Cannot move " + c.shown + " onto itself.");
      // Moving over a file would destroy it without the patch saying so.
      std::error_code ec;
      if (std::filesystem::exists(*target, ec) || claimed(*target)) {
        return v4a_refusal("Cannot move " + c.shown + " to " + target_shown + ": " + target_shown +
                           " already exists.");
      }
      struct stat source {};
      V4aChange moved{*target, target_shown, "", c.after, false, std::nullopt};
      if (::stat(c.path.c_str(), &source) == 0) moved.mode = source.st_mode & 07777;
      c.remove = true;
      changes.push_back(std::move(c));
      changes.push_back(std::move(moved));
      continue;
    }
    changes.push_back(std::move(c));
  }
  if (Status s = apply_v4a_changes(changes); !s.ok()) return s;
  Json files = Json::array();
  std::string diff;
  for (const V4aChange& c : changes) {
    if (!c.remove) remember_file_contents(ctx, c.path);
    files.push_back(c.shown);
    diff += unified_diff(c.before, c.remove ? "" : c.after, c.shown);
  }
  return dump_json({{"success", true}, {"files", files}, {"diff", diff}});
}

}  // namespace

ToolSpec patch_tool(std::shared_ptr<const FileToolEnv> env) {
  ToolSpec spec;
  spec.name = "patch";
  spec.toolset = "file";
  spec.description =
      "Edit files. mode 'replace' (default): replace old_string with new_string in path; "
      "old_string must match "
      "one place (whitespace and indentation differences are tolerated) unless replace_all is "
      "true; an empty "
      "new_string deletes. mode 'patch': apply a V4A patch ('*** Begin Patch', '*** Update File: "
      "path', '@@', "
      "lines starting with ' ', '-', '+', '*** Add File:', '*** Delete File:', '*** End Patch') to "
      "one or more "
      "files. Returns a unified diff.";
  static const Json kSchema = Json::parse(R"({
    "type": "object",
    "properties": {
      "mode": {"type": "string", "enum": ["replace", "patch"], "default": "replace"},
      "path": {"type": "string", "description": "replace: the file to edit."},
      "old_string": {"type": "string", "description": "replace: the text to find, with enough context to be unique."},
      "new_string": {"type": "string", "description": "replace: the replacement."},
      "replace_all": {"type": "boolean", "description": "replace: change every occurrence."},
      "patch": {"type": "string", "description": "patch: the V4A patch text."}
    }
  })");
  spec.parameters = kSchema;
  spec.handler = [env](const Json& args, ToolContext& ctx) -> Result<std::string> {
    auto mode = arg_optional_string(args, "mode");
    if (!mode.ok()) return mode.status();
    const std::string m = mode->value_or("replace");
    if (m == "patch") return run_v4a(*env, args, ctx);
    if (m != "replace")
      return Status::invalid_argument("mode must be 'replace' or 'patch', got '" + m + "'");
    return run_replace(*env, args, ctx);
  };
  spec.parallel_safe = false;
  spec.path_argument = "path";
  return spec;
}

}  // namespace hermes::internal
