#include "input_history.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "hermes/redaction.hpp"

namespace hermes_cli {
namespace {

// Appends `text` to `path`, creating it 0600 (whatever the umask).
void append_private(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) return;
  ::fchmod(fd, 0600);
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
}

}  // namespace

InputHistory::InputHistory(std::string path) : path_(std::move(path)) {
  std::ifstream file(path_);
  for (std::string line; std::getline(file, line);) {
    entries_.push_back(line);
    if (entries_.size() > kMaxEntries) entries_.pop_front();
  }
}

void InputHistory::add(const std::string& line) {
  if (line.find_first_not_of(" \t") == std::string::npos) return;
  const std::string kept = hermes::redact_sensitive_text(line);
  if (!entries_.empty() && entries_.back() == kept) return;
  entries_.push_back(kept);
  if (entries_.size() > kMaxEntries) entries_.pop_front();
  append_private(path_, kept + "\n");
}

}  // namespace hermes_cli
