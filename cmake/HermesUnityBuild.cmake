# Unity builds: each target's sources are compiled a batch at a time, several source files
# per translation unit, so the standard library, nlohmann/json and doctest are parsed and
# their templates instantiated and optimised once per batch instead of once per file.
# Parsing hermes/hermes.hpp alone costs a GCC 12 process about 2.9 s, as much as
# compiling a typical source file of the library.
#
# On by default (it is also what a package manager building hermes once wants). Turn it off
# with -DHERMES_UNITY_BUILD=OFF when editing: a change then recompiles one file, not its
# whole batch. A unity build can hide a missing #include (an earlier file of the batch
# brought it in); a build with it off shows it.
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

# Files per batch unless a target says otherwise; 0 puts all of a target's sources in one
# batch. One batch per target is the cheapest (the same templates are instantiated and
# optimised once per target, not once per batch): the ci preset's cold build takes 624 s
# of CPU with one batch per target, 880 s with batches of 8, and the 47 sources of
# hermes_store compile in 29 s as one batch, 41 s as three. Two cores stay busy anyway:
# there are more targets than cores, and they compile in parallel.
set(HERMES_UNITY_BATCH_SIZE 0 CACHE STRING "Source files per unity batch (0: one batch per target)")

# hermes_unity_build(<target> [BATCH_SIZE <n>])
function(hermes_unity_build target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "BATCH_SIZE" "")
  if(NOT DEFINED arg_BATCH_SIZE)
    set(arg_BATCH_SIZE ${HERMES_UNITY_BATCH_SIZE})
  endif()
  set_target_properties(${target} PROPERTIES
    UNITY_BUILD ${HERMES_UNITY_BUILD}
    UNITY_BUILD_BATCH_SIZE ${arg_BATCH_SIZE})
endfunction()
