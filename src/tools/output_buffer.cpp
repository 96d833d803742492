#include "tools/output_buffer.hpp"

#include <algorithm>

#include "common/utf8.hpp"

namespace hermes::internal {
namespace {

// How many bytes at the start of `s` belong to a character that began before it.
std::size_t partial_prefix(std::string_view s) {
  std::size_t b = 0;
  while (b < s.size() && b < 3 && is_utf8_continuation(s[b])) ++b;
  return b;
}

// `s` without a character cut off at its end.
std::string_view without_partial_suffix(std::string_view s) {
  for (std::size_t back = 1; back <= 3 && back <= s.size(); ++back) {
    const auto c = static_cast<unsigned char>(s[s.size() - back]);
    if ((c & 0xC0) == 0x80) continue;
    const std::size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    return need > back ? s.substr(0, s.size() - back) : s;
  }
  return s;
}

// `s` without a partial character at its start or end.
std::string_view whole_characters(std::string_view s) {
  return without_partial_suffix(s.substr(partial_prefix(s)));
}

}  // namespace

HeadTailBuffer::HeadTailBuffer(std::size_t budget)
    : head_cap_(budget * 2 / 5), tail_cap_(budget - budget * 2 / 5) {}

void HeadTailBuffer::append(std::string_view data) {
  total_ += data.size();
  const std::size_t to_head = std::min(data.size(), head_cap_ - head_.size());
  head_.append(data.substr(0, to_head));
  data.remove_prefix(to_head);
  if (data.empty() || tail_cap_ == 0) return;
  if (data.size() >= tail_cap_) {
    tail_.assign(data.substr(data.size() - tail_cap_));
    tail_start_ = 0;
    return;
  }
  for (char c : data) {
    if (tail_.size() < tail_cap_) {
      tail_ += c;
    } else {
      tail_[tail_start_] = c;
      tail_start_ = (tail_start_ + 1) % tail_cap_;
    }
  }
}

std::string HeadTailBuffer::text() const {
  const std::string tail = tail_.substr(tail_start_) + tail_.substr(0, tail_start_);
  if (total_ <= head_cap_ + tail_cap_) return head_ + tail;
  const std::string_view head = whole_characters(head_);
  const std::string_view end = whole_characters(tail);
  return std::string(head) + truncation_notice(total_ - head.size() - end.size(), total_) +
         std::string(end);
}

std::string truncation_notice(std::size_t omitted, std::size_t total) {
  return "\n\n... [OUTPUT TRUNCATED - " + std::to_string(omitted) + " chars omitted out of " +
         std::to_string(total) + " total] ...\n\n";
}

void RollingBuffer::append(std::string_view data) {
  total_ += data.size();
  if (data.size() >= capacity_) {
    data_.assign(data.substr(data.size() - capacity_));
    return;
  }
  data_.append(data);
  if (data_.size() > capacity_) data_.erase(0, data_.size() - capacity_);
}

RollingBuffer::Slice RollingBuffer::read_from(std::size_t from) const {
  const std::size_t start = start_offset();
  const bool lost = from < start;
  from = std::clamp(from, start, total_);
  const std::string_view rest = std::string_view(data_).substr(from - start);
  const std::size_t skipped = lost ? partial_prefix(rest) : 0;
  const std::string_view whole = without_partial_suffix(rest.substr(skipped));
  return {std::string(whole), from + skipped + whole.size(), lost};
}

}  // namespace hermes::internal
