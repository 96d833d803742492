// Counts the transactions a SQLite database in WAL mode has committed since its log was
// last reset, read from the <db>-wal file itself: every commit ends with one frame whose
// header holds the database size, so a count of those is a count of commits (and, with
// synchronous=FULL, of the fsyncs that made them durable) that no code path can hide.
#pragma once

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace hermes::testing {

inline uint32_t wal_big_endian(const std::vector<unsigned char>& bytes, std::size_t at) {
  return (uint32_t{bytes[at]} << 24) | (uint32_t{bytes[at + 1]} << 16) |
         (uint32_t{bytes[at + 2]} << 8) | uint32_t{bytes[at + 3]};
}

// Commit frames of `db_path`-wal that belong to the log's current generation (their salts
// match the header's); 0 when there is no log. Frames of an earlier generation that a
// reset left behind carry other salts and are not counted.
inline int wal_commit_count(const std::string& db_path) {
  std::ifstream file(db_path + "-wal", std::ios::binary);
  std::vector<unsigned char> wal((std::istreambuf_iterator<char>(file)),
                                 std::istreambuf_iterator<char>());
  constexpr std::size_t kHeader = 32;
  constexpr std::size_t kFrameHeader = 24;
  if (wal.size() < kHeader) return 0;
  const uint32_t page_size = wal_big_endian(wal, 8);
  const uint32_t salt1 = wal_big_endian(wal, 16);
  const uint32_t salt2 = wal_big_endian(wal, 20);
  int commits = 0;
  for (std::size_t at = kHeader; at + kFrameHeader + page_size <= wal.size();
       at += kFrameHeader + page_size) {
    if (wal_big_endian(wal, at + 8) != salt1 || wal_big_endian(wal, at + 12) != salt2) break;
    if (wal_big_endian(wal, at + 4) != 0) ++commits;
  }
  return commits;
}

}  // namespace hermes::testing
