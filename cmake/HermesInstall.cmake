# Install rules (headers, libraries, CMake package, pkg-config file).
include(GNUInstallDirs)
