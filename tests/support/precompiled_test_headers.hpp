// The test executables' precompiled header: the library's set and doctest.
#include "common/precompiled_headers.hpp"

#include <doctest/doctest.h>
