//! Kernels and arguments that stress the runtime's limits: wide by-value
//! vectors, large private arrays, local memory beyond the device's, a
//! `switch` of thousands of cases, a kernel past the compile-time budget.
//! Each runs correctly or fails with a clear error, never a crash.

use lockstep_frontend::CompileError;
use lockstep_ir::limits::{MAX_BLOCKS, MAX_INSTS};
use lockstep_runtime::{
    BinaryError, Buffer, BuildError, Bytes, Engine, LaunchError, NDRange, Program,
};

fn build(source: &str) -> Program {
    Program::build(&lockstep_llvm::context(), source, "")
        .unwrap_or_else(|e| panic!("the test kernel does not build:\n{e}"))
}

/// `float16`, `double8`, `long8`, `int16`, `double16` by value: the SIMD
/// engine's aligned vector loads of them need storage aligned to the
/// vector (a `double16` is 128 bytes).
#[test]
fn wide_vectors_pass_by_value() {
    let program = build(
        "kernel void k(float16 f, double8 d, long8 l, int16 i, double16 e, global double *out) {
            size_t g = get_global_id(0);
            out[g] = f.sf + d.s7 + (double)l.s3 + (double)i.sa + e.sf + (double)g;
        }",
    );
    let ctx = lockstep_llvm::context().with_engine(Engine::Simd);
    let bytes = |v: Vec<u8>| Bytes(v);
    let f: Vec<u8> = (0..16).flat_map(|x| (x as f32).to_le_bytes()).collect();
    let d: Vec<u8> = (0..8)
        .flat_map(|x| (x as f64 * 10.0).to_le_bytes())
        .collect();
    let l: Vec<u8> = (0..8)
        .flat_map(|x| (x as i64 * 100).to_le_bytes())
        .collect();
    let i: Vec<u8> = (0..16i32).flat_map(|x| (x * 1000).to_le_bytes()).collect();
    let e: Vec<u8> = (0..16)
        .flat_map(|x| (x as f64 * 10000.0).to_le_bytes())
        .collect();
    // Many launches: each allocates the argument copies anew, so a
    // misaligned one shows up (as a fault) within a few.
    for _ in 0..64 {
        let out = Buffer::<f64>::zeroed(64);
        let mut k = program.kernel("k").unwrap();
        k.set_arg(0, bytes(f.clone())).unwrap();
        k.set_arg(1, bytes(d.clone())).unwrap();
        k.set_arg(2, bytes(l.clone())).unwrap();
        k.set_arg(3, bytes(i.clone())).unwrap();
        k.set_arg(4, bytes(e.clone())).unwrap();
        k.set_arg(5, &out).unwrap();
        ctx.launch(&k, &NDRange::new_1d(64).local([16, 1, 1]))
            .unwrap();
        let want = 15.0 + 70.0 + 300.0 + 10000.0 + 150000.0;
        let got = out.read();
        for (g, v) in got.iter().enumerate() {
            assert_eq!(*v, want + g as f64);
        }
    }
}

/// Kernel-scope `__local` arrays count against the device's local memory
/// on every engine, as the OpenCL platform counts them: 1 MiB is over the
/// 256 KiB limit, 2^40 bytes must not abort the process.
#[test]
fn kernel_scope_local_memory_is_checked_against_the_device() {
    for (bytes, fits) in [("1UL << 40", false), ("1 << 20", false), ("1 << 10", true)] {
        let program = build(&format!(
            "kernel void k(global char *out) {{
                local char a[{bytes}];
                a[get_local_id(0)] = 1;
                barrier(CLK_LOCAL_MEM_FENCE);
                out[get_global_id(0)] = a[0];
            }}"
        ));
        for engine in [Engine::Simd, Engine::Interpreter] {
            let out = Buffer::<u8>::zeroed(16);
            let mut k = program.kernel("k").unwrap();
            k.set_arg(0, &out).unwrap();
            let result = lockstep_llvm::context()
                .with_engine(engine)
                .launch(&k, &NDRange::new_1d(16).local([16, 1, 1]));
            if fits {
                result.unwrap();
                assert_eq!(out.read(), vec![1; 16]);
            } else {
                let err = result.expect_err(bytes);
                assert!(
                    matches!(err, LaunchError::LocalMemoryTooLarge { .. }),
                    "{bytes}: {err}"
                );
            }
        }
    }
}

/// A 4 MiB private array per work-item (times the SIMD width in a gang's
/// frame) runs on workers whose stacks are sized for it, on one thread and
/// on several.
#[test]
fn large_private_arrays_fit_the_workers_stacks() {
    let program = build(
        "kernel void k(global const int *in, global float *out) {
            float a[1 << 20];
            size_t g = get_global_id(0);
            for (int i = 0; i < 1 << 20; i += 4096)
                a[(i + in[g]) & ((1 << 20) - 1)] = (float)(i + g);
            out[g] = a[(in[g] + 8192) & ((1 << 20) - 1)];
        }",
    );
    for threads in [1, 2] {
        let mut ctx = lockstep_llvm::context().with_engine(Engine::Simd);
        ctx.set_threads(threads);
        let input = Buffer::from_slice(&[0i32; 64]);
        let out = Buffer::<f32>::zeroed(64);
        let mut k = program.kernel("k").unwrap();
        k.set_arg(0, &input).unwrap();
        k.set_arg(1, &out).unwrap();
        ctx.launch(&k, &NDRange::new_1d(64).local([16, 1, 1]))
            .unwrap();
        let want: Vec<f32> = (0..64).map(|g| (8192 + g) as f32).collect();
        assert_eq!(out.read(), want, "{threads} threads");
    }
}

/// The number of cases of the big `switch`es below: enough for the large
/// tiers of LLVM's pipelines and for the search tree's three levels, few
/// enough for a few seconds in a debug build (10,000 cases, the size that
/// used to take minutes and gigabytes, build in 2.7 s and 5.3 s in a
/// release build).
const CASES: i32 = 5_000;

/// A kernel whose `switch` on `selector` (`k`, a kernel argument, or `x`,
/// the work-item's input) has [`CASES`] cases: case `3i` adds `other * 7 +
/// i` to the output, or, every tenth case, adds `i` and falls through into
/// the next (the last one into the default, which stores `-1 - x`).
fn switch_source(selector: &str, other: &str) -> String {
    let mut src = String::from(
        "kernel void sw(global const int *in, global int *out, int k) {\n\
         size_t gid = get_global_id(0);\n\
         int x = in[gid];\n\
         out[gid] = 0;\n",
    );
    src += &format!("switch ({selector}) {{\n");
    for i in 0..CASES {
        if i % 10 == 9 {
            src += &format!("case {}: out[gid] += {i};\n", 3 * i);
        } else {
            src += &format!("case {}: out[gid] += {other} * 7 + {i}; break;\n", 3 * i);
        }
    }
    src + "default: out[gid] = -1 - x;\n}\n}\n"
}

/// What [`switch_source`]'s kernel stores for a selector value `s`, the
/// other operand `other` and the input `x`.
fn switch_result(s: i32, other: i32, x: i32) -> i32 {
    if s < 0 || s % 3 != 0 || s / 3 >= CASES {
        return -1 - x;
    }
    let mut out = 0i32;
    let mut i = s / 3;
    while i < CASES {
        if i % 10 != 9 {
            return out.wrapping_add(other.wrapping_mul(7)).wrapping_add(i);
        }
        out = out.wrapping_add(i);
        i += 1;
    }
    -1 - x
}

/// A `switch` of thousands of cases builds and runs on the SIMD engine in
/// seconds: on a kernel argument, a jump table the whole gang takes; on a
/// value of each work-item, a search tree of divergent branches,
/// linearized. Every selector class is run: a case, a case that falls
/// through, the last case (into the default), values between, past and
/// below the cases.
#[test]
fn big_switches_build_and_run() {
    let inputs: Vec<i32> = [
        0,
        3,
        27,
        30,
        3 * 4321,
        3 * 4329,
        3 * (CASES - 1),
        3 * CASES,
        1,
    ]
    .into_iter()
    // Far below and above the cases, `x * 7` still in range.
    .chain([-3, i32::MIN / 8, i32::MAX / 8, 3 * (CASES - 2) + 2])
    .chain((0..51).map(|g| (g * 1237) % (3 * CASES + 30)))
    .collect();
    assert_eq!(inputs.len(), 64);
    let ctx = lockstep_llvm::context().with_engine(Engine::Simd);
    let input = Buffer::from_slice(&inputs);
    for (selector, other) in [("k", "x"), ("x", "k")] {
        let program = build(&switch_source(selector, other));
        let ks = [0, 27, 3 * 4321, 3 * (CASES - 1), 1, -3];
        for k in ks {
            let out = Buffer::<i32>::zeroed(64);
            let mut kernel = program.kernel("sw").unwrap();
            kernel.set_arg(0, &input).unwrap();
            kernel.set_arg(1, &out).unwrap();
            kernel.set_arg(2, k).unwrap();
            ctx.launch(&kernel, &NDRange::new_1d(64).local([16, 1, 1]))
                .unwrap();
            let want: Vec<i32> = inputs
                .iter()
                .map(|&x| match selector {
                    "k" => switch_result(k, x, x),
                    _ => switch_result(x, k, x),
                })
                .collect();
            assert_eq!(out.read(), want, "switch ({selector}), k = {k}");
        }
    }
}

/// A kernel past the compile-time budget (`lockstep_ir::limits`) fails to
/// build, quickly, with an error that names it and its size: 25,001
/// `if (x == k)` statements in a row are 50,000 blocks.
#[test]
fn a_kernel_past_the_compile_time_budget_is_refused() {
    let mut src = String::from(
        "kernel void many_ifs(global const int *in, global int *out) {\n\
         int x = in[get_global_id(0)];\n",
    );
    for k in 0..25_001 {
        src += &format!("if (x == {k}) out[{}] = {k};\n", k % 64);
    }
    src += "}\n";
    let err = Program::build(&lockstep_llvm::context(), &src, "")
        .err()
        .expect("refused");
    let Some(CompileError::TooLarge(too_large)) = (match &err {
        BuildError::Compile(e) => e.downcast_ref::<CompileError>(),
        _ => None,
    }) else {
        panic!("not refused for its size: {err}");
    };
    assert_eq!(too_large.name, "many_ifs");
    assert!(too_large.kernel);
    assert!(too_large.blocks > MAX_BLOCKS, "{err}");
    let message = err.to_string();
    for part in [
        "kernel 'many_ifs' is too large to compile".to_string(),
        format!("{} blocks", too_large.blocks),
        format!("at most {MAX_INSTS} instructions and {MAX_BLOCKS} blocks"),
    ] {
        assert!(message.contains(&part), "{message}");
    }
}

/// A program binary (Lockstep IR) past the budget is refused as well.
#[test]
fn a_program_binary_past_the_compile_time_budget_is_refused() {
    let mut ir = String::from("kernel @chain() {\nblock0:\n    jump block1\n");
    for b in 1..=MAX_BLOCKS {
        ir += &format!("block{b}:\n    jump block{}\n", b + 1);
    }
    ir += &format!("block{}:\n    return\n}}\n", MAX_BLOCKS + 1);
    let err = Program::from_ir(&lockstep_llvm::context(), &ir, "", "")
        .err()
        .expect("refused");
    let BinaryError::TooLarge(too_large) = &err else {
        panic!("not refused for its size: {err}");
    };
    assert_eq!(too_large.name, "chain");
    assert_eq!(too_large.blocks, MAX_BLOCKS + 2);
    assert!(err
        .to_string()
        .contains("kernel 'chain' is too large to compile"));
}
