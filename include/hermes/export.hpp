// hermes/export.hpp — marks the declarations a shared build of hermes exports.
#pragma once

#if defined(_WIN32) && defined(HERMES_SHARED)
#  if defined(HERMES_BUILDING_LIBRARY)
#    define HERMES_API __declspec(dllexport)
#  else
#    define HERMES_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__) || defined(__clang__)
#  define HERMES_API __attribute__((visibility("default")))
#else
#  define HERMES_API
#endif
