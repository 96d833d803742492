# With HERMES_BUILD_FUZZERS the libraries carry libFuzzer's coverage instrumentation
# (-fsanitize=fuzzer-no-link), so the fuzzers in fuzz/ are guided by the code they test.
# The instrumentation needs no libFuzzer at link time: the sanitizer runtimes define its
# hooks, so the test suite links the same libraries and one build serves both (the asan
# preset).
if(HERMES_BUILD_FUZZERS AND NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "HERMES_BUILD_FUZZERS needs clang (libFuzzer); use the asan preset")
endif()

# hermes_fuzzing_coverage(<target>): the instrumentation, when fuzzers are built.
function(hermes_fuzzing_coverage target)
  if(HERMES_BUILD_FUZZERS)
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link)
  endif()
endfunction()
