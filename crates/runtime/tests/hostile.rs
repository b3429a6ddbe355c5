//! Kernels and arguments that stress the runtime's limits: wide by-value
//! vectors, large private arrays, local memory beyond the device's. Each
//! runs correctly or fails with a clear error, never a crash.

use lockstep_runtime::{Buffer, Bytes, Context, Engine, LaunchError, NDRange, Program};

fn build(source: &str) -> Program {
    Program::build(&Context::new(), source, "")
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
    let ctx = Context::with_engine(Engine::Simd);
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
            let result =
                Context::with_engine(engine).launch(&k, &NDRange::new_1d(16).local([16, 1, 1]));
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
        let mut ctx = Context::with_engine(Engine::Simd);
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
