//! Finds libhermes_agent_c (the C ABI) and tells rustc to link it. In order:
//!
//! 1. `HERMES_LIB_DIR`: the directory holding libhermes_agent_c (shared);
//! 2. pkg-config module `hermes_agent_c` (an installed tree, or a build tree through
//!    `PKG_CONFIG_PATH=<build>/pkgconfig`, whose -uninstalled file pkg-config prefers);
//!    `HERMES_STATIC=1` asks for the static libraries;
//! 3. the CMake build trees of this repository (`build/<preset>/capi`).
//!
//! The crate's own tests and examples get an rpath to the directory found, so they run
//! without LD_LIBRARY_PATH; programs depending on the crate set their own.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

const PRESETS: &[&str] = &["ci", "default", "debug", "release", "asan"];

fn main() {
    for var in [
        "HERMES_LIB_DIR",
        "HERMES_STATIC",
        "PKG_CONFIG_PATH",
        "PKG_CONFIG_LIBDIR",
    ] {
        println!("cargo:rerun-if-env-changed={}", var);
    }
    if let Ok(dir) = env::var("HERMES_LIB_DIR") {
        link_directory(Path::new(&dir));
        return;
    }
    if link_with_pkg_config() {
        return;
    }
    if let Some(dir) = find_build_tree() {
        link_directory(&dir);
        return;
    }
    panic!(
        "libhermes_agent_c not found: set HERMES_LIB_DIR to the directory holding it, or \
         PKG_CONFIG_PATH to where hermes_agent_c.pc is, or build hermes with CMake first"
    );
}

fn link_directory(dir: &Path) {
    println!("cargo:rustc-link-search=native={}", dir.display());
    println!("cargo:rustc-link-lib=dylib=hermes_agent_c");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.display());
    println!(
        "cargo:rerun-if-changed={}",
        dir.join(shared_library_file()).display()
    );
}

// Translates `pkg-config --libs` output into cargo directives. False when pkg-config or
// the module is missing.
fn link_with_pkg_config() -> bool {
    let mut command =
        Command::new(env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".to_owned()));
    command.arg("--libs");
    let statically = env::var("HERMES_STATIC").map_or(false, |v| v == "1");
    if statically {
        command.arg("--static");
    }
    let output = match command.arg("hermes_agent_c").output() {
        Ok(output) if output.status.success() => output,
        _ => return false,
    };
    let flags = String::from_utf8_lossy(&output.stdout).into_owned();
    let mut dirs = Vec::new();
    for flag in flags.split_whitespace() {
        if let Some(dir) = flag.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={}", dir);
            dirs.push(dir.to_owned());
        } else if let Some(lib) = flag.strip_prefix("-l") {
            let kind = if statically && lib.starts_with("hermes") {
                "static"
            } else {
                "dylib"
            };
            println!("cargo:rustc-link-lib={}={}", kind, lib);
        } else if flag.starts_with("-Wl,") || flag == "-pthread" {
            println!("cargo:rustc-link-arg={}", flag);
        }
    }
    for dir in dirs {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
    }
    true
}

// bindings/rust sits two levels below the repository root.
fn find_build_tree() -> Option<PathBuf> {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").ok()?);
    let root = manifest.parent()?.parent()?;
    PRESETS
        .iter()
        .map(|preset| root.join("build").join(preset).join("capi"))
        .find(|dir| dir.join(shared_library_file()).exists())
}

// The shared C library's file name on the target system (macOS untested).
fn shared_library_file() -> &'static str {
    match env::var("CARGO_CFG_TARGET_OS").as_deref() {
        Ok("macos") | Ok("ios") => "libhermes_agent_c.dylib",
        Ok("windows") => "hermes_agent_c.dll",
        _ => "libhermes_agent_c.so",
    }
}
