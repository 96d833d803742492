// hermes/version.hpp — the library version, at compile time and at run time.
#pragma once

#include "hermes/export.hpp"

#define HERMES_VERSION_MAJOR 0
#define HERMES_VERSION_MINOR 2
#define HERMES_VERSION_PATCH 0
#define HERMES_VERSION_STRING "0.2.0"

namespace hermes {

// The version of the library actually linked, e.g. "0.2.0". Compare with
// HERMES_VERSION_STRING to detect a header/library mismatch.
HERMES_API const char* version();

}  // namespace hermes
