//! What the device offers OpenCL C: its extensions (`cl_khr_*`) and
//! OpenCL C 3.0 optional features (`__opencl_c_*`).
//!
//! The one list both sides read: clang is told to define exactly these
//! macros ([`clang_args`]), and the OpenCL platform reports them in
//! `CL_DEVICE_EXTENSIONS` and `CL_DEVICE_OPENCL_C_FEATURES`, so a kernel's
//! `#ifdef` and the host's query always agree (the CTS checks both).
//!
//! clang alone would not get there for `spir64`: it defines
//! `__IMAGE_SUPPORT__` for every SPIR target, and its default header
//! defines the OpenCL C 2.0 feature set (images, pipes, device enqueue)
//! under `-cl-std=CL2.0`, and the subgroup, dot-product and kernel-clock
//! extensions for every version from 2.0, whatever `-cl-ext` says. So a
//! prelude ([`prelude`], given with `-include`) includes the default header
//! (`opencl-c-base.h`: the driver declares the builtin functions itself,
//! `-fdeclare-opencl-builtins`, following `-cl-ext`) before the driver
//! does, then `#undef`s every such macro the device does not offer; the
//! driver's own include of the header is then a no-op (include guard).

/// The OpenCL version the device supports, (major, minor): what the
/// platform reports in `CL_DEVICE_VERSION` and what a kernel reads in
/// `__OPENCL_VERSION__` (which clang leaves to the implementation to define).
pub const OPENCL_VERSION: (u32, u32) = (3, 1);

/// The macro the driver defines for `-cl-std=CL3.1`, which clang 19 does
/// not know: it compiles OpenCL C 3.0, and the [`prelude`] then makes
/// `__OPENCL_C_VERSION__` 310 (after clang's default header, whose
/// OpenCL C 3.0 feature macros test for exactly 300).
pub const OPENCL_C_3_1_MARKER: &str = "__LOCKSTEP_OPENCL_C_3_1";

/// Extensions the device offers OpenCL C (the platform adds `cl_khr_icd`).
///
/// Not `cl_khr_subgroups`: that extension promises that the subgroups of a
/// work-group make independent forward progress (one may wait in a loop
/// for another), and Lockstep's gangs of a work-group take turns between
/// barriers, so one waiting for another waits forever. The subgroup
/// functions come with the OpenCL C 3.0 feature `__opencl_c_subgroups`
/// (which makes no such promise; the device reports
/// `CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS` false) and, in every
/// OpenCL C version, with `cl_intel_subgroups`; the `cl_khr_subgroup_*`
/// extensions add theirs.
pub const EXTENSIONS: &[&str] = &[
    "cl_khr_fp64",
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics",
    "cl_khr_global_int32_base_atomics",
    "cl_khr_global_int32_extended_atomics",
    "cl_khr_local_int32_base_atomics",
    "cl_khr_local_int32_extended_atomics",
    "cl_khr_byte_addressable_store",
    "cl_khr_subgroup_extended_types",
    "cl_khr_subgroup_non_uniform_vote",
    "cl_khr_subgroup_ballot",
    "cl_khr_subgroup_non_uniform_arithmetic",
    "cl_khr_subgroup_shuffle",
    "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroup_clustered_reduce",
    "cl_khr_subgroup_rotate",
    "cl_khr_extended_bit_ops",
    "cl_khr_integer_dot_product",
    "cl_intel_subgroups",
    "cl_khr_3d_image_writes",
];

/// The extensions of [`EXTENSIONS`] whose builtins clang declares only for
/// OpenCL C 2.0 and later: their macros are defined from 2.0 on (OpenCL
/// C 1.2 kernels reach the core subgroup functions through
/// `cl_intel_subgroups`).
pub const FROM_OPENCL_C_2_0: &[&str] = &[
    "cl_khr_subgroup_extended_types",
    "cl_khr_subgroup_non_uniform_vote",
    "cl_khr_subgroup_ballot",
    "cl_khr_subgroup_non_uniform_arithmetic",
    "cl_khr_subgroup_shuffle",
    "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroup_clustered_reduce",
    "cl_khr_subgroup_rotate",
    "cl_khr_extended_bit_ops",
    "cl_khr_integer_dot_product",
];

/// OpenCL C 3.0 optional features the device offers.
pub const FEATURES: &[&str] = &[
    "__opencl_c_fp64",
    "__opencl_c_int64",
    "__opencl_c_generic_address_space",
    "__opencl_c_program_scope_global_variables",
    "__opencl_c_atomic_order_acq_rel",
    "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_atomic_scope_device",
    "__opencl_c_atomic_scope_all_devices",
    "__opencl_c_work_group_collective_functions",
    "__opencl_c_subgroups",
    "__opencl_c_images",
    "__opencl_c_read_write_images",
    "__opencl_c_3d_image_writes",
    "__opencl_c_integer_dot_product_input_4x8bit",
    "__opencl_c_integer_dot_product_input_4x8bit_packed",
    "__opencl_c_pipes",
    "__opencl_c_device_enqueue",
];

/// Whether the device supports images (`__IMAGE_SUPPORT__`,
/// `CL_DEVICE_IMAGE_SUPPORT`): images and samplers, the builtin library's
/// `images.cl` over the runtime's image storage.
pub const IMAGE_SUPPORT: bool = true;

/// Every extension or feature macro clang 19 or its default header may
/// define for `spir64` (any `-cl-std`); those not offered are undefined by
/// the prelude. A test compares this list with what clang really defines.
const CLANG_MACROS: &[&str] = &[
    "cl_intel_subgroups",
    "cl_khr_3d_image_writes",
    "cl_khr_byte_addressable_store",
    "cl_khr_depth_images",
    "cl_khr_extended_bit_ops",
    "cl_khr_fp16",
    "cl_khr_fp64",
    "cl_khr_gl_msaa_sharing",
    "cl_khr_global_int32_base_atomics",
    "cl_khr_global_int32_extended_atomics",
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics",
    "cl_khr_integer_dot_product",
    "cl_khr_kernel_clock",
    "cl_khr_local_int32_base_atomics",
    "cl_khr_local_int32_extended_atomics",
    "cl_khr_mipmap_image",
    "cl_khr_mipmap_image_writes",
    "cl_khr_srgb_image_writes",
    "cl_khr_subgroup_ballot",
    "cl_khr_subgroup_clustered_reduce",
    "cl_khr_subgroup_extended_types",
    "cl_khr_subgroup_non_uniform_arithmetic",
    "cl_khr_subgroup_non_uniform_vote",
    "cl_khr_subgroup_rotate",
    "cl_khr_subgroup_shuffle",
    "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroups",
    "__opencl_c_3d_image_writes",
    "__opencl_c_atomic_order_acq_rel",
    "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_atomic_scope_all_devices",
    "__opencl_c_atomic_scope_device",
    "__opencl_c_device_enqueue",
    "__opencl_c_ext_fp16_global_atomic_add",
    "__opencl_c_ext_fp16_global_atomic_load_store",
    "__opencl_c_ext_fp16_global_atomic_min_max",
    "__opencl_c_ext_fp16_local_atomic_add",
    "__opencl_c_ext_fp16_local_atomic_load_store",
    "__opencl_c_ext_fp16_local_atomic_min_max",
    "__opencl_c_ext_fp32_global_atomic_add",
    "__opencl_c_ext_fp32_global_atomic_min_max",
    "__opencl_c_ext_fp32_local_atomic_add",
    "__opencl_c_ext_fp32_local_atomic_min_max",
    "__opencl_c_ext_fp64_global_atomic_add",
    "__opencl_c_ext_fp64_global_atomic_min_max",
    "__opencl_c_ext_fp64_local_atomic_add",
    "__opencl_c_ext_fp64_local_atomic_min_max",
    "__opencl_c_ext_image_raw10_raw12",
    "__opencl_c_ext_image_unorm_int_2_101010",
    "__opencl_c_fp16",
    "__opencl_c_fp64",
    "__opencl_c_generic_address_space",
    "__opencl_c_images",
    "__opencl_c_int64",
    "__opencl_c_integer_dot_product_input_4x8bit",
    "__opencl_c_integer_dot_product_input_4x8bit_packed",
    "__opencl_c_kernel_clock_scope_device",
    "__opencl_c_kernel_clock_scope_sub_group",
    "__opencl_c_kernel_clock_scope_work_group",
    "__opencl_c_pipes",
    "__opencl_c_program_scope_global_variables",
    "__opencl_c_read_write_images",
    "__opencl_c_subgroups",
    "__opencl_c_work_group_collective_functions",
];

/// True if the device offers `name` (an extension or a feature).
pub fn offers(name: &str) -> bool {
    EXTENSIONS.contains(&name) || FEATURES.contains(&name)
}

/// The `-cl-ext=` value telling clang which extensions and features are
/// supported: none but the device's.
pub fn cl_ext() -> String {
    let mut out = String::from("-cl-ext=-all");
    for name in EXTENSIONS.iter().chain(FEATURES) {
        out.push_str(",+");
        out.push_str(name);
    }
    out
}

/// The header every OpenCL C compile starts with (given to clang with
/// `-include`): clang's default header, then `#undef` of each macro it or
/// clang defined that the device does not offer.
pub fn prelude() -> String {
    let mut out = String::from(
        "/* Lockstep: clang's default header, then only the device's features. */\n\
         #include <opencl-c-base.h>\n",
    );
    // clang 19 defines CL_VERSION_1_0 … CL_VERSION_3_0 in every version.
    out.push_str("#define CL_VERSION_3_1 310\n");
    out.push_str(&format!(
        "#ifdef {m}\n#undef {m}\n#undef __OPENCL_C_VERSION__\n#define __OPENCL_C_VERSION__ CL_VERSION_3_1\n#endif\n",
        m = OPENCL_C_3_1_MARKER
    ));
    if !IMAGE_SUPPORT {
        out.push_str("#undef __IMAGE_SUPPORT__\n");
    }
    for name in CLANG_MACROS.iter().filter(|n| !offers(n)) {
        out.push_str(&format!("#undef {name}\n"));
    }
    out.push_str("#if __OPENCL_C_VERSION__ < 200\n");
    for name in FROM_OPENCL_C_2_0 {
        out.push_str(&format!("#undef {name}\n"));
    }
    out.push_str("#endif\n");
    if offers("cl_intel_subgroups") {
        out.push_str(INTEL_SUBGROUPS);
    }
    out
}

/// The `cl_intel_subgroups` functions, which clang's builtin declarations
/// lack (its full header has them): shuffles of scalars and vectors, and
/// block reads and writes of `uint`s. The builtin library defines them.
const INTEL_SUBGROUPS: &str = r#"#ifdef cl_intel_subgroups
#define __LS_ISG_ATTRS __attribute__((overloadable, convergent))
#define __LS_ISG(T) \
  T __LS_ISG_ATTRS intel_sub_group_shuffle(T, uint); \
  T __LS_ISG_ATTRS intel_sub_group_shuffle_xor(T, uint); \
  T __LS_ISG_ATTRS intel_sub_group_shuffle_down(T, T, uint); \
  T __LS_ISG_ATTRS intel_sub_group_shuffle_up(T, T, uint);
#define __LS_ISG_V(T) __LS_ISG(T) __LS_ISG(T##2) __LS_ISG(T##3) __LS_ISG(T##4) \
  __LS_ISG(T##8) __LS_ISG(T##16)
__LS_ISG_V(float) __LS_ISG_V(int) __LS_ISG_V(uint)
__LS_ISG(long) __LS_ISG(ulong)
#ifdef cl_khr_fp64
__LS_ISG(double)
#endif
uint __LS_ISG_ATTRS intel_sub_group_block_read(const __global uint *);
uint2 __LS_ISG_ATTRS intel_sub_group_block_read2(const __global uint *);
uint4 __LS_ISG_ATTRS intel_sub_group_block_read4(const __global uint *);
uint8 __LS_ISG_ATTRS intel_sub_group_block_read8(const __global uint *);
void __LS_ISG_ATTRS intel_sub_group_block_write(__global uint *, uint);
void __LS_ISG_ATTRS intel_sub_group_block_write2(__global uint *, uint2);
void __LS_ISG_ATTRS intel_sub_group_block_write4(__global uint *, uint4);
void __LS_ISG_ATTRS intel_sub_group_block_write8(__global uint *, uint8);
#undef __LS_ISG_V
#undef __LS_ISG
#undef __LS_ISG_ATTRS
#endif
"#;

/// The clang arguments that set the device's version and features, given
/// the path the [`prelude`] was written to: `__OPENCL_VERSION__`, `-cl-ext=`
/// and the prelude's `-include`.
pub fn clang_args(prelude_path: &std::path::Path) -> Vec<String> {
    let (major, minor) = OPENCL_VERSION;
    vec![
        format!("-D__OPENCL_VERSION__={}", major * 100 + minor * 10),
        "-Xclang".to_string(),
        cl_ext(),
        "-include".to_string(),
        prelude_path.display().to_string(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What clang with the device's arguments predefines for one `-cl-std`:
    /// each `#define` line without the word, a name and its value.
    fn predefined(std: &str) -> Vec<String> {
        let clang = crate::find_clang().expect("clang 19");
        let dir = tempfile::tempdir().unwrap();
        let prelude_path = dir.path().join("prelude.h");
        std::fs::write(&prelude_path, prelude()).unwrap();
        std::fs::write(dir.path().join("k.cl"), "kernel void k() {}\n").unwrap();
        let out = std::process::Command::new(clang)
            .current_dir(dir.path())
            .args(["-x", "cl", "-target", "spir64", "-E", "-dM"])
            .args(crate::driver::clang_cl_std(std))
            .args(clang_args(&prelude_path))
            .arg("k.cl")
            .output()
            .expect("running clang");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.strip_prefix("#define "))
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn clang_defines_exactly_the_offered_extensions_and_features() {
        for (std, c_version) in [
            ("CL1.2", 120),
            ("CL2.0", 200),
            ("CL3.0", 300),
            ("CL3.1", 310),
        ] {
            let definitions = predefined(std);
            assert!(
                definitions.contains(&format!("__OPENCL_C_VERSION__ {c_version}"))
                    || c_version == 310
                        && definitions.contains(&"__OPENCL_C_VERSION__ CL_VERSION_3_1".to_string()),
                "-cl-std={std}: __OPENCL_C_VERSION__ is not {c_version}"
            );
            assert!(
                definitions.contains(&"CL_VERSION_3_1 310".to_string()),
                "-cl-std={std}"
            );
            let defined: Vec<String> = definitions
                .iter()
                .filter_map(|l| l.split_whitespace().next())
                .map(str::to_string)
                .collect();
            for name in &defined {
                let is_feature_macro = (name.starts_with("cl_khr_")
                    || name.starts_with("__opencl_c_"))
                    && name != "__opencl_c_named_address_space_builtins";
                if is_feature_macro {
                    assert!(
                        offers(name),
                        "-cl-std={std}: clang defines {name}, which the device does not offer \
                         (add it to CLANG_MACROS so that the prelude undefines it)"
                    );
                }
            }
            assert!(
                defined.iter().any(|n| n == "__OPENCL_VERSION__"),
                "-cl-std={std}: __OPENCL_VERSION__ undefined"
            );
            assert_eq!(
                defined.iter().any(|n| n == "__IMAGE_SUPPORT__"),
                IMAGE_SUPPORT,
                "-cl-std={std}: __IMAGE_SUPPORT__"
            );
            for name in EXTENSIONS {
                let expected = std != "CL1.2" || !FROM_OPENCL_C_2_0.contains(name);
                assert_eq!(
                    defined.iter().any(|n| n == name),
                    expected,
                    "-cl-std={std}: {name}"
                );
            }
            if c_version >= 300 {
                for name in FEATURES {
                    assert!(defined.iter().any(|n| n == name), "-cl-std={std}: {name}");
                }
            }
        }
    }
}
