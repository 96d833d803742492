// Stand-in (tests only): common::KeyValueIterableView, a KeyValueIterable over a container
// of (key, value) pairs.
#pragma once

#include <iterator>
#include <type_traits>
#include <utility>

#include "opentelemetry/common/key_value_iterable.h"
#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace common {
namespace detail {

inline void accepts_key_value(nostd::string_view, common::AttributeValue) {}

template <class T>
auto key_value_iterable_test(const T& container)
    -> decltype(accepts_key_value(std::begin(container)->first, std::begin(container)->second),
                std::size(container), std::true_type{});
std::false_type key_value_iterable_test(...);

template <class T>
struct is_key_value_iterable {
  static const bool value = decltype(key_value_iterable_test(std::declval<const T&>()))::value;
};

}  // namespace detail

template <class T>
class KeyValueIterableView final : public KeyValueIterable {
  static_assert(detail::is_key_value_iterable<T>::value, "a container of key-value pairs");

 public:
  explicit KeyValueIterableView(const T& container) noexcept : container_(&container) {}

  bool ForEachKeyValue(nostd::function_ref<bool(nostd::string_view, common::AttributeValue)>
                           callback) const noexcept override {
    for (const auto& pair : *container_) {
      if (!callback(pair.first, pair.second)) return false;
    }
    return true;
  }
  std::size_t size() const noexcept override { return std::size(*container_); }

 private:
  const T* container_;
};

}  // namespace common
OPENTELEMETRY_END_NAMESPACE
