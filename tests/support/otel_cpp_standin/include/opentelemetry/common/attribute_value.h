// Stand-in (tests only): common::AttributeValue, the value types an attribute may have.
#pragma once

#include <cstdint>

#include "opentelemetry/nostd/span.h"
#include "opentelemetry/nostd/string_view.h"
#include "opentelemetry/nostd/variant.h"
#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace common {

using AttributeValue =
    nostd::variant<bool, int32_t, int64_t, uint32_t, double, const char*, nostd::string_view,
                   nostd::span<const bool>, nostd::span<const int32_t>, nostd::span<const int64_t>,
                   nostd::span<const uint32_t>, nostd::span<const double>,
                   nostd::span<const nostd::string_view>, uint64_t, nostd::span<const uint64_t>,
                   nostd::span<const uint8_t>>;

}  // namespace common
OPENTELEMETRY_END_NAMESPACE
