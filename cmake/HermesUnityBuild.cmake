# Unity builds: each target's sources are compiled a batch at a time, several source files
# per translation unit, so the standard library, nlohmann/json and doctest are parsed and
# their templates instantiated and optimised once per batch instead of once per file.
# Parsing hermes/hermes.hpp alone costs a GCC 12 process about 2.9 s, as much as
# compiling a typical source file of the library.
#
# On by default (it is also what a package manager building hermes once wants). Turn it off
# with -DHERMES_UNITY_BUILD=OFF when editing: a change then recompiles one file, not its
# batch. A unity build can hide a missing #include (an earlier file of the batch brought
# it in); a build with it off shows it.
#
# Sources that cannot share a translation unit are marked where they are listed, with
# set_source_files_properties(... SKIP_UNITY_BUILD_INCLUSION ON) and the reason.
if(DEFINED CMAKE_UNITY_BUILD)
  set(_hermes_unity_default ${CMAKE_UNITY_BUILD})
else()
  set(_hermes_unity_default ON)
endif()
option(HERMES_UNITY_BUILD "Compile each target's sources in batches (a unity build)"
       ${_hermes_unity_default})
unset(_hermes_unity_default)

# Files per batch unless a target says otherwise. Measured on 2 cores (docs/building.md):
# larger batches save little more parsing and leave a core idle at the end of a target.
set(HERMES_UNITY_BATCH_SIZE 8 CACHE STRING "Source files per unity batch")

# hermes_unity_build(<target> [BATCH_SIZE <n>])
function(hermes_unity_build target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "BATCH_SIZE" "")
  if(NOT arg_BATCH_SIZE)
    set(arg_BATCH_SIZE ${HERMES_UNITY_BATCH_SIZE})
  endif()
  set_target_properties(${target} PROPERTIES
    UNITY_BUILD ${HERMES_UNITY_BUILD}
    UNITY_BUILD_BATCH_SIZE ${arg_BATCH_SIZE})
endfunction()
