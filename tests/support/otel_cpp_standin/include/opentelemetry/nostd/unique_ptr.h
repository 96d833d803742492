// Stand-in (tests only): nostd::unique_ptr, sole ownership of one object.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>

#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace nostd {

template <class T>
class unique_ptr {
 public:
  unique_ptr() noexcept = default;
  unique_ptr(std::nullptr_t) noexcept {}
  explicit unique_ptr(T* pointer) noexcept : pointer_(pointer) {}
  template <class U>
  unique_ptr(std::unique_ptr<U>&& other) noexcept : pointer_(other.release()) {}
  template <class U>
  unique_ptr(unique_ptr<U>&& other) noexcept : pointer_(other.release()) {}
  unique_ptr(unique_ptr&& other) noexcept : pointer_(other.release()) {}
  unique_ptr& operator=(unique_ptr&& other) noexcept {
    reset(other.release());
    return *this;
  }
  unique_ptr(const unique_ptr&) = delete;
  unique_ptr& operator=(const unique_ptr&) = delete;
  ~unique_ptr() { reset(); }

  T* get() const noexcept { return pointer_; }
  T* operator->() const noexcept { return pointer_; }
  T& operator*() const noexcept { return *pointer_; }
  explicit operator bool() const noexcept { return pointer_ != nullptr; }
  T* release() noexcept { return std::exchange(pointer_, nullptr); }
  void reset(T* pointer = nullptr) noexcept { delete std::exchange(pointer_, pointer); }

 private:
  T* pointer_ = nullptr;
};

}  // namespace nostd
OPENTELEMETRY_END_NAMESPACE
