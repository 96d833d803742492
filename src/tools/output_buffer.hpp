// Command output kept within a budget while it streams in: the first 40% and the last 60%
// of the budget are kept, the middle is counted and dropped, so a command that prints
// 100 MB costs at most the budget in memory.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace hermes::internal {

class HeadTailBuffer {
 public:
  explicit HeadTailBuffer(std::size_t budget);

  void append(std::string_view data);
  std::size_t total() const { return total_; }

  // Everything, when it fit the budget; else the head, a notice of how much was left out,
  // and the tail. Cuts never split a UTF-8 character.
  std::string text() const;

 private:
  std::size_t head_cap_;
  std::size_t tail_cap_;
  std::string head_;
  std::string tail_;  // Ring of the last tail_cap_ bytes, oldest at tail_start_.
  std::size_t tail_start_ = 0;
  std::size_t total_ = 0;
};

// The notice between head and tail.
std::string truncation_notice(std::size_t omitted, std::size_t total);

// A rolling window of the last `capacity` bytes of a stream, with stream offsets so a
// reader can ask for what arrived since it last looked.
class RollingBuffer {
 public:
  explicit RollingBuffer(std::size_t capacity) : capacity_(capacity) {}

  void append(std::string_view data);

  struct Slice {
    std::string text;  // Whole characters only.
    std::size_t next;  // The offset to ask from next time.
    bool lost;         // Output between `from` and the window was already dropped.
  };
  // What arrived from stream offset `from` on.
  Slice read_from(std::size_t from) const;
  std::size_t end_offset() const { return total_; }
  std::size_t start_offset() const { return total_ - data_.size(); }

 private:
  std::size_t capacity_;
  std::string data_;
  std::size_t total_ = 0;
};

}  // namespace hermes::internal
