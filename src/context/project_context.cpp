#include "context/project_context.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>
#include <system_error>
#include <vector>

#include "context/context_file_text.hpp"
#include "context/text_cut.hpp"
#include "safety/log.hpp"

namespace hermes::internal {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kHeader =
    "# Project Context\n\nThe following project context files have been loaded and should be "
    "followed:\n\n";

// A directory the process may not stat (a locked-down parent) counts as "not here".
bool present(const fs::path& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

bool is_file(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

// The nearest of `dir` and its ancestors that holds a .git entry.
std::optional<fs::path> git_root(const fs::path& dir) {
  for (fs::path p = dir;; p = p.parent_path()) {
    if (present(p / ".git")) return p;
    if (p == p.parent_path()) return std::nullopt;
  }
}

class Loader {
 public:
  Loader(fs::path cwd, int64_t context_length, ContextFileNotice notice)
      : cwd_(std::move(cwd)),
        root_(git_root(cwd_)),
        cap_(context_file_char_cap(context_length)),
        notice_(std::move(notice)) {}

  std::string hermes_md() const;
  std::string agents_md() const;
  std::string claude_md() const;
  std::string cursor_rules() const;

 private:
  // "## <label>" over the screened content, capped as one file.
  std::string section(const std::string& content, const std::string& label,
                      const fs::path& path) const {
    return truncate_context_file(
        "## " + label + "\n\n" + screen_context_file(content, label, notice_), label, cap_,
        path.string(), notice_);
  }
  std::string read(const fs::path& path) const {
    return read_context_file(path, kContextFileReadTimeout, notice_);
  }
  std::string truncate(const std::string& joined, std::string_view name,
                       const fs::path& path) const {
    return truncate_context_file(joined, name, cap_, path.string(), notice_);
  }
  // The directories from the git root down to the working directory; only the working
  // directory outside a repository.
  std::vector<fs::path> root_to_cwd() const;

  fs::path cwd_;
  std::optional<fs::path> root_;
  std::size_t cap_;
  ContextFileNotice notice_;
};

// YAML front matter configures tools, not the model: only the body is loaded.
std::string without_front_matter(const std::string& content) {
  if (!starts_with(content, "---")) return content;
  const std::size_t end = content.find("\n---", 3);
  if (end == std::string::npos) return content;
  const std::size_t body = content.find_first_not_of('\n', end + 4);
  return body == std::string::npos ? content : content.substr(body);
}

std::string Loader::hermes_md() const {
  // Outside a repository only the working directory counts: walking further up could pick
  // up a file planted in /tmp or a home directory.
  for (fs::path dir = cwd_;; dir = dir.parent_path()) {
    for (const char* name : {".hermes.md", "HERMES.md"}) {
      const fs::path path = dir / name;
      if (!is_file(path)) continue;
      const std::string content = read(path);
      return content.empty() ? "" : section(without_front_matter(content), name, path);
    }
    if (!root_ || dir == *root_ || dir == dir.parent_path()) return "";
  }
}

std::vector<fs::path> Loader::root_to_cwd() const {
  if (!root_ || *root_ == cwd_) return {cwd_};
  std::vector<fs::path> dirs;
  for (fs::path dir = cwd_; dir != *root_; dir = dir.parent_path()) dirs.push_back(dir);
  dirs.push_back(*root_);
  std::reverse(dirs.begin(), dirs.end());
  return dirs;
}

std::string Loader::agents_md() const {
  std::vector<std::string> sections;
  std::set<std::string> seen;  // A copy or symlink of the same file further down.
  for (const fs::path& dir : root_to_cwd()) {
    // A personal, usually git-ignored override shadows the committed file.
    for (const char* name : {"AGENTS.override.md", "AGENTS.md", "agents.md"}) {
      const fs::path path = dir / name;
      const std::string content = read(path);
      if (content.empty()) continue;
      if (seen.insert(content).second) {
        const std::string label = dir == cwd_ ? name : path.lexically_relative(cwd_).string();
        sections.push_back(section(content, label, path));
      }
      break;
    }
  }
  if (sections.size() <= 1) return sections.empty() ? "" : sections.front();
  std::string joined;
  for (const std::string& s : sections) joined += (joined.empty() ? "" : "\n\n") + s;
  // Each file has its own cap; the chain as a whole gets one too, so a deep monorepo
  // cannot multiply the budget.
  return truncate(joined, "AGENTS.md (directory chain)", cwd_ / "AGENTS.md");
}

std::string Loader::claude_md() const {
  for (const char* name : {"CLAUDE.md", "claude.md"}) {
    const fs::path path = cwd_ / name;
    if (std::string content = read(path); !content.empty()) {
      return section(content, name, path);
    }
  }
  return "";
}

std::string Loader::cursor_rules() const {
  std::vector<std::pair<fs::path, std::string>> files = {{cwd_ / ".cursorrules", ".cursorrules"}};
  std::vector<fs::path> rules;
  std::error_code ec;
  for (fs::directory_iterator it(cwd_ / ".cursor" / "rules", ec), end; !ec && it != end;
       it.increment(ec)) {
    if (it->path().extension() == ".mdc") rules.push_back(it->path());
  }
  std::sort(rules.begin(), rules.end());
  for (const fs::path& rule : rules) {
    files.emplace_back(rule, ".cursor/rules/" + rule.filename().string());
  }
  std::string joined;
  for (const auto& [path, label] : files) {
    const std::string content = read(path);
    if (!content.empty())
      joined += "## " + label + "\n\n" + screen_context_file(content, label, notice_) + "\n\n";
  }
  if (joined.empty()) return "";
  return truncate(joined, ".cursorrules", cwd_ / ".cursorrules");
}

}  // namespace

std::string load_project_context(const std::string& dir, int64_t context_length,
                                 const ContextFileNotice& notice) {
  if (dir.empty()) return "";
  std::error_code ec;
  fs::path cwd = fs::canonical(dir, ec);
  if (ec || !fs::is_directory(cwd, ec)) {
    HERMES_LOG_DEBUG("no project context: {} is not a readable directory", dir);
    return "";
  }
  const Loader loader(std::move(cwd), context_length, notice);
  std::string found = loader.hermes_md();
  if (found.empty()) found = loader.agents_md();
  if (found.empty()) found = loader.claude_md();
  if (found.empty()) found = loader.cursor_rules();
  return found.empty() ? "" : std::string(kHeader) + found;
}

}  // namespace hermes::internal
