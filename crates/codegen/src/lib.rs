//! Code generation: turns Lockstep IR into SIMD LLVM IR for a gang of W
//! work-items, optimizes and JIT-compiles it. The only crate that writes LLVM IR.
//!
//! [`compile`] is the entry point: a kernel specialization in, a callable
//! work-group function out, with no LLVM type in its interface.
//! [`emit::emit_kernel`] writes the work-group function of one kernel
//! specialization into an LLVM module; [`backend`] optimizes it for the host
//! CPU, emits machine code and loads it into the JIT; [`abi`] (from
//! `lockstep-ir`) is the contract with the runtime that calls it.

pub mod backend;
mod compile;
pub mod emit;
mod perf_map;
pub mod report;

use thiserror::Error;

pub use backend::target::Tier;
pub use compile::{
    build_identity, cached, compile, compile_at, seen_at_quick_tier, stats, CompileStats,
    CompiledKernel,
};
pub use emit::{Linearization, LocalLayout, Spec, WORK_GROUP_FN};
pub use lockstep_ir::abi;
pub use report::Report;

#[derive(Debug, Error)]
pub enum CodegenError {
    /// The kernel uses something the SIMD engine does not handle yet.
    #[error("kernel '{kernel}': the SIMD engine does not support {construct}")]
    Unsupported { kernel: String, construct: String },
    /// LLVM rejected generated code: a compiler bug.
    #[error("internal code generation error: {0}")]
    Internal(String),
    /// The CPU to compile for is unknown or cannot run here
    /// (`LOCKSTEP_CPU`), or LLVM cannot target the host.
    #[error("{0}")]
    Target(backend::BackendError),
}

/// What [`kernel_listing`] shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Listing {
    /// The generated LLVM IR, before LLVM's optimizer.
    Llvm,
    /// The LLVM IR after the `-O3` pipeline for the host.
    OptimizedLlvm,
    /// Host assembly.
    Asm,
    /// The vectorization report.
    Report,
}

/// Generates one kernel specialization and returns it as text.
pub fn kernel_listing(
    module: &lockstep_ir::Module,
    kernel: lockstep_ir::FuncId,
    spec: &Spec,
    listing: Listing,
) -> Result<String, CodegenError> {
    let context = inkwell::context::Context::create();
    let llvm = context.create_module(&module.functions[kernel].name);
    let (_, report) = emit::emit_kernel(context.raw(), llvm.as_mut_ptr(), module, kernel, spec)?;
    let host = || backend::HostTarget::detect().map_err(CodegenError::Target);
    let backend_err = |e: backend::BackendError| CodegenError::Internal(e.to_string());
    Ok(match listing {
        Listing::Report => report.to_string(),
        Listing::Llvm => llvm.print_to_string().to_string(),
        Listing::OptimizedLlvm => {
            backend::target::optimized_ir(&host()?, &llvm).map_err(backend_err)?
        }
        Listing::Asm => backend::target::emit_assembly(&host()?, &llvm).map_err(backend_err)?,
    })
}

/// The SIMD width Lockstep picks for 32-bit lanes on the CPU it compiles
/// for ([`target`]); 4 when there is none (the error comes at compile time).
pub fn host_width() -> u32 {
    target().map(|t| t.preferred_width_32()).unwrap_or(4)
}

/// The CPU kernels are compiled for and run on: the host, or the CPU
/// `LOCKSTEP_CPU` names ([`backend::target::CPU_ENV`]) if this machine can
/// run its code. Detected once per process.
pub fn target() -> Result<&'static backend::HostTarget, CodegenError> {
    static TARGET: std::sync::OnceLock<Result<backend::HostTarget, backend::BackendError>> =
        std::sync::OnceLock::new();
    TARGET
        .get_or_init(|| {
            let target = backend::HostTarget::detect()?;
            if backend::target::requested_cpu().is_some() {
                let host = backend::HostTarget::native()?;
                let missing = target.missing_on(&host);
                if !missing.is_empty() {
                    return Err(backend::BackendError::CpuNotRunnable {
                        cpu: target.cpu().to_owned(),
                        host: host.cpu().to_owned(),
                        missing,
                    });
                }
            }
            Ok(target)
        })
        .as_ref()
        .map_err(|e| CodegenError::Target(e.clone()))
}
