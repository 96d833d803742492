# Fails unless every symbol LIBRARY exports is hermes_*: the C ABI is the only thing
# libhermes_agent_c shows, whatever it links in.
#   cmake -DNM=<nm> -DLIBRARY=<libhermes_agent_c.so> -P check_exports.cmake
execute_process(
  COMMAND "${NM}" -D --defined-only "${LIBRARY}"
  OUTPUT_VARIABLE symbols
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${LIBRARY}")
endif()
string(REPLACE "\n" ";" lines "${symbols}")
set(exported 0)
set(strays "")
foreach(line IN LISTS lines)
  # "<address> <type> <name>"
  if(NOT line MATCHES "^[0-9a-fA-F]+ [A-Za-z] (.+)$")
    continue()
  endif()
  set(name "${CMAKE_MATCH_1}")
  if(name MATCHES "^hermes_")
    math(EXPR exported "${exported} + 1")
  else()
    list(APPEND strays "${name}")
  endif()
endforeach()
if(strays)
  list(JOIN strays "\n  " strays)
  message(FATAL_ERROR "${LIBRARY} exports symbols outside the C ABI:\n  ${strays}")
endif()
if(exported EQUAL 0)
  message(FATAL_ERROR "${LIBRARY} exports no hermes_* symbol at all")
endif()
message(STATUS "${LIBRARY}: ${exported} hermes_* symbols, nothing else")
