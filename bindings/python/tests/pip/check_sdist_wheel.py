"""Makes the sdist, checks that it carries what a build needs, builds a wheel from the
unpacked sdist with pip, offline, and uses the wheel installed into a fresh venv.

    check_sdist_wheel.py <work dir>

Needs HERMES_MOCK_SERVER and HERMES_PREFIX (an installed hermes: the wheel's module is
built against it, which takes a minute instead of the library's full build). The sdist's
own sources are checked by configuring them with CMake, which fails on any source file a
target lists and the sdist lacks. HERMES_SDIST_FULL_BUILD=1 builds the wheel from the
sdist's sources alone instead. Exits 77 (skipped) when /usr/bin/python3 cannot make a venv.
"""
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGE_DIR = HERE.parent.parent
sys.path.insert(0, str(HERE))
from check_pip_install import build_environment, make_venv  # noqa: E402

failures = []


def check(ok, message):
    if not ok:
        failures.append(message)


def make_sdist(work, env):
    dist = work / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    # egg-info goes to the work directory, not into the source tree.
    subprocess.run([sys.executable, "setup.py", "-q", "egg_info", "--egg-base", str(work),
                    "sdist", "-d", str(dist)], cwd=PACKAGE_DIR, env=env, check=True)
    (archive,) = dist.glob("*.tar.gz")
    return archive


def check_sdist(archive):
    with tarfile.open(archive) as tar:
        names = tar.getnames()
        top = names[0].split("/")[0]
        members = {name[len(top) + 1:] for name in names}
        pkg_info = tar.extractfile(f"{top}/PKG-INFO").read().decode()
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE", "hermes/__init__.py",
                 "hermes/_native.pyi", "hermes/py.typed", "hermes-src/CMakeLists.txt",
                 "hermes-src/LICENSE", "hermes-src/src/agent/agent.cpp",
                 "hermes-src/include/hermes/agent.hpp", "hermes-src/capi/hermes_c.h",
                 "hermes-src/bindings/python/CMakeLists.txt",
                 "hermes-src/bindings/python/src/module.cpp"):
        check(name in members, f"the sdist lacks {name}")
    check(not any(m.endswith((".so", ".o", ".pyc")) for m in members), "the sdist holds build output")
    check(not any(m.startswith(("hermes-src/tests/", "hermes-src/build")) for m in members),
          "the sdist holds the tests or a build directory")
    check("License: MIT" in pkg_info, "PKG-INFO does not say License: MIT")
    check("Description-Content-Type: text/markdown" in pkg_info, "PKG-INFO has no readme")
    check("Name: hermes-agent-cpp" in pkg_info, "PKG-INFO does not name hermes-agent-cpp")


def unpack(archive, work):
    unpacked = work / "unpacked"
    shutil.rmtree(unpacked, ignore_errors=True)
    with tarfile.open(archive) as tar:
        tar.extractall(unpacked)
    (root,) = unpacked.iterdir()
    return root


def configure_bundled_sources(root, work, env):
    build = work / "sdist-configure"
    shutil.rmtree(build, ignore_errors=True)
    subprocess.run(["cmake", "-S", str(root / "hermes-src"), "-B", str(build), "-G", "Ninja",
                    "-DHERMES_BUILD_PYTHON=ON", "-DHERMES_BUILD_TESTS=OFF",
                    "-DHERMES_BUILD_EXAMPLES=OFF", "-DHERMES_BUILD_BENCHMARKS=OFF",
                    f"-DPython_EXECUTABLE={sys.executable}"],
                   env=env, check=True, stdout=subprocess.DEVNULL)


def build_wheel(root, work, env):
    wheels = work / "wheels"
    shutil.rmtree(wheels, ignore_errors=True)
    # A fresh build directory: one left by an sdist of another version names other sources.
    build = work / "wheel-build"
    shutil.rmtree(build, ignore_errors=True)
    env = dict(env, HERMES_BUILD_DIR=str(build))
    if os.environ.get("HERMES_SDIST_FULL_BUILD") == "1":
        env.pop("HERMES_PREFIX", None)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps",
                    "-w", str(wheels), str(root)], env=env, check=True)
    (wheel,) = wheels.glob("*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        metadata = next(z.read(n).decode() for n in names if n.endswith(".dist-info/METADATA"))
    for name in ("hermes/__init__.py", "hermes/_native.pyi", "hermes/py.typed"):
        check(name in names, f"the wheel lacks {name}")
    check(any(n.startswith("hermes/_native") and n.endswith(".so") for n in names),
          "the wheel lacks hermes/_native*.so")
    check("License: MIT" in metadata, "the wheel's METADATA does not say License: MIT")
    return wheel


def main():
    work = Path(sys.argv[1]).resolve()
    work.mkdir(parents=True, exist_ok=True)
    env = build_environment(work)
    archive = make_sdist(work, env)
    check_sdist(archive)
    root = unpack(archive, work)
    configure_bundled_sources(root, work, env)
    wheel = build_wheel(root, work, env)
    venv = work / "wheel-venv"
    make_venv(venv)
    python = str(venv / "bin" / "python")
    subprocess.run([python, "-m", "pip", "install", "--no-deps", str(wheel)], env=env, check=True)
    subprocess.run([python, str(HERE / "smoke.py"), str(venv)], env=env, check=True, cwd=str(work))
    if failures:
        print("\n".join("FAILED: " + f for f in failures))
        sys.exit(1)
    print(f"sdist {archive.name} and wheel {wheel.name}: ok")


if __name__ == "__main__":
    main()
