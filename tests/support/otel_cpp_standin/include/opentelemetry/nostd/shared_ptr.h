// Stand-in (tests only): nostd::shared_ptr, shared ownership of one object. Like the real
// one it is its own type, not std::shared_ptr: code that compiles against it uses only
// what both offer.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>

#include "opentelemetry/nostd/unique_ptr.h"
#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace nostd {

template <class T>
class shared_ptr {
 public:
  using element_type = T;

  shared_ptr() noexcept = default;
  explicit shared_ptr(T* pointer) : pointer_(pointer) {}
  shared_ptr(std::shared_ptr<T> pointer) noexcept : pointer_(std::move(pointer)) {}
  shared_ptr(std::unique_ptr<T>&& pointer) noexcept : pointer_(std::move(pointer)) {}
  shared_ptr(unique_ptr<T>&& pointer) noexcept : pointer_(pointer.release()) {}
  template <class U>
  shared_ptr(const shared_ptr<U>& other) noexcept : pointer_(other.pointer_) {}
  template <class U>
  shared_ptr(shared_ptr<U>&& other) noexcept : pointer_(std::move(other.pointer_)) {}

  shared_ptr& operator=(std::nullptr_t) noexcept {
    pointer_.reset();
    return *this;
  }

  T* get() const noexcept { return pointer_.get(); }
  T* operator->() const noexcept { return pointer_.get(); }
  T& operator*() const noexcept { return *pointer_; }
  operator bool() const noexcept { return pointer_ != nullptr; }

  template <class U>
  friend class shared_ptr;

 private:
  std::shared_ptr<T> pointer_;
};

}  // namespace nostd
OPENTELEMETRY_END_NAMESPACE
