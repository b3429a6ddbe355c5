//! `clinfo` sees the Lockstep platform and its device as they are.

mod common;

/// The value of the first line of `clinfo` output whose key is `key`.
fn field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines().find_map(|line| {
        let rest = line.trim_start().strip_prefix(key)?;
        rest.starts_with("  ").then(|| rest.trim())
    })
}

#[test]
fn clinfo_lists_the_platform_and_device() {
    common::require("clinfo", &["--version"], "the clinfo package");
    let vendors = common::vendors_dir();
    let out = common::command("clinfo", vendors.path())
        .output()
        .expect("running clinfo");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "clinfo failed:\n{text}");
    let get = |key: &str| field(&text, key).unwrap_or_else(|| panic!("no '{key}' in:\n{text}"));
    assert_eq!(get("Number of platforms"), "1");
    assert_eq!(get("Platform Name"), "Lockstep");
    assert!(get("Platform Version").starts_with("OpenCL 3.1"));
    assert_eq!(get("Platform Extensions function suffix"), "LOCKSTEP");
    assert!(get("Device Name").starts_with("Lockstep CPU"));
    assert_eq!(get("Device Type"), "CPU");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert_eq!(get("Max compute units"), cores.to_string());
    assert_eq!(get("Max work group size"), "4096");
    assert_eq!(get("Image support"), "Yes");
    assert_eq!(get("Max 2D image size"), "16384x16384 pixels");
    assert_eq!(get("Max 3D image size"), "2048x2048x2048 pixels");
    assert_eq!(get("Max number of samplers per kernel"), "16");
    assert_eq!(
        get("IL version"),
        "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4"
    );
    let width = lockstep_llvm::context().width();
    assert_eq!(
        get("Preferred work group size multiple (device)"),
        width.to_string()
    );
    let extensions = get("Device Extensions");
    for ext in [
        "cl_khr_fp64",
        "cl_khr_global_int32_base_atomics",
        "cl_khr_icd",
        "cl_khr_3d_image_writes",
        "cl_khr_image2d_from_buffer",
        "cl_khr_extended_bit_ops",
        "cl_khr_integer_dot_product",
        "cl_khr_device_uuid",
    ] {
        assert!(extensions.contains(ext), "{ext} missing: {extensions}");
    }
    // cl_khr_device_uuid: RFC 4122 UUIDs (version 8), no LUID off Windows.
    for key in ["Device UUID", "Driver UUID"] {
        let uuid = get(key);
        let hex: String = uuid.chars().filter(|c| *c != '-').collect();
        assert!(
            hex.len() == 32 && hex.chars().all(|c| c.is_ascii_hexdigit()) && &hex[12..13] == "8",
            "{key}: {uuid}"
        );
    }
    assert_ne!(get("Device UUID"), get("Driver UUID"));
    assert_eq!(get("Valid Device LUID"), "No");
    for absent in ["cl_khr_depth_images", "cl_khr_mipmap_image"] {
        assert!(!extensions.contains(absent), "{absent}: {extensions}");
    }
    assert!(get("Device OpenCL C Version").starts_with("OpenCL C 1.2"));
    assert!(
        text.contains("__opencl_c_fp64"),
        "OpenCL C features missing"
    );
    // The loader's NULL-platform behaviour picks Lockstep.
    assert_eq!(
        get("clGetPlatformInfo(NULL, CL_PLATFORM_NAME, ...)"),
        "Lockstep"
    );

    // `clinfo -l`: the short listing.
    let out = common::command("clinfo", vendors.path())
        .arg("-l")
        .output()
        .expect("running clinfo -l");
    let list = String::from_utf8_lossy(&out.stdout);
    assert!(
        list.contains("Platform #0: Lockstep") && list.contains("Device #0: Lockstep CPU"),
        "{list}"
    );
}
