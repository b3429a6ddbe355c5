//! The C host program (`host.c`), compiled against the Khronos headers and
//! the ICD loader, run on the Lockstep platform.

mod common;

use std::process::Command;

#[test]
fn c_host_program_runs_on_lockstep() {
    common::require("cc", &["--version"], "a C compiler");
    assert!(
        std::path::Path::new("/usr/include/CL/cl.h").is_file(),
        "the OpenCL headers are missing (opencl-c-headers, ocl-icd-opencl-dev); run `make test`, which installs them"
    );
    let build = tempfile::tempdir().unwrap();
    let exe = build.path().join("host");
    let cc = Command::new("cc")
        .args(["-std=c11", "-Wall", "-O1", "-o"])
        .arg(&exe)
        .arg(common::test_dir().join("host.c"))
        .arg("-lOpenCL")
        .output()
        .expect("running cc");
    assert!(
        cc.status.success(),
        "host.c does not compile (is ocl-icd-opencl-dev installed? run `make test`):\n{}",
        String::from_utf8_lossy(&cc.stderr)
    );
    let vendors = common::vendors_dir();
    let out = common::command(&exe, vendors.path())
        .output()
        .expect("running the host program");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains("ALL OK"),
        "host program failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
}
