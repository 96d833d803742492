#include "tools/file_tool_env.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "common/text_utils.hpp"
#include "common/utf8.hpp"
#include "safety/file_guard.hpp"

namespace hermes::internal {
namespace {

struct Magic {
  std::string_view bytes;
  std::string_view description;
};

constexpr std::array<Magic, 10> kMagic = {{
    {"\x89PNG", "PNG image data"},
    {"\xFF\xD8\xFF", "JPEG image data"},
    {"GIF8", "GIF image data"},
    {"%PDF", "PDF document"},
    {"PK\x03\x04", "Zip archive data"},
    {"\x7F"
     "ELF",
     "ELF executable"},
    {"\x1F\x8B", "gzip compressed data"},
    {"BZh", "bzip2 compressed data"},
    {"\xFD"
     "7zXZ",
     "XZ compressed data"},
    {"SQLite format 3", "SQLite database"},
}};

constexpr std::array<std::string_view, 36> kBinaryExtensions = {
    ".png", ".jpg", ".jpeg",  ".gif", ".bmp", ".ico",   ".webp",   ".tiff", ".pdf",
    ".zip", ".gz",  ".tgz",   ".bz2", ".xz",  ".7z",    ".rar",    ".tar",  ".exe",
    ".dll", ".so",  ".dylib", ".o",   ".a",   ".class", ".jar",    ".pyc",  ".wasm",
    ".mp3", ".mp4", ".mov",   ".wav", ".ogg", ".db",    ".sqlite", ".woff", ".woff2"};

std::string human_size(int64_t bytes) {
  char buf[32];
  if (bytes < 1024) {
    std::snprintf(buf, sizeof buf, "%lld bytes", static_cast<long long>(bytes));
  } else if (bytes < 1024 * 1024) {
    std::snprintf(buf, sizeof buf, "%.1f KB", static_cast<double>(bytes) / 1024.0);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  }
  return buf;
}

std::string lowered_extension(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  const std::size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  return lower_ascii(std::string_view(path).substr(dot));
}

// Oversized tool results are saved under <home>/cache/spillover for read_file to page
// through, wherever the file tools' roots are.
std::optional<std::string> spilled_result_path(const std::string& raw, const std::string& home) {
  if (home.empty() || raw.empty() || raw[0] != '/') return std::nullopt;
  std::error_code ec;
  const std::string path = std::filesystem::weakly_canonical(raw, ec).string();
  const std::string dir = std::filesystem::weakly_canonical(home + "/cache/spillover", ec).string();
  if (ec || path.size() <= dir.size() + 1 || path.compare(0, dir.size() + 1, dir + "/") != 0)
    return std::nullopt;
  return path;
}

}  // namespace

std::optional<FileStamp> stamp_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return FileStamp{static_cast<int64_t>(st.st_size),
                   static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

std::shared_ptr<FileReadTracker> file_tracker(ToolContext& ctx) {
  if (ctx.state == nullptr) return std::make_shared<FileReadTracker>();
  return ctx.state->get_or_create<FileReadTracker>("file.read_tracker");
}

int note_file_call(ToolContext& ctx, const std::string& signature) {
  auto tracker = file_tracker(ctx);
  std::lock_guard<std::mutex> lock(tracker->mu);
  if (tracker->last_call == signature) return ++tracker->repeats;
  tracker->last_call = signature;
  return tracker->repeats = 1;
}

Result<std::string> resolve_for_read(const FileToolEnv& env, const std::string& raw,
                                     ToolContext& ctx) {
  auto path = env.roots.resolve(raw);
  if (!path.ok()) {
    if (auto spilled = spilled_result_path(raw, ctx.home)) return *spilled;
    return path.status();
  }
  if (auto blocked = make_file_guard(ctx.home).check_read(*path))
    return Status::permission_denied(*blocked);
  return path;
}

Result<std::string> resolve_for_write(const FileToolEnv& env, const std::string& raw,
                                      ToolContext& ctx) {
  auto path = env.roots.resolve(raw);
  if (!path.ok()) return path.status();
  const FileGuard guard = make_file_guard(ctx.home);
  switch (guard.check_write(*path)) {
    case WriteVerdict::kDenied:
      return Status::permission_denied(guard.write_denial(*path).value_or("Write denied."));
    case WriteVerdict::kNeedsApproval: {
      ApprovalOutcome outcome = env.gate.ask(ctx.tool_name + " " + *path,
                                             "write to SSH config (can carry ProxyCommand)", ctx);
      if (!outcome.approved) return Status::permission_denied(outcome.message);
      break;
    }
    case WriteVerdict::kAllowed:
      break;
  }
  return path;
}

std::optional<std::string> binary_file_description(const std::string& path) {
  const auto stamp = stamp_of(path);
  const std::string size = stamp ? human_size(stamp->size) : "unknown size";
  std::ifstream in(path, std::ios::binary);
  char buf[8192];
  in.read(buf, sizeof buf);
  const std::string_view head(buf, static_cast<std::size_t>(in.gcount()));
  for (const Magic& m : kMagic) {
    if (head.substr(0, m.bytes.size()) == m.bytes) return std::string(m.description) + ", " + size;
  }
  const std::string ext = lowered_extension(path);
  if (std::find(kBinaryExtensions.begin(), kBinaryExtensions.end(), ext) !=
      kBinaryExtensions.end()) {
    return ext.substr(1) + " file, " + size;
  }
  // A NUL byte, or invalid UTF-8 other than a character cut by the end of the sample.
  if (head.find('\0') != std::string_view::npos) return "binary data, " + size;
  const std::size_t checked =
      head.size() == sizeof buf ? utf8_prefix_length(head, head.size() - 4) : head.size();
  if (!is_valid_utf8(head.substr(0, checked))) return "binary data, " + size;
  return std::nullopt;
}

}  // namespace hermes::internal
