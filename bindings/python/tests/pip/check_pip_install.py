"""Installs the package into a fresh venv with pip, offline, and uses it.

    check_pip_install.py <work dir>

Needs HERMES_MOCK_SERVER. With HERMES_PREFIX, pip builds the module against the hermes
installed there instead of building the whole library. Exits 77 (skipped) when /usr/bin/python3 cannot make a venv
(python3-venv missing: scripts/bootstrap all installs it).
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGE_DIR = HERE.parent.parent
SKIPPED = 77


def make_venv(venv):
    shutil.rmtree(venv, ignore_errors=True)
    made = subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", str(venv)],
                          capture_output=True, text=True)
    if made.returncode != 0:
        print("cannot create a venv (is python3-venv installed?):\n" + made.stderr)
        sys.exit(SKIPPED)


def build_environment(work):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    # Kept between runs, so reruns are incremental. With HERMES_PREFIX (the CTest test
    # passes the install of the build it belongs to) only the module is compiled.
    env.setdefault("HERMES_BUILD_DIR", str(work / "build"))
    env.setdefault("HERMES_CMAKE_ARGS", "-DCMAKE_BUILD_TYPE=RelWithDebInfo -DHERMES_WERROR=ON")
    env.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", "2")
    env["PIP_NO_INDEX"] = "1"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    if shutil.which("ccache"):
        env.setdefault("CMAKE_CXX_COMPILER_LAUNCHER", "ccache")
        env.setdefault("CMAKE_C_COMPILER_LAUNCHER", "ccache")
    return env


def main():
    work = Path(sys.argv[1]).resolve()
    work.mkdir(parents=True, exist_ok=True)
    venv = work / "venv"
    make_venv(venv)
    env = build_environment(work)
    python = str(venv / "bin" / "python")
    subprocess.run([python, "-m", "pip", "install", "--no-build-isolation", str(PACKAGE_DIR)],
                   env=env, check=True)
    subprocess.run([python, str(HERE / "smoke.py"), str(venv)], env=env, check=True,
                   cwd=str(work))  # Not the source tree: `import hermes` must find the install.
    print("pip install: ok")


if __name__ == "__main__":
    main()
