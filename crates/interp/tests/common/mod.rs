//! Helpers shared by the interpreter tests: parse + verify IR text, build
//! arguments, read results.
#![allow(dead_code)]

use lockstep_interp::{run_kernel, InterpError, KernelArg, NdRange, Options, Report};
use lockstep_ir::{parse_module, verify_module, Module};

/// Parses and verifies a module (panics with the messages if either fails).
pub fn module(src: &str) -> Module {
    let m = parse_module(src).unwrap_or_else(|e| panic!("parse error: {e}\n{src}"));
    if let Err(e) = verify_module(&m) {
        panic!("verifier: {e}\n{src}");
    }
    m
}

/// Runs the kernel named `name`.
pub fn run(
    m: &Module,
    name: &str,
    args: &mut [KernelArg],
    range: &NdRange,
    checked: bool,
) -> Result<Report, InterpError> {
    let k = m.function_by_name(name).expect("kernel exists");
    let opts = Options {
        checked,
        max_steps: Some(1 << 32),
        ..Options::default()
    };
    run_kernel(m, k, args, range, &opts)
}

/// Runs the kernel `k`, whose one argument is the buffer `out`, over a
/// 1-D range of `global` work-items in groups of `local`.
pub fn run_out(m: &Module, out: &mut [u8], (global, local): (u64, u64), checked: bool) -> Report {
    run(
        m,
        "k",
        &mut [KernelArg::Buffer(out)],
        &NdRange::new_1d(global, local),
        checked,
    )
    .unwrap()
}

/// [`run_out`] for a kernel whose second argument is a `__local` buffer
/// of `local_bytes`.
pub fn run_out_local(
    m: &Module,
    out: &mut [u8],
    local_bytes: usize,
    (global, local): (u64, u64),
    checked: bool,
) -> Report {
    run(
        m,
        "k",
        &mut [KernelArg::Buffer(out), KernelArg::Local(local_bytes)],
        &NdRange::new_1d(global, local),
        checked,
    )
    .unwrap()
}

pub fn range(dim: u32, global: [u64; 3], local: [u64; 3], offset: [u64; 3]) -> NdRange {
    NdRange {
        work_dim: dim,
        global_size: global,
        local_size: local,
        global_offset: offset,
    }
}

pub fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub fn to_f32s(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

pub fn i32s(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub fn to_i32s(b: &[u8]) -> Vec<i32> {
    b.chunks_exact(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

pub fn to_u32s(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

pub fn to_u64s(b: &[u8]) -> Vec<u64> {
    b.chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

pub fn scalar_f32(x: f32) -> KernelArg<'static> {
    KernelArg::Scalar(x.to_le_bytes().to_vec())
}

pub fn scalar_i32(x: i32) -> KernelArg<'static> {
    KernelArg::Scalar(x.to_le_bytes().to_vec())
}

/// Width in bytes of a type named in the text format.
pub fn type_bytes(ty: &str) -> usize {
    match ty {
        "i1" | "i8" => 1,
        "i16" | "f16" => 2,
        "i32" | "f32" => 4,
        _ => 8,
    }
}

/// Runs `inst` (an instruction's right-hand side using the operands `A`,
/// `B` and `C` of type `in_ty`, giving `out_ty`) once per input triple of
/// bit patterns, and returns the result bits.
pub fn eval(inst: &str, in_ty: &str, out_ty: &str, inputs: &[(u64, u64, u64)]) -> Vec<u64> {
    let (ib, ob) = (type_bytes(in_ty), type_bytes(out_ty));
    let body = inst
        .replace('A', "v7")
        .replace('B', "v9")
        .replace('C', "v15");
    let src = format!(
        r#"
kernel @k(ptr.global, ptr.global, ptr.global, ptr.global) {{
    arg 0 "a" "void*" none none
    arg 1 "b" "void*" none none
    arg 2 "c" "void*" none none
    arg 3 "out" "void*" none none
block0(v0: ptr.global, v1: ptr.global, v14: ptr.global, v2: ptr.global):
    v3: i64 = global_id 0
    v4: i64 = iconst {ib}
    v5: i64 = imul v3, v4
    v6: ptr.global = ptradd v0, v5
    v7: {in_ty} = load v6, align 1
    v8: ptr.global = ptradd v1, v5
    v9: {in_ty} = load v8, align 1
    v16: ptr.global = ptradd v14, v5
    v15: {in_ty} = load v16, align 1
    v10: {out_ty} = {body}
    v11: i64 = iconst {ob}
    v12: i64 = imul v3, v11
    v13: ptr.global = ptradd v2, v12
    store v10, v13, align 1
    return
}}
"#
    );
    let m = module(&src);
    let pack = |sel: &dyn Fn(&(u64, u64, u64)) -> u64| -> Vec<u8> {
        inputs
            .iter()
            .flat_map(|t| sel(t).to_le_bytes()[..ib].to_vec())
            .collect()
    };
    let mut a = pack(&|t| t.0);
    let mut b = pack(&|t| t.1);
    let mut c = pack(&|t| t.2);
    let mut out = vec![0u8; inputs.len() * ob];
    run(
        &m,
        "k",
        &mut [
            KernelArg::Buffer(&mut a),
            KernelArg::Buffer(&mut b),
            KernelArg::Buffer(&mut c),
            KernelArg::Buffer(&mut out),
        ],
        &NdRange::new_1d(inputs.len() as u64, 1),
        false,
    )
    .unwrap_or_else(|e| panic!("{inst}: {e}"));
    out.chunks(ob)
        .map(|c| {
            let mut w = [0u8; 8];
            w[..ob].copy_from_slice(c);
            u64::from_le_bytes(w)
        })
        .collect()
}

/// `eval` of a binary operation on pairs.
pub fn eval2(inst: &str, ty: &str, out_ty: &str, pairs: &[(u64, u64)]) -> Vec<u64> {
    let t: Vec<_> = pairs.iter().map(|&(a, b)| (a, b, 0)).collect();
    eval(inst, ty, out_ty, &t)
}

/// `eval` of a unary operation.
pub fn eval1(inst: &str, ty: &str, out_ty: &str, xs: &[u64]) -> Vec<u64> {
    let t: Vec<_> = xs.iter().map(|&a| (a, 0, 0)).collect();
    eval(inst, ty, out_ty, &t)
}
