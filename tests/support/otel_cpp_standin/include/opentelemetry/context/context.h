// Stand-in (tests only): context::Context. The real one carries key-value pairs (the
// active span among them); the adapter only ever passes an empty one.
#pragma once

#include "opentelemetry/version.h"

OPENTELEMETRY_BEGIN_NAMESPACE
namespace context {

class Context {
 public:
  Context() noexcept = default;
};

}  // namespace context
OPENTELEMETRY_END_NAMESPACE
