//! Subgroup builtins at the edges the Khronos CTS probes: an exclusive
//! logical scan gives its first work-item the identity as a truth value (1,
//! not the all-ones bit pattern of `and`), and a clustered reduction whose
//! cluster is larger than any subgroup (128) compiles and reduces over the
//! whole subgroup. On the interpreter and the SIMD engine, widths 8 and 16.

use lockstep_runtime::{Buffer, Engine, NDRange, Program};

const SOURCE: &str = "
#pragma OPENCL EXTENSION cl_khr_subgroup_non_uniform_arithmetic : enable
#pragma OPENCL EXTENSION cl_khr_subgroup_clustered_reduce : enable
kernel void edges(global int *out) {
    size_t i = get_global_id(0);
    int lid = get_sub_group_local_id();
    out[2 * i] = sub_group_non_uniform_scan_exclusive_logical_and(lid != 3);
    out[2 * i + 1] = sub_group_clustered_reduce_add(1, 128);
}";

#[test]
fn logical_scans_and_large_clusters() {
    for engine in [Engine::Interpreter, Engine::Simd] {
        for width in [8u32, 16] {
            let mut ctx = lockstep_llvm::context().with_engine(engine);
            ctx.set_width(width);
            let program = Program::build(&ctx, SOURCE, "-cl-std=CL3.0").expect("builds");
            let mut kernel = program.kernel("edges").expect("kernel");
            let out = Buffer::<i32>::zeroed(64);
            kernel.set_arg(0, &out).unwrap();
            ctx.launch(&kernel, &NDRange::new_1d(32).local([32, 1, 1]))
                .expect("launches");
            let got = out.read();
            for i in 0..32 {
                let lid = i % width as usize;
                // The lanes before this one all differ from 3.
                let scan = i32::from(lid <= 3);
                assert_eq!(
                    (got[2 * i], got[2 * i + 1]),
                    (scan, width as i32),
                    "{engine:?} width {width}, work-item {i}"
                );
            }
        }
    }
}
