# Test code: the test executables, the fixtures and servers they share, the soak and crash
# programs. It is compiled to check the library, not to be fast: in optimised builds it
# gets -Og instead of the build type's -O2, which halves its compile time (a unity batch of
# four store tests: 20 s at -O2, 10.5 s at -Og with GCC 12) and keeps the warnings that
# need data-flow analysis. The library under test keeps the build type's flags, so every
# test still runs against optimised hermes.
set(HERMES_TEST_OPTIMIZATION "-Og" CACHE STRING
    "Optimisation flag for test code in optimised builds (empty: the build type's own)")

# hermes_test_code(<targets>...): unity batches and HERMES_TEST_OPTIMIZATION.
function(hermes_test_code)
  foreach(target IN LISTS ARGN)
    hermes_unity_build(${target})
    if(HERMES_TEST_OPTIMIZATION AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
      target_compile_options(${target} PRIVATE
        $<$<CONFIG:Release,RelWithDebInfo,MinSizeRel>:${HERMES_TEST_OPTIMIZATION}>)
    endif()
  endforeach()
endfunction()
