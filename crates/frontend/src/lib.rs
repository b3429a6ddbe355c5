//! The front end: runs clang 19 on OpenCL C and imports the LLVM IR it
//! produces into Lockstep IR. The only crate that reads LLVM IR.
//!
//! [`compile`] is the whole job: clang compiles the source for `spir64` at
//! `-O0`; what the program uses of the builtin library (OpenCL C compiled
//! at build time, see `builtins/`) is linked in; every helper function is
//! inlined into its kernels and LLVM's `-O2` pipeline runs without its
//! vectorizers; the importer turns the result into a verified Lockstep IR
//! [`Module`](ir::Module).
//!
//! Separate compilation (OpenCL's `clCompileProgram` and `clLinkProgram`)
//! splits that job: [`compile_object`] stops after clang, keeping its
//! module as LLVM IR text (an [`Object`]); [`link`] links objects with
//! LLVM's linker, which merges what each declared (types of the same name,
//! `extern` program-scope variables and functions defined in another
//! object), then goes on as [`compile`] does.
//!
//! SPIR-V programs ([`compile_spirv`]) start from the Khronos translator
//! instead of clang ([`spirv`]): its LLVM module goes through the same
//! library link, optimization and import.

mod builtins;
mod driver;
mod error;
pub mod features;
mod import;
mod llvm;
mod optimize;
pub mod spirv;
mod spirv14;
pub mod timing;
mod translated;

use inkwell::context::Context;
use lockstep_ir as ir;
use timing::Clock;

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
    timing::stage(&source.name, "front end", Clock::ThreadAndChildren, || {
        let context = Context::create();
        let (clang, module) = run_clang(&context, source, options)?;
        Ok(Compiled {
            module: prepare_and_import(&context, &module, options, &source.name)?,
            log: clang.log,
            warnings: clang.diagnostics,
        })
    })
}

/// What [`compile`] and [`link`] do with clang's (or the linked) module:
/// link the builtin library, optimize, import and verify.
fn prepare_and_import<'c>(
    context: &'c Context,
    module: &inkwell::module::Module<'c>,
    options: &BuildOptions,
    name: &str,
) -> CompileResult<ir::Module> {
    prepare(context, module, options, name)?;
    let ir_module = timing::stage(name, "import", Clock::Thread, || {
        import::import_module(module.as_mut_ptr(), name)
    })?;
    ir::limits::check_module(&ir_module)?;
    timing::stage(name, "verify", Clock::Thread, || {
        ir::verify_module(&ir_module)
    })
    .map_err(|errors| {
        CompileError::Internal(format!("the imported IR does not verify:\n{errors}"))
    })?;
    Ok(ir_module)
}

/// Links the builtin library into `module` and optimizes it for import.
fn prepare<'c>(
    context: &'c Context,
    module: &inkwell::module::Module<'c>,
    options: &BuildOptions,
    name: &str,
) -> CompileResult<()> {
    let large = optimize::is_large(module);
    builtins::link_into(context, module, name)?;
    timing::stage(name, "optimize", Clock::Thread, || {
        optimize::optimize(module, options.opt_level, large)
    })
}

/// Runs clang on `source` and parses the bitcode it made into `context`.
fn run_clang<'c>(
    context: &'c Context,
    source: &Source,
    options: &BuildOptions,
) -> CompileResult<(driver::ClangOutput, inkwell::module::Module<'c>)> {
    let clang = timing::stage(&source.name, "clang", Clock::Children, || {
        driver::run_clang(source, options)
    })?;
    let module = timing::stage(&source.name, "parse", Clock::Thread, || {
        optimize::parse_bitcode(context, &clang.bitcode, &source.name)
    })?;
    Ok((clang, module))
}

/// Translates a SPIR-V module (its specialization constants set to `spec`)
/// and parses the LLVM module into `context`, as `spir64` code like clang's.
fn translate_spirv<'c>(
    context: &'c Context,
    module: &spirv::Module,
    spec: &[spirv::SpecValue],
    name: &str,
) -> CompileResult<inkwell::module::Module<'c>> {
    let bitcode = timing::stage(name, "translate", Clock::Children, || {
        spirv::translate(module, spec)
    })?;
    let llvm = timing::stage(name, "parse", Clock::Thread, || {
        optimize::parse_bitcode(context, &bitcode, name)
    })
    .map_err(|e| CompileError::SpirvTranslation {
        // A translator for an LLVM newer than 19, say.
        log: format!(
            "LLVM 19 cannot read the SPIR-V translator's output: {}",
            match e {
                CompileError::Internal(message) => message,
                e => e.to_string(),
            }
        ),
    })?;
    // The translator does not verify what it writes, and LLVM's passes
    // assume valid IR: a module it made of a corrupt one stops here.
    llvm.verify().map_err(|e| CompileError::SpirvTranslation {
        log: format!(
            "the SPIR-V translator made invalid LLVM IR of the module:\n{}",
            e.to_string().trim_end()
        ),
    })?;
    translated::adapt(&llvm)?;
    Ok(llvm)
}

/// Builds a SPIR-V module (checked by [`spirv::Module::parse`]), its
/// specialization constants set to `spec`, into a verified Lockstep IR
/// module, as [`compile`] does with clang's output. `name` names the
/// program in messages. Of the build options only the optimization level
/// applies (the rest are OpenCL C's).
pub fn compile_spirv(
    module: &spirv::Module,
    spec: &[spirv::SpecValue],
    options: &BuildOptions,
    name: &str,
) -> CompileResult<Compiled> {
    timing::stage(name, "front end", Clock::ThreadAndChildren, || {
        let context = Context::create();
        let llvm = translate_spirv(&context, module, spec, name)?;
        Ok(Compiled {
            module: prepare_and_import(&context, &llvm, options, name)?,
            log: String::new(),
            warnings: Vec::new(),
        })
    })
}

/// A SPIR-V module as an object for [`link`] (`clCompileProgram` of a
/// program made from IL): the translated LLVM module as text.
pub fn compile_spirv_object(
    module: &spirv::Module,
    spec: &[spirv::SpecValue],
    name: &str,
) -> CompileResult<Object> {
    let context = Context::create();
    let llvm = translate_spirv(&context, module, spec, name)?;
    Ok(Object {
        llvm_ir: llvm.print_to_string().to_string(),
        log: String::new(),
        warnings: Vec::new(),
    })
}

/// The optimized LLVM module a SPIR-V module becomes before import (for
/// `--emit llvm-input`).
pub fn spirv_optimized_llvm_text(
    module: &spirv::Module,
    options: &BuildOptions,
    name: &str,
) -> CompileResult<String> {
    let context = Context::create();
    let llvm = translate_spirv(&context, module, &[], name)?;
    prepare(&context, &llvm, options, name)?;
    Ok(llvm.print_to_string().to_string())
}

/// A separately compiled OpenCL C source: clang's module (before the
/// builtin library and optimization) as LLVM IR text, and clang's log.
#[derive(Clone, Debug)]
pub struct Object {
    pub llvm_ir: String,
    pub log: String,
    pub warnings: Vec<Diagnostic>,
}

/// Compiles OpenCL C source into an object for [`link`].
pub fn compile_object(source: &Source, options: &BuildOptions) -> CompileResult<Object> {
    let context = Context::create();
    let (clang, module) = run_clang(&context, source, options)?;
    Ok(Object {
        llvm_ir: module.print_to_string().to_string(),
        log: clang.log,
        warnings: clang.diagnostics,
    })
}

/// Links objects' LLVM IR (from [`compile_object`], or earlier
/// [`link_objects`]) into one module of `context`.
fn link_modules<'c>(
    context: &'c Context,
    objects: &[&str],
) -> CompileResult<inkwell::module::Module<'c>> {
    let mut linked: Option<inkwell::module::Module<'c>> = None;
    for (i, text) in objects.iter().enumerate() {
        let name = format!("object{i}");
        let buffer = inkwell::memory_buffer::MemoryBuffer::create_from_memory_range_copy(
            text.as_bytes(),
            &name,
        );
        let module = context
            .create_module_from_ir(buffer)
            .map_err(|e| CompileError::Internal(format!("reading {name}'s LLVM IR: {e}")))?;
        match &linked {
            None => linked = Some(module),
            Some(first) => first
                .link_in_module(module)
                .map_err(|e| CompileError::Link(e.to_string()))?,
        }
    }
    linked.ok_or_else(|| CompileError::Link("no objects to link".into()))
}

/// Names the linked objects use but none defines: program-scope
/// variables, and functions that are kernels or are not builtins (the
/// builtins, which the library defines, have mangled names, or are
/// `printf`, clang's device-enqueue built-ins and LLVM intrinsics).
fn undefined_symbols(module: &inkwell::module::Module<'_>) -> Vec<String> {
    use llvm_sys::core::*;
    let mut out = Vec::new();
    let raw = module.as_mut_ptr();
    // SAFETY: walking a valid module's globals and functions.
    unsafe {
        let name = |v| {
            let mut len = 0;
            let p = LLVMGetValueName2(v, &mut len);
            String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned()
        };
        let mut g = LLVMGetFirstGlobal(raw);
        while !g.is_null() {
            if LLVMIsDeclaration(g) != 0 && !LLVMGetFirstUse(g).is_null() {
                out.push(name(g));
            }
            g = LLVMGetNextGlobal(g);
        }
        let mut f = LLVMGetFirstFunction(raw);
        while !f.is_null() {
            let n = name(f);
            // clang's device-enqueue built-ins (`__enqueue_kernel_basic`,
            // `__get_kernel_work_group_size_impl`, ...) are not mangled.
            let builtin = n.starts_with("_Z")
                || n.starts_with("llvm.")
                || n == "printf"
                || n.starts_with("__enqueue_kernel_")
                || (n.starts_with("__get_kernel_") && n.ends_with("_impl"));
            let kernel = LLVMGetFunctionCallConv(f) == optimize::SPIR_KERNEL_CC;
            if LLVMIsDeclaration(f) != 0 && !LLVMGetFirstUse(f).is_null() && (kernel || !builtin) {
                out.push(n);
            }
            f = LLVMGetNextFunction(f);
        }
    }
    out
}

/// Links objects into one (a library, `clLinkProgram -create-library`),
/// still unoptimized and without the builtin library.
pub fn link_objects(objects: &[&str]) -> CompileResult<String> {
    let context = Context::create();
    let module = link_modules(&context, objects)?;
    Ok(module.print_to_string().to_string())
}

/// Links objects and builds the result into a verified Lockstep IR module,
/// as [`compile`] does with one source (`name` names the program in
/// messages).
pub fn link(objects: &[&str], options: &BuildOptions, name: &str) -> CompileResult<Compiled> {
    let context = Context::create();
    let module = link_modules(&context, objects)?;
    let undefined = undefined_symbols(&module);
    if !undefined.is_empty() {
        return Err(CompileError::Link(format!(
            "undefined symbols (declared but defined in no object): {}",
            undefined.join(", ")
        )));
    }
    Ok(Compiled {
        module: prepare_and_import(&context, &module, options, name)?,
        log: String::new(),
        warnings: Vec::new(),
    })
}

/// Parses the LLVM module clang made for `source` and dumps it as text (for
/// `--emit llvm-input` and debugging the importer).
pub fn optimized_llvm_text(source: &Source, options: &BuildOptions) -> CompileResult<String> {
    let context = Context::create();
    let (_, module) = run_clang(&context, source, options)?;
    prepare(&context, &module, options, &source.name)?;
    Ok(module.print_to_string().to_string())
}
