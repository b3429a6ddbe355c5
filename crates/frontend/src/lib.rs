//! The front end: runs clang 19 on OpenCL C and imports the LLVM IR it
//! produces into Lockstep IR. The only crate that reads LLVM IR.
//!
//! [`compile`] is the whole job: clang compiles the source for `spir64` at
//! `-O0`; the builtin library (OpenCL C compiled at build time, see
//! `builtins/`) is linked in; every helper function is inlined into its
//! kernels and LLVM's `-O2` pipeline runs without its vectorizers; the
//! importer turns the result into a verified Lockstep IR [`Module`](ir::Module).

mod builtins;
mod driver;
mod error;
pub mod features;
mod import;
mod llvm;
mod optimize;

use inkwell::context::Context;
use lockstep_ir as ir;

pub use driver::{find_clang, parse_diagnostics, BuildOptions, Source, DEFAULT_CL_STD};
pub use error::{CompileError, CompileResult, Diagnostic, Location, Severity};

/// A compiled program: the IR module and clang's build log (warnings).
pub struct Compiled {
    pub module: ir::Module,
    pub log: String,
    pub warnings: Vec<Diagnostic>,
}

/// Compiles OpenCL C source into a verified Lockstep IR module holding its kernels.
pub fn compile(source: &Source, options: &BuildOptions) -> CompileResult<Compiled> {
    let clang = driver::run_clang(source, options)?;
    let context = Context::create();
    let module = optimize::parse_bitcode(&context, &clang.bitcode, &source.name)?;
    let library = builtin_library(&context)?;
    optimize::prepare(&module, library, options.opt_level)?;
    let ir_module = import::import_module(module.as_mut_ptr(), &source.name)?;
    if let Err(errors) = ir::verify_module(&ir_module) {
        return Err(CompileError::Internal(format!(
            "the imported IR does not verify:\n{errors}"
        )));
    }
    Ok(Compiled {
        module: ir_module,
        log: clang.log,
        warnings: clang.diagnostics,
    })
}

/// Parses the LLVM module clang made for `source` and dumps it as text (for
/// `--emit llvm-input` and debugging the importer).
pub fn optimized_llvm_text(source: &Source, options: &BuildOptions) -> CompileResult<String> {
    let clang = driver::run_clang(source, options)?;
    let context = Context::create();
    let module = optimize::parse_bitcode(&context, &clang.bitcode, &source.name)?;
    optimize::prepare(&module, builtin_library(&context)?, options.opt_level)?;
    Ok(module.print_to_string().to_string())
}

fn builtin_library(context: &Context) -> CompileResult<Option<inkwell::module::Module<'_>>> {
    builtins_bitcode()
        .map(|bc| optimize::parse_bitcode(context, bc, "lockstep_builtins"))
        .transpose()
}

/// The builtin library's bitcode (compiled from `builtins/` at build time).
fn builtins_bitcode() -> Option<&'static [u8]> {
    Some(builtins::BUILTINS_BC)
}
