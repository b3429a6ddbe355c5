//! The runtime's validation through its public API: every `LaunchError`
//! variant (and `BuildError`) provoked by a small kernel, with the message a
//! user needs to fix it; and launches that must succeed (2D/3D ranges with
//! offsets, by-value and local-memory arguments, argument metadata).

use lockstep_runtime::{
    ArgKind, ArgValue, Buffer, BuildError, Bytes, Engine, Kernel, LaunchError, LocalMem, NDRange,
    Program, ScalarKind, MAX_LOCAL_MEM_SIZE, MAX_WORK_GROUP_SIZE,
};

fn build(source: &str) -> Program {
    build_with(source, "")
}

fn build_with(source: &str, options: &str) -> Program {
    match Program::build(&lockstep_llvm::context(), source, options) {
        Ok(p) => p,
        Err(e) => panic!("the test kernel does not build:\n{e}"),
    }
}

fn kernel(program: &Program, name: &str) -> Kernel {
    program
        .kernel(name)
        .unwrap_or_else(|e| panic!("no kernel {name}: {e}"))
}

const FILL: &str = "
kernel void fill(global int *out, int value) {
    out[get_global_id(0)] = value;
}
";

/// `fill` with both arguments bound, over `out`.
fn fill_kernel(program: &Program, out: &Buffer<i32>) -> Kernel {
    let mut k = kernel(program, "fill");
    k.set_arg(0, out).unwrap();
    k.set_arg(1, 7i32).unwrap();
    k
}

// ---------------------------------------------------------------- arguments

#[test]
fn arg_index_out_of_range() {
    let p = build(FILL);
    let mut k = kernel(&p, "fill");
    let err = k.set_arg(2, 1i32).unwrap_err();
    assert_eq!(
        err,
        LaunchError::ArgIndex {
            kernel: "fill".into(),
            index: 2,
            count: 2
        }
    );
    let msg = err.to_string();
    assert!(
        msg.contains("index 2") && msg.contains("takes 2 arguments"),
        "{msg}"
    );
}

#[test]
fn buffer_given_for_a_scalar() {
    let p = build(FILL);
    let mut k = kernel(&p, "fill");
    let buf = Buffer::<i32>::zeroed(4);
    let err = k.set_arg(1, &buf).unwrap_err();
    assert!(
        matches!(err, LaunchError::ArgKind { index: 1, .. }),
        "{err:?}"
    );
    let msg = err.to_string();
    assert!(msg.contains("'value'"), "{msg}");
    assert!(msg.contains("32-bit integer (int)"), "{msg}");
    assert!(msg.contains("a buffer of 16 bytes was given"), "{msg}");
}

#[test]
fn scalar_given_for_a_buffer() {
    let p = build(FILL);
    let mut k = kernel(&p, "fill");
    let err = k.set_arg(0, 3i32).unwrap_err();
    assert!(
        matches!(err, LaunchError::ArgKind { index: 0, .. }),
        "{err:?}"
    );
    let msg = err.to_string();
    assert!(
        msg.contains("'out'") && msg.contains("is a global buffer"),
        "{msg}"
    );
    assert!(msg.contains("a 32-bit integer was given"), "{msg}");
}

#[test]
fn float_given_for_an_int() {
    let p = build(FILL);
    let mut k = kernel(&p, "fill");
    let err = k.set_arg(1, 1.5f32).unwrap_err();
    assert!(
        matches!(err, LaunchError::ArgKind { index: 1, .. }),
        "{err:?}"
    );
    let msg = err.to_string();
    assert!(
        msg.contains("is a 32-bit integer (int), but a 32-bit float was given"),
        "{msg}"
    );
    // A 64-bit integer is not an `int` either.
    let err = k.set_arg(1, 1i64).unwrap_err();
    assert!(
        err.to_string().contains("a 64-bit integer was given"),
        "{err}"
    );
}

const BYVAL: &str = "
typedef struct { int a; float b; int c[2]; } params_t;
kernel void byval(params_t p, float4 v, int3 w, global float *out) {
    out[0] = (float)p.a;
    out[1] = p.b;
    out[2] = (float)(p.c[0] + p.c[1]);
    out[3] = v.x + v.y + v.z + v.w;
    out[4] = (float)(w.x * 100 + w.y * 10 + w.z);
}
";

#[test]
fn wrong_byval_size() {
    let p = build(BYVAL);
    let mut k = kernel(&p, "byval");
    assert_eq!(k.args()[0].kind, ArgKind::ByValue { size: 16 });
    let err = k.set_arg(0, Bytes(vec![0; 12])).unwrap_err();
    assert!(
        matches!(err, LaunchError::ArgKind { index: 0, .. }),
        "{err:?}"
    );
    let msg = err.to_string();
    assert!(msg.contains("is 16 bytes by value"), "{msg}");
    assert!(msg.contains("12 bytes by value was given"), "{msg}");
    // A float3-sized array for a float4.
    let err = k.set_arg(1, [1.0f32; 3]).unwrap_err();
    assert!(
        err.to_string().contains("16 bytes by value (float4)"),
        "{err}"
    );
}

#[test]
fn local_arg_needs_local_mem() {
    let p = build(REDUCE);
    let mut k = kernel(&p, "reduce");
    let buf = Buffer::<f32>::zeroed(64);
    let err = k.set_arg(1, &buf).unwrap_err();
    assert!(
        matches!(err, LaunchError::ArgKind { index: 1, .. }),
        "{err:?}"
    );
    let msg = err.to_string();
    assert!(msg.contains("'scratch'"), "{msg}");
    assert!(
        msg.contains("local memory (give its size with LocalMem)"),
        "{msg}"
    );
    let err = k.set_arg(1, 256u32).unwrap_err();
    assert!(
        matches!(err, LaunchError::ArgKind { index: 1, .. }),
        "{err:?}"
    );
}

#[test]
fn arg_not_set() {
    let p = build(FILL);
    let mut k = kernel(&p, "fill");
    let out = Buffer::<i32>::zeroed(4);
    k.set_arg(0, &out).unwrap();
    let err = lockstep_llvm::context()
        .launch(&k, &NDRange::new_1d(4))
        .unwrap_err();
    assert_eq!(
        err,
        LaunchError::ArgNotSet {
            kernel: "fill".into(),
            index: 1,
            name: "value".into()
        }
    );
    assert!(err.to_string().contains("argument 1 ('value')"), "{err}");
}

#[test]
fn buffer_smaller_than_one_element_binds_and_runs() {
    // 4 bytes bound to a float4* whose kernel reads only .x (pocl's
    // test_flatten_barrier_subs and Oclgrind's lvalue_loads rely on it).
    let p = build(
        "kernel void k(global float4 *v, global float *out) { out[get_global_id(0)] = v[0].x + 1.0f; }",
    );
    for engine in [Engine::Simd, Engine::Interpreter] {
        let mut k = kernel(&p, "k");
        let small = Buffer::from_slice(&[2.5f32]);
        let out = Buffer::<f32>::zeroed(8);
        k.set_arg(0, &small).unwrap();
        k.set_arg(1, &out).unwrap();
        lockstep_llvm::context()
            .with_engine(engine)
            .launch(&k, &NDRange::new_1d(8).local([8, 1, 1]))
            .unwrap();
        assert_eq!(out.read(), vec![3.5f32; 8], "{engine}");
    }
}

#[test]
fn zero_local_memory_binds_and_runs() {
    // OpenCL 3.1: a local memory argument may have 0 bytes; a kernel that
    // does not touch it (here: only when n > 0) runs on every engine.
    let p = build(
        "kernel void k(local int *scratch, int n, global int *out) {
            if (n > 0) { scratch[get_local_id(0)] = 1; barrier(CLK_LOCAL_MEM_FENCE); }
            out[get_global_id(0)] = get_local_id(0) + 1;
        }",
    );
    for engine in [Engine::Simd, Engine::Interpreter] {
        let mut k = kernel(&p, "k");
        let out = Buffer::<i32>::zeroed(16);
        k.set_arg(0, LocalMem(0)).unwrap();
        k.set_arg(1, 0i32).unwrap();
        k.set_arg(2, &out).unwrap();
        lockstep_llvm::context()
            .with_engine(engine)
            .launch(&k, &NDRange::new_1d(16).local([8, 1, 1]))
            .unwrap();
        let want: Vec<i32> = (0..16).map(|i| i % 8 + 1).collect();
        assert_eq!(out.read(), want, "{engine}");
    }
}

#[test]
fn local_memory_too_large() {
    let p = build(REDUCE);
    let mut k = kernel(&p, "reduce");
    let input = Buffer::<f32>::zeroed(16);
    let out = Buffer::<f32>::zeroed(1);
    k.set_arg(0, &input).unwrap();
    k.set_arg(1, LocalMem(1 << 40)).unwrap();
    k.set_arg(2, &out).unwrap();
    let range = NDRange::new_1d(16).local([16, 1, 1]);
    let err = lockstep_llvm::context().launch(&k, &range).unwrap_err();
    assert_eq!(
        err,
        LaunchError::LocalMemoryTooLarge {
            kernel: "reduce".into(),
            bytes: 1 << 40,
            max: MAX_LOCAL_MEM_SIZE
        }
    );
    let msg = err.to_string();
    assert!(
        msg.contains(&format!("more than the device's {MAX_LOCAL_MEM_SIZE}")),
        "{msg}"
    );
    assert!(msg.contains("smaller LocalMem"), "{msg}");
    // Exactly the maximum is fine.
    k.set_arg(1, LocalMem(MAX_LOCAL_MEM_SIZE as usize)).unwrap();
    lockstep_llvm::context().launch(&k, &range).unwrap();
}

// -------------------------------------------------------------------- ranges

#[test]
fn work_dim_0_and_4() {
    let p = build(FILL);
    let out = Buffer::<i32>::zeroed(4);
    let k = fill_kernel(&p, &out);
    let ctx = lockstep_llvm::context();
    for dims in [0, 4] {
        let err = ctx.launch(&k, &NDRange::new(dims, [4, 1, 1])).unwrap_err();
        assert_eq!(err, LaunchError::WorkDim(dims));
        assert!(err.to_string().contains("must be 1, 2 or 3"), "{err}");
    }
}

#[test]
fn zero_global_size() {
    let p = build(FILL);
    let out = Buffer::<i32>::zeroed(4);
    let k = fill_kernel(&p, &out);
    let err = lockstep_llvm::context()
        .launch(&k, &NDRange::new_2d(4, 0))
        .unwrap_err();
    assert_eq!(err, LaunchError::ZeroGlobalSize { dim: 1 });
    assert!(
        err.to_string().contains("global size in dimension 1 is 0"),
        "{err}"
    );
}

#[test]
fn zero_local_size() {
    let p = build(FILL);
    let out = Buffer::<i32>::zeroed(4);
    let k = fill_kernel(&p, &out);
    let err = lockstep_llvm::context()
        .launch(&k, &NDRange::new_1d(4).local([0, 1, 1]))
        .unwrap_err();
    assert_eq!(err, LaunchError::ZeroLocalSize { dim: 0 });
    assert!(
        err.to_string().contains("local size in dimension 0 is 0"),
        "{err}"
    );
}

#[test]
fn work_group_too_large() {
    let p = build(FILL);
    let n = MAX_WORK_GROUP_SIZE * 2;
    let out = Buffer::<i32>::zeroed(n as usize);
    let k = fill_kernel(&p, &out);
    let err = lockstep_llvm::context()
        .launch(&k, &NDRange::new_1d(n).local([n, 1, 1]))
        .unwrap_err();
    assert_eq!(
        err,
        LaunchError::WorkGroupTooLarge {
            total: n,
            max: MAX_WORK_GROUP_SIZE
        }
    );
    let msg = err.to_string();
    assert!(msg.contains(&format!("{n} work-items")), "{msg}");
    assert!(
        msg.contains(&format!("maximum of {MAX_WORK_GROUP_SIZE}")),
        "{msg}"
    );
}

const REQD: &str = "
kernel __attribute__((reqd_work_group_size(4, 1, 1)))
void reqd(global int *out) {
    out[get_global_id(0)] = (int)get_local_size(0);
}
";

#[test]
fn reqd_work_group_size_mismatch() {
    let p = build(REQD);
    let mut k = kernel(&p, "reqd");
    assert_eq!(k.required_work_group_size(), Some([4, 1, 1]));
    let out = Buffer::<i32>::zeroed(8);
    k.set_arg(0, &out).unwrap();
    let err = lockstep_llvm::context()
        .launch(&k, &NDRange::new_1d(8).local([2, 1, 1]))
        .unwrap_err();
    assert_eq!(
        err,
        LaunchError::ReqdWorkGroupSize {
            kernel: "reqd".into(),
            required: [4, 1, 1],
            given: [2, 1, 1]
        }
    );
    let msg = err.to_string();
    assert!(
        msg.contains("reqd_work_group_size") && msg.contains("[4, 1, 1]"),
        "{msg}"
    );
}

#[test]
fn null_local_size_uses_the_required_size() {
    let p = build(REQD);
    let mut k = kernel(&p, "reqd");
    let out = Buffer::<i32>::zeroed(8);
    k.set_arg(0, &out).unwrap();
    lockstep_llvm::context()
        .launch(&k, &NDRange::new_1d(8))
        .unwrap();
    assert_eq!(out.read(), vec![4; 8]);
}

const GROUPS: &str = "
kernel void groups(global int *out) {
    size_t i = get_global_id(0);
    out[i] = (int)(get_group_id(0) * 100 + get_local_size(0) * 10 + get_local_id(0));
}
";

#[test]
fn non_uniform_groups_rejected_for_cl12() {
    let p = build_with(GROUPS, "-cl-std=CL1.2");
    let mut k = kernel(&p, "groups");
    let out = Buffer::<i32>::zeroed(10);
    k.set_arg(0, &out).unwrap();
    let err = lockstep_llvm::context()
        .launch(&k, &NDRange::new_1d(10).local([4, 1, 1]))
        .unwrap_err();
    assert!(
        matches!(
            err,
            LaunchError::NonUniformWorkGroups {
                dim: 0,
                global: 10,
                local: 4,
                ..
            }
        ),
        "{err:?}"
    );
    let msg = err.to_string();
    assert!(msg.contains("does not divide"), "{msg}");
    assert!(msg.contains("-cl-std=CL2.0"), "{msg}");
    // Without a local size, Lockstep picks one that divides.
    lockstep_llvm::context()
        .launch(&k, &NDRange::new_1d(10))
        .unwrap();
}

#[test]
fn non_uniform_groups_run_for_cl30() {
    let p = build(GROUPS);
    let mut k = kernel(&p, "groups");
    let out = Buffer::<i32>::zeroed(10);
    k.set_arg(0, &out).unwrap();
    lockstep_llvm::context()
        .launch(&k, &NDRange::new_1d(10).local([4, 1, 1]))
        .unwrap();
    // Groups 0 and 1 have 4 work-items, the last one 2.
    let want: Vec<i32> = (0..10)
        .map(|i| {
            let group = i / 4;
            let size = if group == 2 { 2 } else { 4 };
            group * 100 + size * 10 + i % 4
        })
        .collect();
    assert_eq!(out.read(), want);
}

#[test]
fn aliased_buffers() {
    let p = build(
        "kernel void copy(global const int *a, global int *b) {
             size_t i = get_global_id(0);
             b[i] = a[i] + 1;
         }",
    );
    let mut k = kernel(&p, "copy");
    let buf = Buffer::from_slice(&[1i32, 2, 3, 4]);
    k.set_arg(0, &buf).unwrap();
    k.set_arg(1, &buf.clone()).unwrap();
    // Both engines run kernels whose arguments are the same buffer, as
    // OpenCL allows.
    for engine in [Engine::Simd, Engine::Interpreter] {
        buf.write(&[1, 2, 3, 4]);
        lockstep_llvm::context()
            .with_engine(engine)
            .launch(&k, &NDRange::new_1d(4))
            .unwrap();
        assert_eq!(buf.read(), vec![2, 3, 4, 5], "{engine:?}");
    }
    // Buffers that overlap without being the same: the interpreter needs
    // distinct memory and says so.
    let whole = Buffer::<i32>::zeroed(8);
    let tail = lockstep_runtime::Storage::range(whole.storage(), 8, 24).unwrap();
    k.set_arg(0, &whole).unwrap();
    k.set_arg(1, ArgValue::Buffer(tail)).unwrap();
    let err = lockstep_llvm::context()
        .with_engine(Engine::Interpreter)
        .launch(&k, &NDRange::new_1d(4))
        .unwrap_err();
    assert_eq!(
        err,
        LaunchError::AliasedBuffers {
            kernel: "copy".into(),
            first: 0,
            second: 1
        }
    );
    assert!(err.to_string().contains("overlapping buffers"), "{err}");
}

#[test]
fn execution_fault_has_the_source_location() {
    let p = build(
        "kernel void oob(global int *out) {
    size_t i = get_global_id(0);
    out[i + 4] = 1;
}",
    );
    let mut k = kernel(&p, "oob");
    let out = Buffer::<i32>::zeroed(4);
    k.set_arg(0, &out).unwrap();
    // The interpreter checks every access (native code, like any OpenCL
    // device, does not).
    let err = lockstep_llvm::context()
        .with_engine(Engine::Interpreter)
        .launch(&k, &NDRange::new_1d(4))
        .unwrap_err();
    let LaunchError::Execution { kernel, message } = &err else {
        panic!("expected an execution error, got {err:?}");
    };
    assert_eq!(kernel, "oob");
    assert!(message.contains("out-of-bounds"), "{message}");
    assert!(message.contains("at program.cl:3:"), "{message}");
    assert!(
        err.to_string().starts_with("kernel 'oob' failed: "),
        "{err}"
    );
}

#[test]
fn no_such_kernel_lists_the_kernels() {
    let p = build(
        "kernel void alpha(global int *x) { x[0] = 1; }
         kernel void beta(global int *x) { x[0] = 2; }",
    );
    let err = p.kernel("gamma").err().expect("no kernel gamma");
    assert_eq!(
        err,
        LaunchError::NoSuchKernel {
            name: "gamma".into(),
            available: "alpha, beta".into()
        }
    );
    assert!(err.to_string().contains("(kernels: alpha, beta)"), "{err}");
}

#[test]
fn build_error_has_clangs_location() {
    let source = "kernel void broken(global int *x) {
    x[0] = undeclared_name;
}";
    let err = Program::build(&lockstep_llvm::context(), source, "")
        .err()
        .expect("the program has an error");
    let BuildError::Compile(inner) = &err else {
        panic!("not a compile error: {err:?}");
    };
    assert!(
        matches!(
            inner.downcast_ref::<lockstep_frontend::CompileError>(),
            Some(lockstep_frontend::CompileError::Clang { .. })
        ),
        "{inner:?}"
    );
    let log = err.build_log();
    assert!(log.contains("program.cl:2:12: error:"), "{log}");
    assert!(log.contains("undeclared_name"), "{log}");
}

#[test]
fn bad_build_option_is_a_build_error() {
    let err = Program::build(&lockstep_llvm::context(), FILL, "-cl-std=CL9.9")
        .err()
        .expect("CL9.9 is not a language version");
    assert!(matches!(err, BuildError::Options(_)), "{err:?}");
    assert!(err.build_log().contains("CL9.9"), "{err}");
}

// ---------------------------------------------------------------- successes

#[test]
fn range_2d_with_offset() {
    let p = build(
        "kernel void ids(global int *out, int width) {
             int x = (int)get_global_id(0), y = (int)get_global_id(1);
             int lx = x - (int)get_global_offset(0), ly = y - (int)get_global_offset(1);
             out[ly * width + lx] = y * 1000 + x;
         }",
    );
    let (w, h, ox, oy) = (6u64, 4u64, 10u64, 20u64);
    let out = Buffer::<i32>::zeroed((w * h) as usize);
    let mut k = kernel(&p, "ids");
    k.set_arg(0, &out).unwrap();
    k.set_arg(1, w as i32).unwrap();
    lockstep_llvm::context()
        .launch(
            &k,
            &NDRange::new_2d(w, h).local([3, 2, 1]).offset([ox, oy, 0]),
        )
        .unwrap();
    let want: Vec<i32> = (0..h)
        .flat_map(|y| (0..w).map(move |x| ((y + oy) * 1000 + x + ox) as i32))
        .collect();
    assert_eq!(out.read(), want);
}

#[test]
fn range_3d_with_offset() {
    let p = build(
        "kernel void ids(global int *out) {
             size_t x = get_global_id(0) - get_global_offset(0);
             size_t y = get_global_id(1) - get_global_offset(1);
             size_t z = get_global_id(2) - get_global_offset(2);
             size_t i = (z * get_global_size(1) + y) * get_global_size(0) + x;
             out[i] = (int)(get_global_id(2) * 10000 + get_global_id(1) * 100 + get_global_id(0))
                    + (int)get_group_id(2) * 1000000;
         }",
    );
    let (g, off) = ([4u64, 3, 2], [1u64, 2, 3]);
    let out = Buffer::<i32>::zeroed((g[0] * g[1] * g[2]) as usize);
    let mut k = kernel(&p, "ids");
    k.set_arg(0, &out).unwrap();
    lockstep_llvm::context()
        .launch(
            &k,
            &NDRange::new_3d(g[0], g[1], g[2])
                .local([2, 3, 1])
                .offset(off),
        )
        .unwrap();
    let mut want = Vec::new();
    for z in 0..g[2] {
        for y in 0..g[1] {
            for x in 0..g[0] {
                let id = [x + off[0], y + off[1], z + off[2]];
                want.push((id[2] * 10000 + id[1] * 100 + id[0] + z * 1000000) as i32);
            }
        }
    }
    assert_eq!(out.read(), want);
}

#[test]
fn by_value_struct_vector_and_int3() {
    let p = build(BYVAL);
    let mut k = kernel(&p, "byval");
    let mut params = Vec::new();
    params.extend_from_slice(&5i32.to_le_bytes());
    params.extend_from_slice(&2.5f32.to_le_bytes());
    params.extend_from_slice(&3i32.to_le_bytes());
    params.extend_from_slice(&4i32.to_le_bytes());
    let out = Buffer::<f32>::zeroed(5);
    k.set_arg(0, Bytes(params)).unwrap();
    k.set_arg(1, [1.0f32, 2.0, 3.0, 4.0]).unwrap();
    // int3 is 16 bytes, like int4.
    assert_eq!(k.args()[2].kind, ArgKind::ByValue { size: 16 });
    k.set_arg(2, [1i32, 2, 3, 0]).unwrap();
    k.set_arg(3, &out).unwrap();
    lockstep_llvm::context()
        .launch(&k, &NDRange::new_1d(1))
        .unwrap();
    assert_eq!(out.read(), vec![5.0, 2.5, 7.0, 10.0, 123.0]);
}

const REDUCE: &str = "
kernel void reduce(global const float *in, local float *scratch, global float *out) {
    size_t lid = get_local_id(0), n = get_local_size(0);
    scratch[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = n / 2; s > 0; s /= 2) {
        if (lid < s) scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) out[get_group_id(0)] = scratch[0];
}
";

#[test]
fn local_memory_reduction() {
    let p = build(REDUCE);
    let mut k = kernel(&p, "reduce");
    let input: Vec<f32> = (0..64).map(|i| i as f32).collect();
    let inb = Buffer::from_slice(&input);
    let out = Buffer::<f32>::zeroed(4);
    k.set_arg(0, &inb).unwrap();
    k.set_arg(1, LocalMem(16 * 4)).unwrap();
    k.set_arg(2, &out).unwrap();
    lockstep_llvm::context()
        .launch(&k, &NDRange::new_1d(64).local([16, 1, 1]))
        .unwrap();
    let want: Vec<f32> = input.chunks(16).map(|c| c.iter().sum()).collect();
    assert_eq!(out.read(), want);
}

#[test]
fn kernel_names_and_arg_metadata() {
    let p = build(
        "kernel void first(global const float * restrict a, constant int *table,
                            local volatile uint *tmp, float scale, uchar4 mask) {}
         kernel void second(global double *d, long n, ushort s) {}",
    );
    assert_eq!(p.kernel_names(), vec!["first", "second"]);
    let k = kernel(&p, "first");
    let args = k.args();
    assert_eq!(args.len(), 5);
    let names: Vec<&str> = args.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["a", "table", "tmp", "scale", "mask"]);
    let types: Vec<&str> = args.iter().map(|a| a.type_name.as_str()).collect();
    assert_eq!(types, ["float*", "int*", "uint*", "float", "uchar4"]);
    assert_eq!(args[0].kind, ArgKind::GlobalBuffer);
    assert!(args[0].is_const && args[0].is_restrict && !args[0].is_volatile);
    assert_eq!(args[1].kind, ArgKind::ConstantBuffer);
    assert_eq!(args[2].kind, ArgKind::LocalMemory);
    assert!(args[2].is_volatile && !args[2].is_const && !args[2].is_restrict);
    assert_eq!(args[3].kind, ArgKind::Scalar(ScalarKind::Float(32)));
    assert!(!args[3].is_const && !args[3].is_restrict && !args[3].is_volatile);
    assert_eq!(args[4].kind, ArgKind::ByValue { size: 4 });

    let k = kernel(&p, "second");
    let kinds: Vec<&ArgKind> = k.args().iter().map(|a| &a.kind).collect();
    assert_eq!(
        kinds,
        [
            &ArgKind::GlobalBuffer,
            &ArgKind::Scalar(ScalarKind::Int(64)),
            &ArgKind::Scalar(ScalarKind::Int(16))
        ]
    );
}

#[test]
fn engine_names() {
    use lockstep_runtime::{Engine, EngineError};
    assert_eq!("interp".parse::<Engine>(), Ok(Engine::Interpreter));
    assert_eq!(Engine::Interpreter.name(), "interp");
    assert_eq!("simd".parse::<Engine>(), Ok(Engine::Simd));
    assert_eq!(Engine::Simd.name(), "simd");
    assert_eq!(Engine::default(), Engine::Simd);
    let err = "gpu".parse::<Engine>().unwrap_err();
    assert!(matches!(err, EngineError::Unknown { .. }), "{err:?}");
    assert!(err.to_string().contains("engines: interp, simd"), "{err}");
}

/// Mandelbrot's iteration: each `z` waits on the last, so the kernel runs
/// at twice the device's width unless a width is set; the results are the
/// same at either width.
const ESCAPE: &str = "
kernel void escape(global uint *out, float step) {
    uint x = get_global_id(0);
    float cr = -2.0f + (float)x * step, ci = 0.5f;
    float zr = 0.0f, zi = 0.0f;
    uint i = 0;
    while (i < 200 && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zi;
        zr = zr * zr - zi * zi + cr;
        zi = t + t + ci;
        i++;
    }
    out[x] = i;
}
";

#[test]
fn a_latency_bound_kernel_runs_twice_as_wide_unless_a_width_is_set() {
    let program = build(ESCAPE);
    let out = Buffer::<u32>::zeroed(300);
    let mut k = kernel(&program, "escape");
    k.set_arg(0, &out).unwrap();
    k.set_arg(1, 0.01f32).unwrap();
    let ctx = lockstep_llvm::context();
    let device = ctx.device().simd_width;
    let expected = if device < 32 { device * 2 } else { device };
    assert_eq!(ctx.kernel_width(&k), expected);
    ctx.launch(&k, &NDRange::new_1d(300)).unwrap();
    let wide = out.read();
    let mut narrow_ctx = lockstep_llvm::context();
    narrow_ctx.set_width(device);
    assert_eq!(narrow_ctx.kernel_width(&k), device);
    narrow_ctx.launch(&k, &NDRange::new_1d(300)).unwrap();
    assert_eq!(out.read(), wide);
    let interp = lockstep_llvm::context().with_engine(Engine::Interpreter);
    interp.launch(&k, &NDRange::new_1d(300)).unwrap();
    assert_eq!(out.read(), wide);
    assert!(wide.iter().any(|&i| i == 200) && wide.iter().any(|&i| i < 10));
}
