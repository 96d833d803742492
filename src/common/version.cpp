#include "hermes/version.hpp"

namespace hermes {

const char* version() { return HERMES_VERSION_STRING; }

}  // namespace hermes
