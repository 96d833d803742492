# Installs the build tree BUILD_DIR into PREFIX, emptied first so that files a previous
# run installed cannot hide a missing install rule.
#   cmake -DBUILD_DIR=<build> -DPREFIX=<prefix> [-DCONFIG=<config>] -P install_tree.cmake
file(REMOVE_RECURSE "${PREFIX}")
set(config_args "")
if(CONFIG)
  set(config_args --config "${CONFIG}")
endif()
execute_process(
  COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}" ${config_args}
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${result}")
endif()
