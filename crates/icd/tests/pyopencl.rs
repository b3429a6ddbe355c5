//! PyOpenCL on the Lockstep platform: `pyopencl_check.py` compares array
//! arithmetic, reductions, scans, radix sort and complex/double elementwise
//! kernels with NumPy.

mod common;

#[test]
fn pyopencl_results_match_numpy() {
    common::require("python3", &["--version"], "Python 3");
    for module in ["numpy", "pyopencl", "mako"] {
        common::require(
            "python3",
            &["-c", &format!("import {module}")],
            &format!("the Python module {module}"),
        );
    }
    let vendors = common::vendors_dir();
    let out = common::command("python3", vendors.path())
        .arg(common::test_dir().join("pyopencl_check.py"))
        .output()
        .expect("running python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains("ALL OK"),
        "the PyOpenCL checks failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
}

/// Subgroups through PyOpenCL: device info, every `clGetKernelSubGroupInfo`
/// query, a ballot/shuffle/reduce/scan kernel checked against NumPy, and
/// `intel_reqd_sub_group_size` (`pyopencl_subgroups.py`).
#[test]
fn pyopencl_subgroups() {
    common::require("python3", &["--version"], "Python 3");
    for module in ["numpy", "pyopencl"] {
        common::require(
            "python3",
            &["-c", &format!("import {module}")],
            &format!("the Python module {module}"),
        );
    }
    let vendors = common::vendors_dir();
    let out = common::command("python3", vendors.path())
        .arg(common::test_dir().join("pyopencl_subgroups.py"))
        .output()
        .expect("running python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains("ALL OK"),
        "the PyOpenCL subgroup checks failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
}

/// Images and samplers through PyOpenCL (`pyopencl_images.py`): limits,
/// formats, info queries, copies between host, images and buffers, fill,
/// map, a blur, a bilinear resize, 3D and array images, checked against
/// NumPy, and the API's error codes.
#[test]
fn pyopencl_images() {
    common::require("python3", &["--version"], "Python 3");
    for module in ["numpy", "pyopencl"] {
        common::require(
            "python3",
            &["-c", &format!("import {module}")],
            &format!("the Python module {module}"),
        );
    }
    let vendors = common::vendors_dir();
    let out = common::command("python3", vendors.path())
        .arg(common::test_dir().join("pyopencl_images.py"))
        .output()
        .expect("running python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains("ALL OK"),
        "the PyOpenCL image checks failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
}
