import os

from conan import ConanFile
from conan.errors import ConanInvalidConfiguration
from conan.tools.build import check_min_cppstd, stdcpp_library
from conan.tools.cmake import CMake, CMakeDeps, CMakeToolchain, cmake_layout
from conan.tools.files import copy, rmdir

required_conan_version = ">=2.0"


class HermesConan(ConanFile):
    # "hermes" on Conan Center is the Hermes JavaScript engine.
    name = "hermes-agent-cpp"
    version = "0.2.0"
    description = "Embeddable agent runtime: tool-calling loop, context compression, session store"
    homepage = "https://github.com/hermes-runtime/hermes"
    url = "https://github.com/hermes-runtime/hermes"
    license = "MIT"
    topics = ("agent", "llm", "tool-calling")
    package_type = "library"
    settings = "os", "arch", "compiler", "build_type"
    # postgres: the PostgreSQL session store (hermes/postgres_store.hpp), with libpq.
    # with_opentelemetry: opentelemetry-cpp for the header-only adapter
    # hermes/opentelemetry_sink.hpp; the libraries are built the same either way.
    options = {
        "shared": [True, False],
        "fPIC": [True, False],
        "postgres": [True, False],
        "with_opentelemetry": [True, False],
    }
    default_options = {
        "shared": False,
        "fPIC": True,
        "postgres": False,
        "with_opentelemetry": False,
        # The session store's full-text search.
        "sqlite3/*:enable_fts5": True,
    }

    def export_sources(self):
        # The recipe lives in packaging/conan of the source tree it builds.
        root = os.path.join(self.recipe_folder, "..", "..")
        for pattern in ("LICENSE", "CMakeLists.txt", "cmake/*", "include/*", "src/*", "capi/*"):
            copy(self, pattern, src=root, dst=self.export_sources_folder)

    def config_options(self):
        if self.settings.os == "Windows":
            del self.options.fPIC

    def configure(self):
        if self.options.shared:
            self.options.rm_safe("fPIC")

    def validate(self):
        # The public headers are C++17; only Linux is built and tested.
        check_min_cppstd(self, 17)
        if self.settings.os != "Linux":
            raise ConanInvalidConfiguration(f"{self.ref} is built and tested on Linux only")

    def validate_build(self):
        check_min_cppstd(self, 20)  # The sources are C++20.

    def layout(self):
        cmake_layout(self)

    def requirements(self):
        # nlohmann_json is part of the C++ API; the others are implementation details.
        self.requires("nlohmann_json/[>=3.10 <4]", transitive_headers=True)
        self.requires("libcurl/[>=7.68 <9]")
        self.requires("sqlite3/[>=3.35 <4]")
        self.requires("simdjson/[>=1.0 <4]")
        self.requires("fmt/[>=8 <12]")
        if self.options.postgres:
            self.requires("libpq/[>=13 <18]")
        if self.options.with_opentelemetry:
            # hermes/opentelemetry_sink.hpp includes the opentelemetry-cpp API headers.
            self.requires("opentelemetry-cpp/[>=1.9 <2]", transitive_headers=True)

    def generate(self):
        toolchain = CMakeToolchain(self)
        # The same switches as the vcpkg port: the libraries, nothing else.
        toolchain.cache_variables["HERMES_BUILD_TESTS"] = False
        toolchain.cache_variables["HERMES_BUILD_EXAMPLES"] = False
        toolchain.cache_variables["HERMES_BUILD_BENCHMARKS"] = False
        toolchain.cache_variables["HERMES_BUILD_PYTHON"] = False
        toolchain.cache_variables["HERMES_WITH_POSTGRES"] = "ON" if self.options.postgres else "OFF"
        toolchain.cache_variables["HERMES_C_SHARED"] = bool(self.options.shared)
        toolchain.generate()
        CMakeDeps(self).generate()

    def build(self):
        cmake = CMake(self)
        cmake.configure()
        cmake.build()

    def package(self):
        cmake = CMake(self)
        cmake.install()
        copy(self, "LICENSE", src=self.source_folder, dst=os.path.join(self.package_folder, "licenses"))
        # Consumers get the config CMakeDeps generates from package_info (the same
        # targets, hermes::hermes and hermes::hermes_c); two configs would compete.
        rmdir(self, os.path.join(self.package_folder, "lib", "cmake"))
        rmdir(self, os.path.join(self.package_folder, "lib", "pkgconfig"))
        rmdir(self, os.path.join(self.package_folder, "share"))  # The licence is in licenses/.

    def package_info(self):
        self.cpp_info.set_property("cmake_file_name", "hermes")
        self.cpp_info.set_property("pkg_config_name", "hermes-agent-cpp")

        cxx = self.cpp_info.components["hermes"]
        cxx.set_property("cmake_target_name", "hermes::hermes")
        cxx.set_property("pkg_config_name", "hermes_agent")
        cxx.libs = ["hermes_agent"]
        cxx.requires = [
            "nlohmann_json::nlohmann_json",
            "libcurl::libcurl",
            "sqlite3::sqlite3",
            "simdjson::simdjson",
            "fmt::fmt",
        ]
        if self.options.postgres:
            cxx.requires.append("libpq::libpq")
        if self.options.with_opentelemetry:
            # Consumers of the C++ API get opentelemetry-cpp's headers and libraries.
            cxx.requires.append("opentelemetry-cpp::opentelemetry-cpp")
        if self.options.shared:
            cxx.defines = ["HERMES_SHARED"]
        if self.settings.os in ("Linux", "FreeBSD"):
            cxx.system_libs = ["pthread", "m"]

        c_abi = self.cpp_info.components["hermes_c"]
        c_abi.set_property("cmake_target_name", "hermes::hermes_c")
        c_abi.set_property("pkg_config_name", "hermes_agent_c")
        c_abi.libs = ["hermes_agent_c"]
        # A static C ABI needs the C++ library and its runtime when a C program links it.
        c_abi.requires = ["hermes"]
        if not self.options.shared and stdcpp_library(self):
            c_abi.system_libs = [stdcpp_library(self)]
