# Installs the python component of BUILD_DIR into PREFIX (emptied first) and imports the
# package from PREFIX/SITE with PYTHON, away from the build tree.
#   cmake -DBUILD_DIR=<build> -DPREFIX=<prefix> -DSITE=<site-packages, relative>
#         -DPYTHON=<interpreter> -P check_install.cmake
file(REMOVE_RECURSE "${PREFIX}")
execute_process(
  COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --component python --prefix "${PREFIX}"
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "cmake --install --component python failed: ${result}")
endif()
foreach(file __init__.py _native.pyi py.typed)
  if(NOT EXISTS "${PREFIX}/${SITE}/hermes/${file}")
    message(FATAL_ERROR "not installed: ${SITE}/hermes/${file}")
  endif()
endforeach()
file(GLOB native "${PREFIX}/${SITE}/hermes/_native*.so")
if(NOT native)
  message(FATAL_ERROR "not installed: ${SITE}/hermes/_native*.so")
endif()
# Nothing else: the component holds the package only.
file(GLOB_RECURSE installed RELATIVE "${PREFIX}" "${PREFIX}/*")
foreach(path IN LISTS installed)
  if(NOT path MATCHES "/hermes/[^/]+$")
    message(FATAL_ERROR "the python component installed ${path}")
  endif()
endforeach()
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env --unset=PYTHONPATH "PYTHONPATH=${PREFIX}/${SITE}"
          "${PYTHON}" -c
          "import hermes, pathlib, sys; p = pathlib.Path(hermes.__file__).resolve(); \
assert str(p).startswith(sys.argv[1]), p; \
names = {o['name'] for o in hermes.describe_options()}; assert 'provider.model' in names; \
print('imported', hermes.__version__, 'from', p.parent)"
          "${PREFIX}"
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "the installed package does not import: ${result}")
endif()
