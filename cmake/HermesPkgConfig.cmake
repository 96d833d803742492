# pkg-config files for hermes (C++, module hermes_agent) and hermes_c (C ABI, module
# hermes_agent_c), in two forms:
#
#   - for the installed tree (installed by HermesInstall.cmake): relocatable, every path
#     relative to the .pc file itself, so `cmake --install --prefix <any>` works;
#   - for this build tree, as <build>/pkgconfig/hermes_agent-uninstalled.pc and
#     hermes_agent_c-uninstalled.pc: pkg-config prefers a module's -uninstalled file when both
#     are on PKG_CONFIG_PATH, so the Rust and Go bindings build against the build tree
#     with PKG_CONFIG_PATH=<build>/pkgconfig and nothing installed. They carry an rpath,
#     since nothing else tells the loader where the build tree is.
#
# A static library is the only form of it in its install, so every link of it needs
# what it links: its dependencies go to Requires and Libs, where a plain
# `pkg-config --libs` sees them. Requires.private would hide them behind --static, which
# also demands each dependency's own static closure (libcurl's is a dozen archives a
# system with shared libcurl does not have). `--static` still works for fully static
# links. A shared library names nothing private.
include(HermesPackageDependencies)

hermes_package_dependencies(hermes
  CMAKE_PUBLIC HERMES_CMAKE_PUBLIC_DEPENDENCIES
  CMAKE_PRIVATE HERMES_CMAKE_PRIVATE_DEPENDENCIES
  PKGCONFIG_PUBLIC _hermes_pc_public
  PKGCONFIG_PRIVATE _hermes_pc_private)

get_target_property(_hermes_type hermes TYPE)
get_target_property(_hermes_c_type hermes_c TYPE)
set(HERMES_IS_STATIC OFF)
if(_hermes_type STREQUAL "STATIC_LIBRARY")
  set(HERMES_IS_STATIC ON)
endif()

set(HERMES_PC_CFLAGS "")
if(HERMES_IS_STATIC)
  list(APPEND _hermes_pc_public ${_hermes_pc_private})
else()
  set(HERMES_PC_CFLAGS " -DHERMES_SHARED")
endif()
list(JOIN _hermes_pc_public " " HERMES_PC_REQUIRES)
hermes_threads_libs(_hermes_threads)
set(HERMES_PC_LIBS "")
if(_hermes_threads)
  set(HERMES_PC_LIBS " ${_hermes_threads}")
endif()

set(HERMES_C_PC_REQUIRES "")
set(HERMES_C_PC_LIBS "")
if(_hermes_c_type STREQUAL "STATIC_LIBRARY")
  # A C program linking the static C ABI links the C++ library and its runtime too.
  set(HERMES_C_PC_REQUIRES "hermes_agent")
  hermes_cxx_runtime_libs(_hermes_cxx_runtime)
  if(_hermes_cxx_runtime)
    set(HERMES_C_PC_LIBS " ${_hermes_cxx_runtime}")
  endif()
endif()

# Installed: prefix relative to the directory holding the .pc file.
if(IS_ABSOLUTE "${HERMES_INSTALL_PKGCONFIGDIR}")
  set(_hermes_prefix "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH _hermes_up "/root/${HERMES_INSTALL_PKGCONFIGDIR}" "/root")
  string(REGEX REPLACE "/$" "" _hermes_up "${_hermes_up}")
  set(_hermes_prefix "\${pcfiledir}/${_hermes_up}")
endif()
set(HERMES_PC_LOCATIONS "prefix=${_hermes_prefix}
libdir=\${prefix}/${CMAKE_INSTALL_LIBDIR}
includedir=\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  string(REPLACE "\${prefix}/${CMAKE_INSTALL_LIBDIR}" "${CMAKE_INSTALL_LIBDIR}"
         HERMES_PC_LOCATIONS "${HERMES_PC_LOCATIONS}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  string(REPLACE "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}" "${CMAKE_INSTALL_INCLUDEDIR}"
         HERMES_PC_LOCATIONS "${HERMES_PC_LOCATIONS}")
endif()
set(HERMES_PC_RPATH "")
set(HERMES_PKGCONFIG_INSTALL_FILES
  "${PROJECT_BINARY_DIR}/pkgconfig-install/hermes_agent.pc"
  "${PROJECT_BINARY_DIR}/pkgconfig-install/hermes_agent_c.pc")
configure_file(${CMAKE_CURRENT_LIST_DIR}/hermes_agent.pc.in
  ${PROJECT_BINARY_DIR}/pkgconfig-install/hermes_agent.pc @ONLY)
configure_file(${CMAKE_CURRENT_LIST_DIR}/hermes_agent_c.pc.in
  ${PROJECT_BINARY_DIR}/pkgconfig-install/hermes_agent_c.pc @ONLY)

# Uninstalled: the headers in the source tree, the libraries where the build put them.
get_property(_hermes_multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
set(HERMES_UNINSTALLED_PKGCONFIG_DIR "${PROJECT_BINARY_DIR}/pkgconfig")
if(_hermes_multi_config)
  string(APPEND HERMES_UNINSTALLED_PKGCONFIG_DIR "/$<CONFIG>")
endif()
foreach(_hermes_lib IN ITEMS hermes hermes_c)
  if(_hermes_lib STREQUAL "hermes")
    set(_hermes_include "${PROJECT_SOURCE_DIR}/include")
    set(_hermes_module hermes_agent)
  else()
    set(_hermes_include "${PROJECT_SOURCE_DIR}/capi")
    set(_hermes_module hermes_agent_c)
  endif()
  set(HERMES_PC_LOCATIONS "libdir=$<TARGET_FILE_DIR:${_hermes_lib}>
includedir=${_hermes_include}")
  set(HERMES_PC_RPATH " -Wl,-rpath,\${libdir}")
  configure_file(${CMAKE_CURRENT_LIST_DIR}/${_hermes_module}.pc.in
    ${PROJECT_BINARY_DIR}/pkgconfig-uninstalled/${_hermes_module}.pc.in @ONLY)
  file(GENERATE
    OUTPUT "${HERMES_UNINSTALLED_PKGCONFIG_DIR}/${_hermes_module}-uninstalled.pc"
    INPUT "${PROJECT_BINARY_DIR}/pkgconfig-uninstalled/${_hermes_module}.pc.in")
endforeach()

unset(_hermes_type)
unset(_hermes_c_type)
unset(_hermes_threads)
unset(_hermes_prefix)
unset(_hermes_up)
unset(_hermes_multi_config)
unset(_hermes_lib)
unset(_hermes_module)
unset(_hermes_include)
unset(_hermes_pc_public)
unset(_hermes_pc_private)
unset(_hermes_cxx_runtime)
