//! Code generation: turns Lockstep IR into SIMD LLVM IR for a gang of W
//! work-items, optimizes and JIT-compiles it. The only crate that writes LLVM IR.

pub mod backend;
