//! Lockstep's LLVM toolchain: the runtime's [`Toolchain`] built from clang
//! and LLVM. Programs are built by `lockstep-frontend` (clang 19, then the
//! import into Lockstep IR), kernels compiled by `lockstep-codegen` (SIMD
//! LLVM IR, `-O3` for the host CPU, the ORC JIT).
//!
//! The runtime links no compiler; this crate is where the two meet, so that
//! a Rust program, the `lockstep` command and the OpenCL platform get a
//! working context from one call:
//!
//! ```
//! use lockstep_runtime::{Buffer, NDRange, Program};
//!
//! let ctx = lockstep_llvm::context();
//! let program = Program::build(&ctx, "
//!     kernel void saxpy(float a, global const float *x, global float *y) {
//!         size_t i = get_global_id(0);
//!         y[i] = a * x[i] + y[i];
//!     }", "").expect("builds");
//! let x = Buffer::from_slice(&[1.0f32, 2.0, 3.0, 4.0]);
//! let y = Buffer::from_slice(&[10.0f32; 4]);
//! let mut kernel = program.kernel("saxpy").unwrap();
//! kernel.set_arg(0, 2.0f32).unwrap();
//! kernel.set_arg(1, &x).unwrap();
//! kernel.set_arg(2, &y).unwrap();
//! ctx.launch(&kernel, &NDRange::new_1d(4).local([2, 1, 1])).unwrap();
//! assert_eq!(y.read(), vec![12.0, 14.0, 16.0, 18.0]);
//! ```
//!
//! Built programs' IR is cached on disk ([`build_cache`]), as codegen caches
//! compiled kernels, so a second run of the same program skips clang.

mod build_cache;

use std::sync::Arc;

use lockstep_frontend::{BuildOptions, CompileError};
use lockstep_ir::abi::RuntimeFunctions;
use lockstep_ir::{FuncId, Module};
use lockstep_runtime::{
    BuildError, BuildFlags, Built, CompiledKernel, Context, SimdFeatures, Source, Spec, Target,
    Tier, Toolchain,
};

/// The LLVM toolchain (it keeps no state: clang runs per build, and the
/// JIT and caches are the process's).
#[derive(Copy, Clone, Debug, Default)]
pub struct LlvmToolchain;

/// The LLVM toolchain, to hand to [`Context::new`].
pub fn toolchain() -> Arc<dyn Toolchain> {
    Arc::new(LlvmToolchain)
}

/// A context whose programs the LLVM toolchain builds.
pub fn context() -> Context {
    Context::new(toolchain())
}

impl Toolchain for LlvmToolchain {
    fn build_flags(&self, options: &str) -> Result<BuildFlags, BuildError> {
        let opts = BuildOptions::parse(options).map_err(build_error)?;
        Ok(BuildFlags {
            uniform_work_groups: opts
                .clang_args
                .iter()
                .any(|a| a.starts_with("-cl-std=CL1") || a == "-cl-uniform-work-group-size"),
        })
    }

    fn build(&self, source: &Source, options: &str) -> Result<Built, BuildError> {
        let opts = BuildOptions::parse(options).map_err(build_error)?;
        let source = lockstep_frontend::Source {
            name: source.name.clone(),
            text: source.text.clone(),
            include_dir: source.include_dir.clone(),
        };
        let key = build_cache::key(&source, options);
        if let Some(built) = build_cache::get(key.clone()) {
            return Ok(built);
        }
        let compiled = lockstep_frontend::compile(&source, &opts).map_err(build_error)?;
        let built = Built {
            module: compiled.module,
            log: compiled.log,
        };
        build_cache::put(key, &built);
        Ok(built)
    }

    fn build_spirv(
        &self,
        spirv: &[u8],
        spec_constants: &[(u32, Vec<u8>)],
        options: &str,
    ) -> Result<Built, BuildError> {
        let opts = BuildOptions::parse(options).map_err(build_error)?;
        let module =
            lockstep_frontend::spirv::Module::parse(spirv).map_err(BuildError::InvalidSpirv)?;
        for (id, value) in spec_constants {
            if let Err(wrong_size) = module.check_spec_value(*id, value.len()) {
                return Err(BuildError::InvalidSpirv(if wrong_size {
                    format!(
                        "specialization constant {id} is given {} bytes, not its size",
                        value.len()
                    )
                } else {
                    format!("the module has no specialization constant {id}")
                }));
            }
        }
        let key = build_cache::spirv_key(&module.specialized_bytes(spec_constants), options);
        if let Some(built) = build_cache::get(key.clone()) {
            return Ok(built);
        }
        let compiled =
            lockstep_frontend::compile_spirv(&module, spec_constants, &opts, "program.spv")
                .map_err(build_error)?;
        let built = Built {
            module: compiled.module,
            log: compiled.log,
        };
        build_cache::put(key, &built);
        Ok(built)
    }

    fn link(&self, objects: &[&str], options: &str) -> Result<Built, BuildError> {
        let opts = BuildOptions::parse(options).map_err(build_error)?;
        let compiled =
            lockstep_frontend::link(objects, &opts, "program.cl").map_err(build_error)?;
        Ok(Built {
            module: compiled.module,
            log: compiled.log,
        })
    }

    fn compile_kernel(
        &self,
        module: &Module,
        kernel: FuncId,
        spec: &Spec,
        program_key: &str,
        runtime: RuntimeFunctions,
    ) -> Result<CompiledKernel, String> {
        self.compile_kernel_at(module, kernel, spec, program_key, runtime, Tier::Full)
    }

    fn compile_kernel_at(
        &self,
        module: &Module,
        kernel: FuncId,
        spec: &Spec,
        program_key: &str,
        runtime: RuntimeFunctions,
        tier: Tier,
    ) -> Result<CompiledKernel, String> {
        use lockstep_codegen::Tier as CodegenTier;
        let tier = match tier {
            Tier::Quick => CodegenTier::Quick,
            Tier::Full => CodegenTier::Full,
        };
        let k = lockstep_codegen::compile_at(module, kernel, spec, program_key, runtime, tier)
            .map_err(|e| e.to_string())?;
        let function = k.function();
        let tier = match k.tier {
            CodegenTier::Quick => Tier::Quick,
            CodegenTier::Full => Tier::Full,
        };
        // SAFETY: codegen's work-group functions follow `lockstep_ir::abi`
        // with the layout it reports, and stay in the process's JIT.
        Ok(unsafe { CompiledKernel::new(function, k.local, Box::new(k.report)) }.with_tier(tier))
    }

    fn cached_kernel(
        &self,
        module: &Module,
        kernel: FuncId,
        spec: &Spec,
        program_key: &str,
        runtime: RuntimeFunctions,
    ) -> Option<CompiledKernel> {
        let k = lockstep_codegen::cached(module, kernel, spec, program_key, runtime).ok()??;
        let function = k.function();
        // SAFETY: as in `compile_kernel_at`.
        Some(unsafe { CompiledKernel::new(function, k.local, Box::new(k.report)) })
    }

    fn recurring_kernel(
        &self,
        module: &Module,
        kernel: FuncId,
        spec: &Spec,
        program_key: &str,
    ) -> bool {
        lockstep_codegen::seen_at_quick_tier(module, kernel, spec, program_key).unwrap_or(false)
    }

    fn target(&self) -> Result<Target, String> {
        let target = lockstep_codegen::target().map_err(|e| e.to_string())?;
        Ok(Target {
            cpu: target.cpu().to_owned(),
            chosen: lockstep_codegen::backend::target::requested_cpu().is_some(),
            features: SimdFeatures::from_llvm(|f| target.has_feature(f)),
        })
    }
}

/// The front end's error as the runtime's: bad options are their own kind
/// (`CL_INVALID_BUILD_OPTIONS`), the rest keep the front end's error.
fn build_error(e: CompileError) -> BuildError {
    match e {
        CompileError::BadOption(message) => BuildError::Options(message),
        e => BuildError::Compile(Box::new(e)),
    }
}
