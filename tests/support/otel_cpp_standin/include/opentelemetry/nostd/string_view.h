// Stand-in (tests only): nostd::string_view, a pointer and a length.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>

#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace nostd {

class string_view {
 public:
  string_view() noexcept = default;
  string_view(const char* text) noexcept : data_(text), size_(text ? std::strlen(text) : 0) {}
  string_view(const char* data, std::size_t size) noexcept : data_(data), size_(size) {}
  string_view(const std::string& text) noexcept : data_(text.data()), size_(text.size()) {}

  const char* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t length() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  explicit operator std::string() const { return std::string(data_, size_); }

  friend bool operator==(string_view a, string_view b) noexcept {
    return a.size_ == b.size_ && (a.size_ == 0 || std::memcmp(a.data_, b.data_, a.size_) == 0);
  }
  friend bool operator!=(string_view a, string_view b) noexcept { return !(a == b); }

 private:
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace nostd
OPENTELEMETRY_END_NAMESPACE
