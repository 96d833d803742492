# Precompiled headers. Nearly every translation unit includes nlohmann/json.hpp through
# the public headers, and parsing it alone takes about as long as compiling a typical
# source file of the library; a precompiled header parses it once per target.
#
# Off by default: the objects then depend on the build directory (the header is
# force-included from it), so a compiler cache can no longer serve one tree's objects to
# another (the consumer tests' nested builds rely on that). The sanitizer and fuzzer
# presets, which have no nested builds, turn it on. With ccache, set
# CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime (the
# scripts do), or ccache compiles such sources uncached.
option(HERMES_PRECOMPILED_HEADERS "Precompile the heavy standard and JSON headers" OFF)

# GCC 12 reports out-of-bounds copies inside libstdc++'s std::string operator+ at -O2
# (GCC bugs 105329, 105651) in about one source in twenty once the standard headers come
# first through the precompiled header; the same code compiles clean without it. These
# three flow warnings are off for GCC 12 only; other compilers and versions keep them.
# Added after -Wall, which would turn them back on.
if(HERMES_PRECOMPILED_HEADERS AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU"
   AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12
   AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(hermes_warnings INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-Wno-array-bounds -Wno-stringop-overflow -Wno-stringop-overread>)
endif()

# hermes_precompile_headers(<target> [header file]): the library's common set
# (src/common/precompiled_headers.hpp), or a header of the target's own that includes it.
# For targets of C++ sources only.
function(hermes_precompile_headers target)
  if(NOT HERMES_PRECOMPILED_HEADERS)
    return()
  endif()
  set(header "${ARGN}")
  if(NOT header)
    set(header "${PROJECT_SOURCE_DIR}/src/common/precompiled_headers.hpp")
  endif()
  target_precompile_headers(${target} PRIVATE "${header}")
endfunction()
