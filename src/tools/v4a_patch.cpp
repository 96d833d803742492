#include "tools/v4a_patch.hpp"

#include "common/text_utils.hpp"

namespace hermes::internal {
namespace {

std::string trim_line(std::string_view s) {
  const std::size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return "";
  return std::string(s.substr(b, s.find_last_not_of(" \t\r") - b + 1));
}

Status line_error(int number, const std::string& what) {
  return Status::invalid_argument("patch line " + std::to_string(number) + ": " + what);
}

// Adds one hunk line to `hunk`; each side gets its newline.
void add_hunk_line(V4aHunk& hunk, std::string_view line) {
  const char kind = line.empty() ? ' ' : line[0];
  const std::string text(line.empty() ? line : line.substr(1));
  if (kind != '+') hunk.old_text += text + "\n";
  if (kind != '-') hunk.new_text += text + "\n";
}

// Hunks end at a line boundary; the fuzzy matcher wants them without the final newline.
void close_hunk(std::vector<V4aHunk>& hunks, V4aHunk& hunk) {
  if (hunk.old_text.empty() && hunk.new_text.empty()) return;
  if (!hunk.old_text.empty()) hunk.old_text.pop_back();
  if (!hunk.new_text.empty()) hunk.new_text.pop_back();
  hunks.push_back(std::move(hunk));
  hunk = {};
}

}  // namespace

Result<std::vector<V4aFileOp>> parse_v4a_patch(std::string_view text) {
  std::vector<std::string_view> lines;
  for (std::size_t b = 0; b <= text.size();) {
    std::size_t e = text.find('\n', b);
    if (e == std::string_view::npos) e = text.size();
    std::string_view l = text.substr(b, e - b);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    lines.push_back(l);
    b = e + 1;
  }
  std::size_t i = 0;
  while (i < lines.size() && trim_line(lines[i]).empty()) ++i;
  if (i >= lines.size() || trim_line(lines[i]) != "*** Begin Patch")
    return line_error(static_cast<int>(i + 1), "expected '*** Begin Patch'");
  std::vector<V4aFileOp> ops;
  V4aHunk hunk;
  bool ended = false;
  for (++i; i < lines.size() && !ended; ++i) {
    const std::string_view l = lines[i];
    const int number = static_cast<int>(i + 1);
    auto header = [&](std::string_view prefix, V4aFileOp::Kind kind) {
      if (!ops.empty()) close_hunk(ops.back().hunks, hunk);
      V4aFileOp op;
      op.kind = kind;
      op.path = trim_line(l.substr(prefix.size()));
      ops.push_back(std::move(op));
    };
    if (starts_with(l, "*** End Patch")) {
      ended = true;
    } else if (starts_with(l, "*** Update File:")) {
      header("*** Update File:", V4aFileOp::Kind::kUpdate);
    } else if (starts_with(l, "*** Add File:")) {
      header("*** Add File:", V4aFileOp::Kind::kAdd);
    } else if (starts_with(l, "*** Delete File:")) {
      header("*** Delete File:", V4aFileOp::Kind::kDelete);
    } else if (starts_with(l, "*** Move to:")) {
      if (ops.empty() || ops.back().kind != V4aFileOp::Kind::kUpdate)
        return line_error(number, "'*** Move to' outside an update");
      ops.back().move_to = trim_line(l.substr(12));
    } else if (starts_with(l, "*** End of File")) {
      continue;
    } else if (ops.empty()) {
      if (!trim_line(l).empty())
        return line_error(number, "content before the first '*** ... File:' header");
    } else if (ops.back().kind == V4aFileOp::Kind::kAdd) {
      if (!l.empty() && l[0] != '+')
        return line_error(number, "lines of an added file must start with '+'");
      ops.back().content += std::string(l.empty() ? l : l.substr(1)) + "\n";
    } else if (ops.back().kind == V4aFileOp::Kind::kDelete) {
      if (!trim_line(l).empty()) return line_error(number, "a deleted file takes no content");
    } else if (starts_with(l, "@@")) {
      close_hunk(ops.back().hunks, hunk);
    } else if (l.empty() || l[0] == ' ' || l[0] == '-' || l[0] == '+') {
      add_hunk_line(hunk, l);
    } else {
      return line_error(number, "hunk lines must start with ' ', '-' or '+'");
    }
  }
  if (!ops.empty()) close_hunk(ops.back().hunks, hunk);
  if (!ended) return Status::invalid_argument("patch is missing '*** End Patch'");
  if (ops.empty()) return Status::invalid_argument("patch contains no file operations");
  for (const V4aFileOp& op : ops) {
    if (op.path.empty()) return Status::invalid_argument("a file operation has no path");
    if (op.kind == V4aFileOp::Kind::kUpdate && op.hunks.empty() && op.move_to.empty()) {
      return Status::invalid_argument("update of " + op.path + " has no changes");
    }
  }
  return ops;
}

}  // namespace hermes::internal
