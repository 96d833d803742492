"""Builds hermes._native with CMake, then copies the module into the package: by default
the whole hermes project (the C++ library and the module, nothing else) in a build
directory of its own; with HERMES_PREFIX, only the module, against the hermes installed
there (`cmake --install` of a hermes build, or a package manager's).

An sdist (`python setup.py sdist`) carries the hermes sources it needs in hermes-src/, so
that it builds from itself wherever it is unpacked.

Environment:
  HERMES_PREFIX       an installed hermes to build against instead of building it
  HERMES_SOURCE_DIR   the hermes source tree (default: hermes-src/ in an sdist, else two
                      directories up)
  HERMES_BUILD_DIR    the CMake build directory (default: under setuptools' build_temp);
                      kept between builds, so a rebuild is incremental
  HERMES_CMAKE_ARGS   extra arguments for the CMake configure step
  CMAKE_BUILD_PARALLEL_LEVEL, CMAKE_CXX_COMPILER_LAUNCHER  as CMake reads them
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent
# In an sdist the sources are beside this file; in a checkout two directories up.
BUNDLED_SOURCES = "hermes-src"
SOURCE_DIR = Path(os.environ.get("HERMES_SOURCE_DIR") or
                  (HERE / BUNDLED_SOURCES if (HERE / BUNDLED_SOURCES).is_dir() else HERE.parent.parent)).resolve()

# What a build of the library and the module reads from the source tree (the tests,
# examples, benchmarks and other bindings are not built from an sdist).
SDIST_SOURCES = ["CMakeLists.txt", "LICENSE", "README.md", "cmake", "include", "src", "capi",
                 "bindings/python/CMakeLists.txt", "bindings/python/src", "bindings/python/hermes"]


def project_version():
    text = (SOURCE_DIR / "CMakeLists.txt").read_text()
    match = re.search(r"project\(\s*hermes\s+VERSION\s+([0-9][0-9.]*)", text)
    if not match:
        raise RuntimeError("no project version in %s/CMakeLists.txt" % SOURCE_DIR)
    return match.group(1)


def pybind11_cmake_dir():
    """The CMake package of an importable pybind11, or None (then CMake finds the system's)."""
    try:
        import pybind11
    except ImportError:
        return None
    return pybind11.get_cmake_dir()


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build_dir = Path(os.environ.get("HERMES_BUILD_DIR") or Path(self.build_temp) / "cmake").resolve()
        prefix = os.environ.get("HERMES_PREFIX")
        if prefix:
            configure = [
                "cmake", "-S", str(SOURCE_DIR / "bindings" / "python"), "-B", str(build_dir),
                "-DCMAKE_BUILD_TYPE=Release",
                "-DCMAKE_PREFIX_PATH=%s" % Path(prefix).resolve(),
            ]
        else:
            configure = [
                "cmake", "-S", str(SOURCE_DIR), "-B", str(build_dir),
                "-DCMAKE_BUILD_TYPE=Release",
                "-DHERMES_BUILD_PYTHON=ON",
                "-DHERMES_BUILD_TESTS=OFF",
                "-DHERMES_BUILD_EXAMPLES=OFF",
                "-DHERMES_BUILD_BENCHMARKS=OFF",
                "-DHERMES_INSTALL=OFF",
            ]
        # The interpreter doing the install is the one the module must fit.
        configure.append("-DPython_EXECUTABLE=%s" % sys.executable)
        # pybind11 from the index (an isolated build) keeps its CMake package inside the
        # Python package, where find_package does not look by itself.
        pybind11_dir = pybind11_cmake_dir()
        if pybind11_dir:
            configure.append("-Dpybind11_DIR=%s" % pybind11_dir)
        if shutil.which("ninja") and not (build_dir / "CMakeCache.txt").exists():
            configure += ["-G", "Ninja"]
        configure += shlex.split(os.environ.get("HERMES_CMAKE_ARGS", ""))
        subprocess.check_call(configure)
        subprocess.check_call(["cmake", "--build", str(build_dir), "--target", "hermes_python"])

        built = sorted((build_dir / "python" / "hermes").glob("_native*.so"))
        if not built:
            raise RuntimeError("the build produced no hermes/_native*.so in %s" % build_dir)
        destination = Path(self.get_ext_fullpath(ext.name))
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[-1], destination)


class SourceDistribution(sdist):
    """Adds the hermes sources (SDIST_SOURCES) in hermes-src/ and the licence at the top."""

    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        target = Path(base_dir) / BUNDLED_SOURCES
        for name in SDIST_SOURCES:
            source = SOURCE_DIR / name
            if source.is_dir():
                shutil.copytree(source, target / name,
                                ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so"))
            else:
                target.joinpath(name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target / name)
        shutil.copy2(SOURCE_DIR / "LICENSE", Path(base_dir) / "LICENSE")


setup(
    version=project_version(),
    ext_modules=[CMakeExtension("hermes._native")],
    cmdclass={"build_ext": CMakeBuild, "sdist": SourceDistribution},
)
