//! PyOpenCL on the Lockstep platform: `pyopencl_check.py` compares array
//! arithmetic, reductions, scans, radix sort and complex/double elementwise
//! kernels with NumPy.

mod common;

/// Skips (through `common::require`) unless Python 3 and `modules` are
/// installed.
fn require_python(modules: &[&str]) {
    common::require("python3", &["--version"], "Python 3");
    for module in modules {
        common::require(
            "python3",
            &["-c", &format!("import {module}")],
            &format!("the Python module {module}"),
        );
    }
}

/// Runs `script` (in this directory) against the Lockstep ICD with the
/// environment `env`; it must succeed and print `done`. Its stdout and
/// stderr.
fn run_python(script: &str, env: &[(&str, &str)], done: &str) -> (String, String) {
    let vendors = common::vendors_dir();
    let out = common::command("python3", vendors.path())
        .arg(common::test_dir().join(script))
        .envs(env.iter().copied())
        .output()
        .expect("running python3");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success() && stdout.contains(done),
        "{script} failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    (stdout, stderr)
}

/// Runs `script` (in this directory) against the Lockstep ICD; it must
/// succeed and print `ALL OK`.
fn run_script(script: &str, modules: &[&str]) {
    require_python(modules);
    run_python(script, &[], "ALL OK");
}

#[test]
fn pyopencl_results_match_numpy() {
    run_script("pyopencl_check.py", &["numpy", "pyopencl", "mako"]);
}

/// Subgroups through PyOpenCL: device info, every `clGetKernelSubGroupInfo`
/// query, a ballot/shuffle/reduce/scan kernel checked against NumPy, and
/// `intel_reqd_sub_group_size` (`pyopencl_subgroups.py`).
#[test]
fn pyopencl_subgroups() {
    run_script("pyopencl_subgroups.py", &["numpy", "pyopencl"]);
}

/// Images and samplers through PyOpenCL (`pyopencl_images.py`): limits,
/// formats, info queries, copies between host, images and buffers, fill,
/// map, a blur, a bilinear resize, 3D and array images, checked against
/// NumPy, and the API's error codes.
#[test]
fn pyopencl_images() {
    run_script("pyopencl_images.py", &["numpy", "pyopencl"]);
}

/// Checked mode for an unchanged PyOpenCL program (`pyopencl_oob.py`, an
/// off-by-one write into a sub-buffer): with `LOCKSTEP_CHECK=1` the write
/// is reported on stderr in Oclgrind's layout with its source line and
/// skipped, so the memory after the sub-buffer keeps its values;
/// `LOCKSTEP_CHECK_ABORT=1` stops the process at the report.
#[test]
fn pyopencl_checked_mode_reports_and_skips_an_out_of_bounds_write() {
    require_python(&["numpy", "pyopencl"]);
    let vendors = common::vendors_dir();
    let run = |abort: bool| {
        let mut cmd = common::command("python3", vendors.path());
        cmd.arg(common::test_dir().join("pyopencl_oob.py"))
            .env("LOCKSTEP_CHECK", "1")
            .env("PYOPENCL_NO_CACHE", "1");
        if abort {
            cmd.env("LOCKSTEP_CHECK_ABORT", "1");
        } else {
            cmd.env_remove("LOCKSTEP_CHECK_ABORT");
        }
        cmd.output().expect("running python3")
    };
    let out = run(false);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains("CHECK SCRIPT DONE"),
        "the script failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    for want in [
        "before untouched: True",
        "after untouched: True",
        "inside ok: True",
    ] {
        assert!(stdout.contains(want), "{want}:\n{stdout}\n{stderr}");
    }
    for want in [
        "Invalid write of size 4 at global memory address 0x",
        "\tKernel: shift",
        "\tEntity: Global(63,0,0) Local(15,0,0) Group(3,0,0)",
        "\tAt line 5 of program.cl:",
        "\t  out[i + 1] = in[i] * 2.0f;",
        "byte 256 of argument 1 'out' (256 bytes); it was skipped",
    ] {
        assert!(stderr.contains(want), "{want:?} not in stderr:\n{stderr}");
    }
    assert_eq!(stderr.matches("Invalid write").count(), 1, "{stderr}");

    let out = run(true);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stdout}\n{stderr}");
    assert!(!stdout.contains("CHECK SCRIPT DONE"), "{stdout}");
    assert!(
        stderr.contains("Invalid write of size 4") && stderr.contains("LOCKSTEP_CHECK_ABORT"),
        "{stderr}"
    );
}

/// The interpreter's checked mode for an unchanged PyOpenCL program
/// (`pyopencl_full_check.py`): with `LOCKSTEP_CHECK=full`, an
/// uninitialized variable written to a buffer and a barrier half of a
/// work-group skips are reported on stderr, and both launches complete.
#[test]
fn pyopencl_full_checked_mode_reports_uninitialized_values_and_divergence() {
    require_python(&["numpy", "pyopencl"]);
    let env = [
        ("LOCKSTEP_CHECK", "full"),
        ("PYOPENCL_NO_CACHE", "1"),
        ("LOCKSTEP_CHECK_ABORT", ""),
    ];
    let (stdout, stderr) = run_python("pyopencl_full_check.py", &env, "CHECK SCRIPT DONE");
    assert!(
        stdout.contains("rows 1-7: [3, 3, 3, 3, 3, 3, 3]"),
        "{stdout}"
    );
    assert!(
        stdout.contains("diverge: [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7]"),
        "{stdout}"
    );
    for want in [
        "uninitialized value written to __global memory: argument 1 'out', byte offset 0",
        "\tKernel: uninit_value",
        "\tEntity: Global(0,0,0) Local(0,0,0) Group(0,0,0)",
        "\t  out[i] = last;",
        "barrier divergence in work-group (0, 0, 0): local linear ids 0-3 wait at",
        "local linear ids 4-7 returned without reaching it",
        "\tKernel: barrier_divergence",
        "\t  barrier(CLK_LOCAL_MEM_FENCE);",
    ] {
        assert!(stderr.contains(want), "{want:?} not in stderr:\n{stderr}");
    }
}
