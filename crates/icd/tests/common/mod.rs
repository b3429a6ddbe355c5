//! What the ICD tests share: the freshly built `liblockstep_icd.so`, a
//! vendors directory naming it (for `OCL_ICD_VENDORS`), and tools that
//! must be installed.
//!
//! The library: cargo builds a package's library (here with crate types
//! `cdylib` and `rlib`) before its integration tests, into the same
//! `deps/` directory as the test executables, so the `.so` next to the
//! running test is the one built from the current sources.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The shared library built with this test.
pub fn library() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let deps = exe.parent().expect("deps directory");
    for dir in [deps, deps.parent().unwrap_or(deps)] {
        let so = dir.join("liblockstep_icd.so");
        if so.is_file() {
            return so;
        }
    }
    panic!(
        "liblockstep_icd.so is not next to {} (cargo builds it before the tests)",
        exe.display()
    );
}

/// A directory with one `.icd` file naming the library by absolute path:
/// point `OCL_ICD_VENDORS` at it and the loader sees only Lockstep.
pub fn vendors_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary directory");
    std::fs::write(
        dir.path().join("lockstep.icd"),
        format!("{}\n", library().display()),
    )
    .expect("writing the .icd file");
    dir
}

/// A command with the loader pointed at the built library.
pub fn command(program: impl AsRef<std::ffi::OsStr>, vendors: &Path) -> Command {
    let mut cmd = Command::new(program);
    cmd.env("OCL_ICD_VENDORS", vendors)
        .env_remove("OPENCL_VENDOR_PATH")
        .env_remove("PYOPENCL_CTX");
    cmd
}

/// Fails (not skips) when a tool the tests need is missing.
pub fn require(tool: &str, check: &[&str], package: &str) {
    let ok = Command::new(tool)
        .args(check)
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "`{tool}` is needed by this test ({package}); run `make test`, which installs it"
    );
}

/// This crate's directory (where the C and Python test programs are).
pub fn test_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

/// Compiles the C program `tests/NAME.c` against the OpenCL headers and the
/// ICD loader (with pthreads) into `dir`; its path.
pub fn compile_c(name: &str, dir: &Path) -> PathBuf {
    require("cc", &["--version"], "a C compiler");
    assert!(
        Path::new("/usr/include/CL/cl.h").is_file(),
        "the OpenCL headers are missing (opencl-c-headers, ocl-icd-opencl-dev); run `make test`, which installs them"
    );
    let exe = dir.join(name);
    let cc = Command::new("cc")
        .args(["-std=gnu11", "-Wall", "-O1", "-pthread", "-o"])
        .arg(&exe)
        .arg(test_dir().join(format!("{name}.c")))
        .arg("-lOpenCL")
        .output()
        .expect("running cc");
    assert!(
        cc.status.success(),
        "{name}.c does not compile (is ocl-icd-opencl-dev installed? run `make test`):\n{}",
        String::from_utf8_lossy(&cc.stderr)
    );
    exe
}
