# Runs a command in an empty BUILD_DIR: a nested project must configure from scratch,
# or results cached by an earlier run (found packages, pkg-config flags) would hide a
# change in what is installed. The directory is removed again when the command succeeds
# (each is a whole build of hermes or of a consumer, gigabytes together), and kept for
# inspection when it fails or HERMES_KEEP_NESTED_BUILDS is set in the environment.
#   cmake -DBUILD_DIR=<dir> -P fresh_build.cmake -- <command> <args>...
file(REMOVE_RECURSE "${BUILD_DIR}")
set(command "")
set(in_command FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(in_command)
    list(APPEND command "${CMAKE_ARGV${i}}")
  elseif(CMAKE_ARGV${i} STREQUAL "--")
    set(in_command TRUE)
  endif()
endforeach()
if(NOT command)
  message(FATAL_ERROR "usage: cmake -DBUILD_DIR=<dir> -P fresh_build.cmake -- <command>...")
endif()
execute_process(COMMAND ${command} RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${command}: ${result} (build kept in ${BUILD_DIR})")
endif()
if(NOT DEFINED ENV{HERMES_KEEP_NESTED_BUILDS})
  file(REMOVE_RECURSE "${BUILD_DIR}")
endif()
