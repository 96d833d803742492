// The state database file on disk: created private (0600), kept private, never opened
// behind SQLite's back.
#pragma once

#include <string>

#include "hermes/status.hpp"

namespace hermes::store {

// True for paths SQLite treats as in-memory or temporary databases, which have no file to
// prepare.
bool is_memory_path(const std::string& path);

// Makes `path` ready for SQLite: creates the parent directory, creates a missing file with
// O_EXCL|O_NOFOLLOW and mode 0600, and tightens an existing file and its -wal/-shm
// companions to 0600 with chmod(2) on the path (symlinks are left alone). An existing
// database file is never opened here: closing a raw descriptor would drop the POSIX locks
// live SQLite connections of this process hold on it.
Status prepare_database_file(const std::string& path);

}  // namespace hermes::store
