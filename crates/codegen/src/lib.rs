//! Code generation: turns Lockstep IR into SIMD LLVM IR for a gang of W
//! work-items, optimizes and JIT-compiles it. The only crate that writes LLVM IR.
//!
//! [`emit::emit_kernel`] writes the work-group function of one kernel
//! specialization into an LLVM module; [`backend`] optimizes it for the host
//! CPU, emits machine code and loads it into the JIT; [`abi`] is the
//! contract with the runtime that calls it.

pub mod abi;
pub mod backend;
pub mod emit;
pub mod report;

use thiserror::Error;

pub use emit::{LocalLayout, Spec, WORK_GROUP_FN};
pub use report::Report;

#[derive(Debug, Error)]
pub enum CodegenError {
    /// The kernel uses something the SIMD engine does not handle yet.
    #[error("kernel '{kernel}': the SIMD engine does not support {construct}")]
    Unsupported { kernel: String, construct: String },
    /// LLVM rejected generated code: a compiler bug.
    #[error("internal code generation error: {0}")]
    Internal(String),
}
