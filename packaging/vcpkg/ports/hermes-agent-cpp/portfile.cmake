# Builds the port from the hermes checkout it sits in (packaging/vcpkg/ports/hermes-agent-cpp,
# used with --overlay-ports), or else from the release tarball.
get_filename_component(checkout "${CMAKE_CURRENT_LIST_DIR}/../../../.." ABSOLUTE)
if(EXISTS "${checkout}/capi/hermes_c.h" AND EXISTS "${checkout}/CMakeLists.txt")
    set(SOURCE_PATH "${checkout}")
else()
    vcpkg_from_github(
        OUT_SOURCE_PATH SOURCE_PATH
        REPO hermes-runtime/hermes
        REF "v${VERSION}"
        SHA512 0
        HEAD_REF main
    )
endif()

# Both libraries follow the triplet's linkage.
if(VCPKG_LIBRARY_LINKAGE STREQUAL "dynamic")
    set(c_shared ON)
else()
    set(c_shared OFF)
endif()

# Feature postgres: the PostgreSQL store, against vcpkg's libpq. Feature python: the
# module, built with vcpkg's pybind11 and Python and installed into that Python's
# site-packages (PYTHON3_SITE, set by the python3 port).
vcpkg_check_features(OUT_FEATURE_OPTIONS feature_options
    FEATURES
        postgres HERMES_WITH_POSTGRES
        python HERMES_BUILD_PYTHON
)
if("python" IN_LIST FEATURES)
    list(APPEND feature_options "-DHERMES_PYTHON_INSTALL_DIR=${PYTHON3_SITE}")
endif()

vcpkg_cmake_configure(
    SOURCE_PATH "${SOURCE_PATH}"
    OPTIONS
        ${feature_options}
        -DHERMES_BUILD_TESTS=OFF
        -DHERMES_BUILD_EXAMPLES=OFF
        -DHERMES_BUILD_BENCHMARKS=OFF
        -DHERMES_C_SHARED=${c_shared}
)
vcpkg_cmake_install()
# The CMake package keeps the name hermes (find_package(hermes)), not the port's.
vcpkg_cmake_config_fixup(PACKAGE_NAME hermes CONFIG_PATH lib/cmake/hermes)
vcpkg_fixup_pkgconfig()

# vcpkg installs the licence as share/${PORT}/copyright; the copy CMake installs goes.
file(REMOVE_RECURSE "${CURRENT_PACKAGES_DIR}/debug/include" "${CURRENT_PACKAGES_DIR}/debug/share"
    "${CURRENT_PACKAGES_DIR}/share/doc")
file(INSTALL "${CMAKE_CURRENT_LIST_DIR}/usage" DESTINATION "${CURRENT_PACKAGES_DIR}/share/${PORT}")
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")
