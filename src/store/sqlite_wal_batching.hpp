// A SQLite VFS that writes each transaction's write-ahead-log frames with one system call.
//
// SQLite writes a WAL frame as two pwrite calls (its 24-byte header, then the page), so a
// commit of 12 pages costs 24 calls; on a virtual disk each costs about 10 µs whatever its
// size, most of what a small commit spends in the kernel. This VFS wraps the default one
// and, for write-ahead logs only, gathers consecutive writes in memory and hands them to the
// real file in one write:
//
//  - when the page of a commit frame (a frame header carrying the database size) has been
//    added, within the xWrite call SQLite makes for it. SQLite publishes a commit to other
//    connections only after that call returns success, so a reader never sees a frame
//    that is not in the file, and a failed write fails the commit as before;
//  - before any other operation on the log (read, sync, size, truncate, file control,
//    close), before a write that does not continue the gathered bytes, and beyond a size
//    cap;
//  - before the connection releases the WAL write lock (a rolled-back transaction may
//    leave frames gathered; they are beyond the published end of the log, so writing them
//    while the lock is still held is harmless, and no other writer can then be
//    overwritten by them).
//
// A process killed after a commit returned loses nothing: the commit's frames reached the
// operating system inside that commit. Other files (the database, its -shm, rollback
// journals) pass straight through.
//
// Thread-safety: register_wal_batching_vfs is safe to call from any thread; each file is
// used under its connection's own serialisation, as any SQLite file.
#pragma once

namespace hermes::store {

// Registers the VFS (once, not as the default) and returns its name, or nullptr when the
// default VFS could not be wrapped (connections then use the default one).
const char* wal_batching_vfs_name();

}  // namespace hermes::store
