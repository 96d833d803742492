# Install rules: the public headers, the libraries, the CMake package (hermesConfig.cmake,
# hermesConfigVersion.cmake, exported targets hermes::hermes and hermes::hermes_c), the
# pkg-config files (cmake/HermesPkgConfig.cmake makes them) and the LICENSE (in
# share/doc/hermes-agent-cpp, the distribution's name). tests/consumer/ builds small projects against the installed tree to
# keep all of this honest.
include(CMakePackageConfigHelpers)

set(HERMES_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/hermes"
  CACHE STRING "Where hermesConfig.cmake is installed, relative to the prefix")

install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/hermes"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
  COMPONENT hermes_development
  FILES_MATCHING PATTERN "*.hpp")

install(TARGETS hermes hermes_c
  EXPORT hermesTargets
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT hermes_runtime
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT hermes_runtime
    NAMELINK_COMPONENT hermes_development
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT hermes_development
  PUBLIC_HEADER DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT hermes_development
  INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")

install(EXPORT hermesTargets
  NAMESPACE hermes::
  FILE hermesTargets.cmake
  DESTINATION "${HERMES_INSTALL_CMAKEDIR}"
  COMPONENT hermes_development)

# The lists are substituted unquoted into foreach(... IN ITEMS ...).
list(JOIN HERMES_CMAKE_PUBLIC_DEPENDENCIES " " HERMES_CONFIG_PUBLIC_DEPENDENCIES)
list(JOIN HERMES_CMAKE_PRIVATE_DEPENDENCIES " " HERMES_CONFIG_PRIVATE_DEPENDENCIES)
set(HERMES_CONFIG_STATIC ${HERMES_IS_STATIC})
configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/hermesConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/cmake-install/hermesConfig.cmake"
  INSTALL_DESTINATION "${HERMES_INSTALL_CMAKEDIR}")
# Before 1.0 a minor release may break the C++ API: a request for 0.1 is met by 0.1.x
# only. From 1.0 on, any later release of the same major version will do.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(_hermes_compatibility SameMinorVersion)
else()
  set(_hermes_compatibility SameMajorVersion)
endif()
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/cmake-install/hermesConfigVersion.cmake"
  COMPATIBILITY ${_hermes_compatibility})
unset(_hermes_compatibility)

install(FILES
    "${PROJECT_BINARY_DIR}/cmake-install/hermesConfig.cmake"
    "${PROJECT_BINARY_DIR}/cmake-install/hermesConfigVersion.cmake"
  DESTINATION "${HERMES_INSTALL_CMAKEDIR}"
  COMPONENT hermes_development)

install(FILES ${HERMES_PKGCONFIG_INSTALL_FILES}
  DESTINATION "${HERMES_INSTALL_PKGCONFIGDIR}"
  COMPONENT hermes_development)

# The licence travels with the libraries (MIT: the notice must accompany every copy).
install(FILES "${PROJECT_SOURCE_DIR}/LICENSE"
  DESTINATION "${CMAKE_INSTALL_DATAROOTDIR}/doc/${HERMES_DISTRIBUTION_NAME}"
  COMPONENT hermes_runtime)
