#!/usr/bin/env python3
"""Checks the vcpkg port and the Conan recipe against the project, as far as that is
possible without vcpkg and Conan: the files parse, versions agree, every CMake option
they set exists, the targets and paths they promise are the ones an install produces.
Also that every package manifest (vcpkg, Conan, Python, Rust, Go) declares the licence
of LICENSE and that the install carries its text, and that every package is named after
the one distribution name (DISTRIBUTION), as are the library files (LIBRARIES) and the
pkg-config modules.

    check_packaging.py <source dir> <install prefix> <libdir>
"""
import json
import pathlib
import re
import sys

failures = []

# "hermes" alone is PyPI's hermes and the Hermes JavaScript engine's Conan package and
# libhermes; see the top-level CMakeLists.txt.
DISTRIBUTION = "hermes-agent-cpp"
LIBRARIES = ("hermes_agent", "hermes_agent_c")  # Also the pkg-config modules.


def check(ok, message):
    if not ok:
        failures.append(message)


def project_version(root):
    match = re.search(r"project\(hermes\s+VERSION\s+([0-9.]+)", (root / "CMakeLists.txt").read_text())
    return match.group(1)


def cmake_options(root):
    """Every option() and cache variable the project defines."""
    names = set()
    for path in [root / "CMakeLists.txt", *root.glob("cmake/*.cmake"), *root.glob("*/CMakeLists.txt"),
                 *root.glob("bindings/*/CMakeLists.txt")]:
        text = path.read_text()
        names.update(re.findall(r"option\((\w+)", text))
        names.update(re.findall(r"set\((\w+)\s[^)]*\bCACHE\b", text))
    return names


def check_vcpkg(root, version, options, prefix, libdir):
    port = root / "packaging/vcpkg/ports" / DISTRIBUTION
    manifest = json.loads((port / "vcpkg.json").read_text())
    check(manifest["name"] == DISTRIBUTION, f"vcpkg: the port is not named {DISTRIBUTION}")
    check(manifest["name"] == port.name, "vcpkg: the port directory is not named after the port")
    check(manifest["version"] == version, f"vcpkg: version {manifest['version']}, project {version}")
    deps = {d if isinstance(d, str) else d["name"]: d for d in manifest["dependencies"]}
    for name in ("curl", "fmt", "nlohmann-json", "simdjson", "sqlite3"):
        check(name in deps, f"vcpkg: no dependency on {name}")
    check("fts5" in deps.get("sqlite3", {}).get("features", []), "vcpkg: sqlite3 without fts5")
    check(manifest.get("supports") == "linux", 'vcpkg: "supports" is not "linux", what is built and tested')
    postgres = manifest.get("features", {}).get("postgres", {})
    check("libpq" in postgres.get("dependencies", []), "vcpkg: no feature postgres depending on libpq")

    portfile = (port / "portfile.cmake").read_text()
    for name in re.findall(r"-D(\w+)=", portfile):
        check(name in options, f"vcpkg: portfile sets {name}, which the project does not define")
    features = re.search(r"vcpkg_check_features\(.*?FEATURES(.*?)\)", portfile, re.S)
    mapped = dict(re.findall(r"(\w+)\s+(\w+)", features.group(1))) if features else {}
    check(mapped.get("postgres") == "HERMES_WITH_POSTGRES", "vcpkg: feature postgres does not set HERMES_WITH_POSTGRES")
    otel = manifest.get("features", {}).get("opentelemetry", {})
    check("opentelemetry-cpp" in otel.get("dependencies", []),
          "vcpkg: no feature opentelemetry depending on opentelemetry-cpp")
    check((root / "include/hermes/opentelemetry_sink.hpp").exists(),
          "vcpkg: feature opentelemetry, but no include/hermes/opentelemetry_sink.hpp")
    python = manifest.get("features", {}).get("python", {})
    check({"pybind11", "python3"} <= set(python.get("dependencies", [])),
          "vcpkg: no feature python depending on pybind11 and python3")
    check(mapped.get("python") == "HERMES_BUILD_PYTHON", "vcpkg: feature python does not set HERMES_BUILD_PYTHON")
    check("-DHERMES_PYTHON_INSTALL_DIR=${PYTHON3_SITE}" in portfile,
          "vcpkg: feature python does not install into the site-packages of vcpkg's Python")
    check("-DHERMES_BUILD_PYTHON=OFF" not in portfile, "vcpkg: the module is switched off whatever the feature")
    for feature, name in mapped.items():
        check(feature in manifest.get("features", {}), f"vcpkg: the portfile maps {feature}, which vcpkg.json lacks")
        check(name in options, f"vcpkg: feature {feature} sets {name}, which the project does not define")
    config_path = re.search(r"CONFIG_PATH\s+(\S+)\)", portfile).group(1)
    check(config_path == f"{libdir}/cmake/hermes", f"vcpkg: CONFIG_PATH {config_path}")
    check((prefix / config_path / "hermesConfig.cmake").exists(),
          f"vcpkg: the install has no {config_path}/hermesConfig.cmake")

    usage = (port / "usage").read_text()
    check("find_package(hermes CONFIG REQUIRED)" in usage, "vcpkg: usage does not show find_package")
    for target in re.findall(r"hermes::\w+", usage):
        check(target in exported_targets(prefix, libdir), f"vcpkg: usage names {target}, not exported")
    check("PACKAGE_NAME hermes " in portfile, "vcpkg: config fixup does not keep the CMake package name hermes")
    for module in LIBRARIES:
        check((prefix / libdir / "pkgconfig" / f"{module}.pc").exists(),
              f"the install has no pkg-config file {module}.pc")


def check_conan(root, version, options, prefix, libdir):
    recipe_dir = root / "packaging/conan"
    for path in (recipe_dir / "conanfile.py", recipe_dir / "test_package/conanfile.py"):
        try:
            compile(path.read_text(), str(path), "exec")
        except SyntaxError as e:
            check(False, f"conan: {path.name}: {e}")
    recipe = (recipe_dir / "conanfile.py").read_text()
    check(re.search(rf'^\s*name = "{DISTRIBUTION}"$', recipe, re.M), f"conan: the recipe is not named {DISTRIBUTION}")
    check(sorted(re.findall(r'\.libs = \["(\w+)"\]', recipe)) == sorted(LIBRARIES),
          f"conan: the libraries are not {', '.join(LIBRARIES)}")
    match = re.search(r'^\s*version = "([^"]+)"', recipe, re.M)
    check(match and match.group(1) == version, f"conan: version differs from the project's {version}")
    check("def validate(self)" in recipe and "check_min_cppstd(self, 17)" in recipe
          and 'self.settings.os != "Linux"' in recipe, "conan: validate() does not check C++17 and Linux")
    check("check_min_cppstd(self, 20)" in recipe, "conan: building does not require C++20")
    check('"postgres": [True, False]' in recipe and 'self.requires("libpq/' in recipe
          and '"ON" if self.options.postgres' in recipe, "conan: option postgres does not build with libpq")
    check('"with_opentelemetry": [True, False]' in recipe and 'self.requires("opentelemetry-cpp/' in recipe
          and '"opentelemetry-cpp::opentelemetry-cpp"' in recipe,
          "conan: option with_opentelemetry does not make opentelemetry-cpp available")
    for name in re.findall(r'cache_variables\["(\w+)"\]', recipe):
        check(name in options, f"conan: recipe sets {name}, which the project does not define")
    for target in re.findall(r'"cmake_target_name",\s*"([^"]+)"', recipe):
        check(target in exported_targets(prefix, libdir), f"conan: {target} is not an exported target")
    for lib in re.findall(r'\.libs = \["(\w+)"\]', recipe):
        check(any((prefix / libdir).glob(f"lib{lib}.*")), f"conan: the install has no lib{lib}")
    test_cmake = (recipe_dir / "test_package/CMakeLists.txt").read_text()
    check("find_package(hermes CONFIG REQUIRED)" in test_cmake, "conan: test_package does not find_package(hermes)")
    test_source = (recipe_dir / "test_package/test_package.cpp").read_text()
    check("hermes/hermes.hpp" in test_source and "hermes_c.h" in test_source,
          "conan: test_package must use both the C++ API and hermes_c.h")


def check_licence(root, prefix):
    """MIT everywhere: the text at the root, its SPDX identifier in every manifest."""
    licence = root / "LICENSE"
    check(licence.exists() and licence.read_text().startswith("MIT License"),
          "LICENSE: missing, or not the MIT licence")
    installed = prefix / "share/doc" / DISTRIBUTION / "LICENSE"
    check(installed.exists() and installed.read_bytes() == licence.read_bytes(),
          f"the install has no share/doc/{DISTRIBUTION}/LICENSE equal to LICENSE")

    port = root / "packaging/vcpkg/ports" / DISTRIBUTION
    check(json.loads((port / "vcpkg.json").read_text()).get("license") == "MIT",
          'vcpkg: vcpkg.json has no "license": "MIT"')
    check('vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")' in (port / "portfile.cmake").read_text(),
          "vcpkg: the portfile does not install LICENSE as the copyright file")

    recipe = (root / "packaging/conan/conanfile.py").read_text()
    check(re.search(r'^\s*license = "MIT"$', recipe, re.M), 'conan: no license = "MIT"')
    check(re.search(r'for pattern in \([^)]*"LICENSE"', recipe), "conan: export_sources leaves LICENSE out")
    check('copy(self, "LICENSE"' in recipe and '"licenses"' in recipe,
          "conan: package() does not copy LICENSE into licenses/")

    # Read as text: tomllib needs Python 3.11.
    pyproject = (root / "bindings/python/pyproject.toml").read_text()
    check(re.search(r'^license = \{text = "MIT"\}$', pyproject, re.M),
          'python: pyproject.toml has no license = {text = "MIT"}')
    check('"License :: OSI Approved :: MIT License"' in pyproject, "python: no MIT licence classifier")
    check(re.search(rf'^name = "{DISTRIBUTION}"$', pyproject, re.M), f"python: the project is not named {DISTRIBUTION}")
    requires = re.search(r"^requires = \[(.*)\]$", pyproject, re.M)
    for need in ("setuptools", "cmake", "pybind11"):
        check(requires and f'"{need}' in requires.group(1), f"python: the build requirements leave out {need}")
    cargo = (root / "bindings/rust/Cargo.toml").read_text()
    check(re.search(r'^license = "MIT"$', cargo, re.M), 'rust: Cargo.toml has no license = "MIT"')
    check(re.search(rf'^name = "{DISTRIBUTION}"$', cargo, re.M), f"rust: the crate is not named {DISTRIBUTION}")
    check(f'links = "{LIBRARIES[1]}"' in cargo, f"rust: the crate does not declare links = {LIBRARIES[1]}")
    check(f"#cgo pkg-config: {LIBRARIES[1]}" in (root / "bindings/go/hermes/pkgconfig.go").read_text(),
          f"go: cgo does not ask pkg-config for {LIBRARIES[1]}")
    check("SPDX-License-Identifier: MIT" in (root / "bindings/go/go.mod").read_text(),
          "go: go.mod does not name the licence")
    check("## Licence" in (root / "bindings/go/README.md").read_text(), "go: the README has no Licence section")


def exported_targets(prefix, libdir):
    targets = (prefix / libdir / "cmake/hermes/hermesTargets.cmake").read_text()
    return set(re.findall(r"add_library\((hermes::\w+)", targets))


def main(root, prefix, libdir):
    root, prefix = pathlib.Path(root), pathlib.Path(prefix)
    version = project_version(root)
    options = cmake_options(root)
    check(exported_targets(prefix, libdir) == {"hermes::hermes", "hermes::hermes_c"},
          "the install does not export exactly hermes::hermes and hermes::hermes_c")
    check_vcpkg(root, version, options, prefix, libdir)
    check_conan(root, version, options, prefix, libdir)
    check_licence(root, prefix)
    abi = re.search(r"^#define HERMES_ABI_VERSION (\d+)$", (root / "capi/hermes_c.h").read_text(), re.M).group(1)
    shared_c = list((prefix / libdir).glob("libhermes_agent_c.so*"))
    check(not shared_c or (prefix / libdir / f"libhermes_agent_c.so.{abi}").exists(),
          f"the shared C library's SONAME is not libhermes_agent_c.so.{abi} (HERMES_ABI_VERSION)")
    for old in ("libhermes.*", "libhermes_c.*"):
        check(not list((prefix / libdir).glob(old)), f"the install still has {old} (another project's name)")
    for failure in failures:
        print("check_packaging:", failure, file=sys.stderr)
    if not failures:
        print("check_packaging: the vcpkg port, the Conan recipe and the licence agree with the project")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
