// Stand-in (tests only): nostd::function_ref, a non-owning reference to a callable.
#pragma once

#include <memory>
#include <type_traits>
#include <utility>

#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace nostd {

template <class Signature>
class function_ref;

template <class R, class... Args>
class function_ref<R(Args...)> {
 public:
  template <class F,
            std::enable_if_t<!std::is_same<std::decay_t<F>, function_ref>::value>* = nullptr>
  function_ref(F&& callable) noexcept
      : callable_(const_cast<void*>(static_cast<const void*>(std::addressof(callable)))),
        invoke_([](void* target, Args... args) -> R {
          return (*static_cast<std::add_pointer_t<F>>(target))(std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const { return invoke_(callable_, std::forward<Args>(args)...); }

 private:
  void* callable_;
  R (*invoke_)(void*, Args...);
};

}  // namespace nostd
OPENTELEMETRY_END_NAMESPACE
