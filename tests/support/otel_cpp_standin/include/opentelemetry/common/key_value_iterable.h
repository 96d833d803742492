// Stand-in (tests only): common::KeyValueIterable, attributes as a callback-driven list.
#pragma once

#include <cstddef>

#include "opentelemetry/common/attribute_value.h"
#include "opentelemetry/nostd/function_ref.h"
#include "opentelemetry/nostd/string_view.h"
#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace common {

class KeyValueIterable {
 public:
  virtual ~KeyValueIterable() = default;
  // Calls `callback` with each key and value until it returns false; false when it did.
  virtual bool ForEachKeyValue(nostd::function_ref<bool(nostd::string_view, common::AttributeValue)>
                                   callback) const noexcept = 0;
  virtual std::size_t size() const noexcept = 0;
};

}  // namespace common
OPENTELEMETRY_END_NAMESPACE
