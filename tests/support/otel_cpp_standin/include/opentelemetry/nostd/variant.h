// Stand-in (tests only): nostd::variant, which the real library also maps to std::variant
// when it is built for C++17 or later.
#pragma once

#include <variant>

#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace nostd {

using std::get;
using std::get_if;
using std::holds_alternative;
using std::variant;
using std::visit;

}  // namespace nostd
OPENTELEMETRY_END_NAMESPACE
