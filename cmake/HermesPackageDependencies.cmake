# Which packages a consumer of the installed libraries must find, derived from what the
# targets actually link, so a dependency added in src/ cannot be forgotten in
# hermesConfig.cmake or hermes.pc: an unknown imported target stops the configure step.
#
# hermes_package_dependencies(<target>
#     CMAKE_PUBLIC <var> CMAKE_PRIVATE <var> PKGCONFIG_PUBLIC <var> PKGCONFIG_PRIVATE <var>)
# sets each <var> to a list: CMake package names for find_dependency(), pkg-config
# module names for Requires/Requires.private. Threads has no pkg-config module; its flags
# go to Libs (see hermes_threads_libs).

# <imported target>|<CMake package>|<pkg-config module>
set(HERMES_KNOWN_DEPENDENCIES
  "Threads::Threads|Threads|"
  "nlohmann_json::nlohmann_json|nlohmann_json|nlohmann_json"
  "CURL::libcurl|CURL|libcurl"
  "SQLite::SQLite3|SQLite3|sqlite3"
  "simdjson::simdjson|simdjson|simdjson"
  "fmt::fmt|fmt|fmt"
  "PostgreSQL::PostgreSQL|PostgreSQL|libpq")

function(_hermes_lookup_dependency item out_cmake out_pc)
  foreach(entry IN LISTS HERMES_KNOWN_DEPENDENCIES)
    string(REPLACE "|" ";" fields "${entry}")
    list(GET fields 0 target)
    if(item STREQUAL target)
      list(GET fields 1 cmake_package)
      list(LENGTH fields count)
      set(pc_module "")
      if(count GREATER 2)
        list(GET fields 2 pc_module)
      endif()
      set(${out_cmake} "${cmake_package}" PARENT_SCOPE)
      set(${out_pc} "${pc_module}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR
    "hermes links ${item}, which cmake/HermesPackageDependencies.cmake does not know: "
    "add it to HERMES_KNOWN_DEPENDENCIES so installed packages find it too")
endfunction()

# The imported targets in a LINK_LIBRARIES / INTERFACE_LINK_LIBRARIES list. Build-only
# entries ($<BUILD_INTERFACE:...>), link-only entries (how CMake records the private
# dependencies of a static library in its interface) and targets of this project are not
# public dependencies of the installed package.
function(_hermes_imported_targets items out)
  set(result "")
  foreach(item IN LISTS items)
    # ::@(directory) ... ::@ bracket the items target_link_libraries() added from another
    # directory (src/store links libpq); the markers themselves are no dependency.
    if(item MATCHES "^::@")
      continue()
    endif()
    if(item MATCHES "^\\$<(BUILD_INTERFACE|LINK_ONLY):")
      continue()
    elseif(item MATCHES "^\\$<")
      message(FATAL_ERROR "hermes links ${item}: cmake/HermesPackageDependencies.cmake cannot "
                          "tell which package that is; link the imported target directly")
    endif()
    if(TARGET ${item})
      get_target_property(imported ${item} IMPORTED)
      if(NOT imported)
        continue()
      endif()
    endif()
    list(APPEND result "${item}")
  endforeach()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

function(hermes_package_dependencies target)
  cmake_parse_arguments(PARSE_ARGV 1 arg ""
    "CMAKE_PUBLIC;CMAKE_PRIVATE;PKGCONFIG_PUBLIC;PKGCONFIG_PRIVATE" "")
  get_target_property(all ${target} LINK_LIBRARIES)
  get_target_property(public ${target} INTERFACE_LINK_LIBRARIES)
  if(NOT all)
    set(all "")
  endif()
  if(NOT public)
    set(public "")
  endif()
  _hermes_imported_targets("${all}" all)
  _hermes_imported_targets("${public}" public)

  set(cmake_public "")
  set(cmake_private "")
  set(pc_public "")
  set(pc_private "")
  foreach(item IN LISTS all)
    _hermes_lookup_dependency(${item} cmake_package pc_module)
    if(item IN_LIST public)
      list(APPEND cmake_public ${cmake_package})
      list(APPEND pc_public ${pc_module})
    else()
      list(APPEND cmake_private ${cmake_package})
      list(APPEND pc_private ${pc_module})
    endif()
  endforeach()
  foreach(var cmake_public cmake_private pc_public pc_private)
    list(REMOVE_DUPLICATES ${var})
  endforeach()
  set(${arg_CMAKE_PUBLIC} "${cmake_public}" PARENT_SCOPE)
  set(${arg_CMAKE_PRIVATE} "${cmake_private}" PARENT_SCOPE)
  set(${arg_PKGCONFIG_PUBLIC} "${pc_public}" PARENT_SCOPE)
  set(${arg_PKGCONFIG_PRIVATE} "${pc_private}" PARENT_SCOPE)
endfunction()

# The linker flags Threads::Threads stands for ("-pthread", "-lpthread" or nothing).
function(hermes_threads_libs out)
  set(flags "${CMAKE_THREAD_LIBS_INIT}")
  if(THREADS_HAVE_PTHREAD_ARG AND NOT flags)
    set(flags "-pthread")
  endif()
  set(${out} "${flags}" PARENT_SCOPE)
endfunction()

# The libraries the C++ compiler links implicitly (libstdc++ or libc++, libm, ...) and
# the C compiler does not: what a C program linking a static C++ archive must add.
function(hermes_cxx_runtime_libs out)
  set(flags "")
  foreach(lib IN LISTS CMAKE_CXX_IMPLICIT_LINK_LIBRARIES)
    if(NOT lib IN_LIST CMAKE_C_IMPLICIT_LINK_LIBRARIES)
      list(APPEND flags "-l${lib}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES flags)
  list(JOIN flags " " flags)
  set(${out} "${flags}" PARENT_SCOPE)
endfunction()
