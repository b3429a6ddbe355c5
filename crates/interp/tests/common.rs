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
    };
    run_kernel(m, k, args, range, &opts)
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
