#include "store/sqlite_wal_batching.hpp"

#include <sqlite3.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>

namespace hermes::store {
namespace {

constexpr int kFrameHeaderBytes = 24;
constexpr int kWalHeaderBytes = 32;
// The most one write may carry: the unix VFS writes at most 128 KiB - 1 per call (it masks
// the length), so a larger transaction goes out in pieces of this size.
constexpr std::size_t kMaxWriteBytes = 0x1ffff;
// The lock SQLite holds while it appends to the log (WAL_WRITE_LOCK in wal.c).
constexpr int kWalWriteLock = 0;

struct BatchFile {
  sqlite3_file base;           // pMethods: one of kMethods.
  sqlite3_file* real;          // The wrapped file, stored right after this object.
  bool wal = false;            // A write-ahead log: its writes are gathered.
  BatchFile* log = nullptr;    // A database file: its open log, if any.
  BatchFile* owner = nullptr;  // A log: the database file it belongs to, if ours.
  std::string gathered;        // Bytes not yet written, for the offsets from `start` on.
  sqlite3_int64 start = 0;
  sqlite3_int64 end = -1;      // Where the run of appends being gathered goes on; -1: none.
  sqlite3_int64 page_at = -1;  // Where the page of the last gathered frame header goes.
  bool commit_frame = false;   // That header ends a transaction.
};

sqlite3_vfs* real_vfs(sqlite3_vfs* vfs) {
  return static_cast<sqlite3_vfs*>(vfs->pAppData);
}

BatchFile* batch(sqlite3_file* file) {
  return reinterpret_cast<BatchFile*>(file);
}

constexpr std::size_t real_offset() {
  return (sizeof(BatchFile) + alignof(std::max_align_t) - 1) / alignof(std::max_align_t) *
         alignof(std::max_align_t);
}

uint32_t big_endian(const void* data, int at) {
  const auto* b = static_cast<const unsigned char*>(data) + at;
  return (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | uint32_t{b[3]};
}

// Writes what is gathered, keeping the run going.
int write_out(BatchFile* f) {
  if (f->gathered.empty()) return SQLITE_OK;
  const int rc = f->real->pMethods->xWrite(f->real, f->gathered.data(),
                                           static_cast<int>(f->gathered.size()), f->start);
  f->gathered.clear();
  return rc;
}

// Writes what is gathered and ends the run.
int flush(BatchFile* f) {
  f->end = -1;
  f->page_at = -1;
  f->commit_frame = false;
  return write_out(f);
}

int gather(BatchFile* f, const void* data, int amount, sqlite3_int64 offset) {
  if (f->gathered.size() + static_cast<std::size_t>(amount) > kMaxWriteBytes) {
    if (int rc = write_out(f); rc != SQLITE_OK) return rc;
  }
  if (f->gathered.empty()) f->start = offset;
  f->gathered.append(static_cast<const char*>(data), static_cast<std::size_t>(amount));
  f->end = offset + amount;
  return SQLITE_OK;
}

// ---- File methods ----------------------------------------------------------------------

int x_close(sqlite3_file* file) {
  BatchFile* f = batch(file);
  int rc = flush(f);
  if (f->owner != nullptr) f->owner->log = nullptr;
  if (f->log != nullptr) f->log->owner = nullptr;
  const int closed = f->real->pMethods->xClose(f->real);
  if (rc == SQLITE_OK) rc = closed;
  f->~BatchFile();
  return rc;
}

int x_read(sqlite3_file* file, void* data, int amount, sqlite3_int64 offset) {
  BatchFile* f = batch(file);
  if (int rc = flush(f); rc != SQLITE_OK) return rc;
  return f->real->pMethods->xRead(f->real, data, amount, offset);
}

// Only the shapes of an append are gathered: the log's header, a frame header, and the page
// right after a gathered frame header. Everything else (a page rewritten in place, a frame
// header whose checksum is rewritten) goes out at once, after what was gathered.
int x_write(sqlite3_file* file, const void* data, int amount, sqlite3_int64 offset) {
  BatchFile* f = batch(file);
  if (!f->wal) return f->real->pMethods->xWrite(f->real, data, amount, offset);
  const bool continues = f->end >= 0 && offset == f->end;
  if (!continues) {
    if (int rc = flush(f); rc != SQLITE_OK) return rc;
  }
  if (continues && offset == f->page_at) {
    if (int rc = gather(f, data, amount, offset); rc != SQLITE_OK) return rc;
    const bool commit = f->commit_frame;
    f->page_at = -1;
    f->commit_frame = false;
    // The page of a commit frame: the transaction is complete, write it before SQLite
    // publishes it.
    return commit ? flush(f) : SQLITE_OK;
  }
  if (amount == kFrameHeaderBytes && f->page_at < 0) {
    const bool commit = big_endian(data, 4) != 0;
    // A commit frame's header that continues no run is a checksum being rewritten (no page
    // follows it): written at once.
    if (!(commit && f->end < 0)) {
      f->page_at = offset + kFrameHeaderBytes;
      f->commit_frame = commit;
      return gather(f, data, amount, offset);
    }
  } else if (amount == kWalHeaderBytes && offset == 0 && f->end < 0) {
    return gather(f, data, amount, offset);
  }
  if (int rc = flush(f); rc != SQLITE_OK) return rc;
  return f->real->pMethods->xWrite(f->real, data, amount, offset);
}

int x_truncate(sqlite3_file* file, sqlite3_int64 size) {
  BatchFile* f = batch(file);
  if (int rc = flush(f); rc != SQLITE_OK) return rc;
  return f->real->pMethods->xTruncate(f->real, size);
}

int x_sync(sqlite3_file* file, int flags) {
  BatchFile* f = batch(file);
  if (int rc = flush(f); rc != SQLITE_OK) return rc;
  return f->real->pMethods->xSync(f->real, flags);
}

int x_file_size(sqlite3_file* file, sqlite3_int64* size) {
  BatchFile* f = batch(file);
  if (int rc = flush(f); rc != SQLITE_OK) return rc;
  return f->real->pMethods->xFileSize(f->real, size);
}

int x_lock(sqlite3_file* file, int level) {
  BatchFile* f = batch(file);
  if (int rc = flush(f); rc != SQLITE_OK) return rc;
  return f->real->pMethods->xLock(f->real, level);
}

int x_unlock(sqlite3_file* file, int level) {
  BatchFile* f = batch(file);
  if (int rc = flush(f); rc != SQLITE_OK) return rc;
  return f->real->pMethods->xUnlock(f->real, level);
}

int x_check_reserved_lock(sqlite3_file* file, int* out) {
  BatchFile* f = batch(file);
  if (int rc = flush(f); rc != SQLITE_OK) return rc;
  return f->real->pMethods->xCheckReservedLock(f->real, out);
}

int x_file_control(sqlite3_file* file, int op, void* arg) {
  BatchFile* f = batch(file);
  if (int rc = flush(f); rc != SQLITE_OK) return rc;
  return f->real->pMethods->xFileControl(f->real, op, arg);
}

int x_sector_size(sqlite3_file* file) {
  return batch(file)->real->pMethods->xSectorSize(batch(file)->real);
}

int x_device_characteristics(sqlite3_file* file) {
  return batch(file)->real->pMethods->xDeviceCharacteristics(batch(file)->real);
}

int x_shm_map(sqlite3_file* file, int page, int size, int extend, void volatile** out) {
  return batch(file)->real->pMethods->xShmMap(batch(file)->real, page, size, extend, out);
}

int x_shm_lock(sqlite3_file* file, int offset, int n, int flags) {
  BatchFile* f = batch(file);
  // A transaction that ended without committing may have left frames gathered: they go
  // out while this connection still holds the write lock, never over a later writer's.
  if ((flags & SQLITE_SHM_UNLOCK) != 0 && offset <= kWalWriteLock && kWalWriteLock < offset + n &&
      f->log != nullptr) {
    (void)flush(f->log);  // Uncommitted frames: nothing depends on them.
  }
  return f->real->pMethods->xShmLock(f->real, offset, n, flags);
}

void x_shm_barrier(sqlite3_file* file) {
  batch(file)->real->pMethods->xShmBarrier(batch(file)->real);
}

int x_shm_unmap(sqlite3_file* file, int delete_flag) {
  return batch(file)->real->pMethods->xShmUnmap(batch(file)->real, delete_flag);
}

int x_fetch(sqlite3_file* file, sqlite3_int64 offset, int amount, void** out) {
  BatchFile* f = batch(file);
  if (int rc = flush(f); rc != SQLITE_OK) return rc;
  return f->real->pMethods->xFetch(f->real, offset, amount, out);
}

int x_unfetch(sqlite3_file* file, sqlite3_int64 offset, void* page) {
  return batch(file)->real->pMethods->xUnfetch(batch(file)->real, offset, page);
}

constexpr sqlite3_io_methods methods(int version) {
  return {version,
          x_close,
          x_read,
          x_write,
          x_truncate,
          x_sync,
          x_file_size,
          x_lock,
          x_unlock,
          x_check_reserved_lock,
          x_file_control,
          x_sector_size,
          x_device_characteristics,
          x_shm_map,
          x_shm_lock,
          x_shm_barrier,
          x_shm_unmap,
          x_fetch,
          x_unfetch};
}

// By the version of the wrapped file's methods, so SQLite never calls one it lacks.
const sqlite3_io_methods kMethods[3] = {methods(1), methods(2), methods(3)};

bool is_ours(const sqlite3_file* file) {
  return file != nullptr && file->pMethods != nullptr && file->pMethods >= &kMethods[0] &&
         file->pMethods <= &kMethods[2];
}

// ---- VFS methods -----------------------------------------------------------------------

int x_open(sqlite3_vfs* vfs, const char* name, sqlite3_file* file, int flags, int* out_flags) {
  auto* f = new (file) BatchFile();
  f->base.pMethods = nullptr;
  f->real = reinterpret_cast<sqlite3_file*>(reinterpret_cast<char*>(file) + real_offset());
  std::memset(f->real, 0, static_cast<std::size_t>(real_vfs(vfs)->szOsFile));
  const int rc = real_vfs(vfs)->xOpen(real_vfs(vfs), name, f->real, flags, out_flags);
  if (rc != SQLITE_OK || f->real->pMethods == nullptr) {
    if (f->real->pMethods != nullptr) f->real->pMethods->xClose(f->real);
    f->~BatchFile();
    file->pMethods = nullptr;
    return rc != SQLITE_OK ? rc : SQLITE_CANTOPEN;
  }
  const int version = f->real->pMethods->iVersion;
  f->base.pMethods = &kMethods[version < 1 ? 0 : version > 3 ? 2 : version - 1];
  if ((flags & SQLITE_OPEN_WAL) != 0 && name != nullptr) {
    f->wal = true;
    sqlite3_file* database = sqlite3_database_file_object(name);
    if (is_ours(database)) {
      f->owner = batch(database);
      f->owner->log = f;
    }
  }
  return SQLITE_OK;
}

int x_delete(sqlite3_vfs* vfs, const char* name, int sync_dir) {
  return real_vfs(vfs)->xDelete(real_vfs(vfs), name, sync_dir);
}

int x_access(sqlite3_vfs* vfs, const char* name, int flags, int* out) {
  return real_vfs(vfs)->xAccess(real_vfs(vfs), name, flags, out);
}

int x_full_pathname(sqlite3_vfs* vfs, const char* name, int size, char* out) {
  return real_vfs(vfs)->xFullPathname(real_vfs(vfs), name, size, out);
}

void* x_dl_open(sqlite3_vfs* vfs, const char* name) {
  return real_vfs(vfs)->xDlOpen(real_vfs(vfs), name);
}

void x_dl_error(sqlite3_vfs* vfs, int size, char* out) {
  real_vfs(vfs)->xDlError(real_vfs(vfs), size, out);
}

void (*x_dl_sym(sqlite3_vfs* vfs, void* handle, const char* symbol))(void) {
  return real_vfs(vfs)->xDlSym(real_vfs(vfs), handle, symbol);
}

void x_dl_close(sqlite3_vfs* vfs, void* handle) {
  real_vfs(vfs)->xDlClose(real_vfs(vfs), handle);
}

int x_randomness(sqlite3_vfs* vfs, int size, char* out) {
  return real_vfs(vfs)->xRandomness(real_vfs(vfs), size, out);
}

int x_sleep(sqlite3_vfs* vfs, int microseconds) {
  return real_vfs(vfs)->xSleep(real_vfs(vfs), microseconds);
}

int x_current_time(sqlite3_vfs* vfs, double* out) {
  return real_vfs(vfs)->xCurrentTime(real_vfs(vfs), out);
}

int x_get_last_error(sqlite3_vfs* vfs, int size, char* out) {
  return real_vfs(vfs)->xGetLastError(real_vfs(vfs), size, out);
}

int x_current_time_int64(sqlite3_vfs* vfs, sqlite3_int64* out) {
  return real_vfs(vfs)->xCurrentTimeInt64(real_vfs(vfs), out);
}

const char* register_vfs() {
  sqlite3_vfs* real = sqlite3_vfs_find(nullptr);
  if (real == nullptr || real->iVersion < 2 || real->xCurrentTimeInt64 == nullptr) {
    return nullptr;
  }
  static sqlite3_vfs vfs{};
  vfs.iVersion = 2;
  vfs.szOsFile = static_cast<int>(real_offset()) + real->szOsFile;
  vfs.mxPathname = real->mxPathname;
  vfs.zName = "hermes-wal-batching";
  vfs.pAppData = real;
  vfs.xOpen = x_open;
  vfs.xDelete = x_delete;
  vfs.xAccess = x_access;
  vfs.xFullPathname = x_full_pathname;
  vfs.xDlOpen = x_dl_open;
  vfs.xDlError = x_dl_error;
  vfs.xDlSym = x_dl_sym;
  vfs.xDlClose = x_dl_close;
  vfs.xRandomness = x_randomness;
  vfs.xSleep = x_sleep;
  vfs.xCurrentTime = x_current_time;
  vfs.xGetLastError = x_get_last_error;
  vfs.xCurrentTimeInt64 = x_current_time_int64;
  if (sqlite3_vfs_register(&vfs, 0) != SQLITE_OK) return nullptr;
  return vfs.zName;
}

}  // namespace

const char* wal_batching_vfs_name() {
  static const char* const name = register_vfs();
  return name;
}

}  // namespace hermes::store
