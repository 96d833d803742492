// Stand-in (tests only): nostd::span, a view of contiguous elements, of fixed or dynamic
// extent.
#pragma once

#include <cstddef>
#include <exception>

#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace nostd {

constexpr std::size_t dynamic_extent = static_cast<std::size_t>(-1);

template <class T, std::size_t Extent = dynamic_extent>
class span {
 public:
  span() noexcept = default;
  span(T* data, std::size_t count) noexcept : data_(data), size_(count) {
    if (Extent != dynamic_extent && count != Extent) std::terminate();
  }

  T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  T& operator[](std::size_t index) const noexcept { return data_[index]; }
  T* begin() const noexcept { return data_; }
  T* end() const noexcept { return data_ + size_; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace nostd
OPENTELEMETRY_END_NAMESPACE
