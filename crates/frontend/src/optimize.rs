//! Prepares clang's module for import: links the builtin library, makes
//! every non-kernel function internal and always-inlined (so kernels arrive
//! as single functions, barriers in helpers included), and runs LLVM's
//! optimization pipeline without its vectorizers (Lockstep vectorizes across
//! work-items itself; LLVM's vectors would only be scalarized again).

use std::ffi::CString;

use inkwell::attributes::AttributeLoc;
use inkwell::basic_block::BasicBlock;
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::{Linkage, Module};
use inkwell::values::{AsValueRef, InstructionOpcode};

use crate::error::{CompileError, CompileResult};

/// LLVM's calling convention number for `spir_kernel`.
pub const SPIR_KERNEL_CC: u32 = 76;

/// Parses bitcode into a module of `context`.
pub fn parse_bitcode<'c>(
    context: &'c Context,
    bitcode: &[u8],
    name: &str,
) -> CompileResult<Module<'c>> {
    let buffer = MemoryBuffer::create_from_memory_range_copy(bitcode, name);
    Module::parse_bitcode_from_buffer(&buffer, context)
        .map_err(|e| CompileError::Internal(format!("reading {name} bitcode: {e}")))
}

/// A program whose functions have more basic blocks than this in all (as
/// clang emits them, before the builtin library) is optimized by
/// [`LARGE_PROGRAM_PIPELINE`] rather than LLVM's `-O<opt_level>`, whose
/// passes grow faster than the code on such functions: GVN, DSE and
/// InstCombine on a 10,000-case `switch` (6.5 s at `-O3`, 0.6 s at `-O1`,
/// 0.4 s for the large pipeline); InstCombine's dominating-condition
/// queries and SimplifyCFG's switch formation on 25,000 `if (x == k)`
/// statements in a row (40 s at `-O1`, turning them into 25,000 switches of
/// 690,000 cases). No kernel of the corpus or the benchmarks comes near
/// (41 blocks at most).
pub const LARGE_PROGRAM_BLOCKS: u32 = 4096;

/// A program with a `switch` of more than this many cases is optimized like
/// one past [`LARGE_PROGRAM_BLOCKS`]: the `-O3` passes grow faster than the
/// cases there too (4,000 cases, 4,000 blocks: 1.6 s; 1,000: 0.1 s).
pub const LARGE_SWITCH_CASES: u32 = 1024;

/// What [`optimize`] runs on a program past [`LARGE_PROGRAM_BLOCKS`]:
/// inlining, SSA construction and the clean-ups that are linear in the code.
pub const LARGE_PROGRAM_PIPELINE: &str =
    "always-inline,function(sroa,early-cse<memssa>,adce),globaldce";

/// True if clang's `module` (before the builtin library) is past
/// [`LARGE_PROGRAM_BLOCKS`] or has a switch past [`LARGE_SWITCH_CASES`].
pub fn is_large(module: &Module<'_>) -> bool {
    let blocks: u32 = module.get_functions().map(|f| f.count_basic_blocks()).sum();
    let large_switch = |block: BasicBlock<'_>| {
        block.get_terminator().is_some_and(|t| {
            // A switch's operands: the selector, the default, then a value
            // and a destination per case.
            t.get_opcode() == InstructionOpcode::Switch
                && t.get_num_operands() / 2 - 1 > LARGE_SWITCH_CASES
        })
    };
    blocks > LARGE_PROGRAM_BLOCKS
        || module
            .get_functions()
            .any(|f| f.get_basic_block_iter().any(large_switch))
}

/// Internalizes and inlines every function but the kernels, then optimizes
/// (LLVM's `-O<opt_level>` pipeline, [`LARGE_PROGRAM_PIPELINE`] for a
/// `large` program, see [`is_large`]; at 0 only inlining).
pub fn optimize(module: &Module<'_>, opt_level: u8, large: bool) -> CompileResult<()> {
    let context = module.get_context();
    let always_inline = context.create_enum_attribute(
        inkwell::attributes::Attribute::get_named_enum_kind_id("alwaysinline"),
        0,
    );
    let kinds_to_remove = ["noinline", "optnone"];
    for f in module.get_functions() {
        if f.count_basic_blocks() == 0 {
            continue;
        }
        if f.get_call_conventions() != SPIR_KERNEL_CC {
            f.set_linkage(Linkage::Internal);
            for kind in kinds_to_remove {
                f.remove_enum_attribute(
                    AttributeLoc::Function,
                    inkwell::attributes::Attribute::get_named_enum_kind_id(kind),
                );
            }
            f.add_attribute(AttributeLoc::Function, always_inline);
        } else {
            f.remove_enum_attribute(
                AttributeLoc::Function,
                inkwell::attributes::Attribute::get_named_enum_kind_id("optnone"),
            );
            f.remove_enum_attribute(
                AttributeLoc::Function,
                inkwell::attributes::Attribute::get_named_enum_kind_id("noinline"),
            );
        }
    }
    for g in module.get_globals() {
        // Through the C API: inkwell's `get_initializer` panics on a
        // variable of an opaque type (`__local reserve_id_t id;`).
        // SAFETY: `g` is a global variable of `module`.
        let has_initializer =
            unsafe { !llvm_sys::core::LLVMGetInitializer(g.as_value_ref()).is_null() };
        if has_initializer
            && g.get_linkage() != Linkage::Internal
            && g.get_linkage() != Linkage::Private
        {
            // Program-scope variables stay visible; library ones become internal.
            if g.get_name().to_string_lossy().starts_with("__lockstep") {
                g.set_linkage(Linkage::Internal);
            }
        }
    }
    let pipeline = match opt_level {
        0 => "always-inline,globaldce".to_string(),
        _ if large => LARGE_PROGRAM_PIPELINE.to_string(),
        n => format!("always-inline,default<O{}>,globaldce", n.min(3)),
    };
    run_passes(module, &pipeline)
}

/// LLVM options set once per process: no rewriting of loop exit values into
/// closed forms (they need integers wider than 64 bits, like `i65` for the
/// sum of a `long` counter, and the loop computes the same value anyway).
fn set_llvm_options() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let args = [c"lockstep".as_ptr(), c"-replexitval=never".as_ptr()];
        // SAFETY: two NUL-terminated strings that live for the call; LLVM
        // copies what it keeps.
        unsafe {
            llvm_sys::support::LLVMParseCommandLineOptions(2, args.as_ptr(), std::ptr::null())
        };
    });
}

fn run_passes(module: &Module, pipeline: &str) -> CompileResult<()> {
    use llvm_sys::transforms::pass_builder::*;
    set_llvm_options();
    let passes = CString::new(pipeline).expect("pipeline has no NUL");
    // SAFETY: the module is live; a null target machine gives LLVM's generic
    // target information, which is what an abstract spir64 module wants.
    unsafe {
        let options = LLVMCreatePassBuilderOptions();
        LLVMPassBuilderOptionsSetLoopVectorization(options, 0);
        LLVMPassBuilderOptionsSetSLPVectorization(options, 0);
        LLVMPassBuilderOptionsSetLoopUnrolling(options, 1);
        let err = LLVMRunPasses(
            module.as_mut_ptr(),
            passes.as_ptr(),
            std::ptr::null_mut(),
            options,
        );
        LLVMDisposePassBuilderOptions(options);
        if !err.is_null() {
            let msg = llvm_sys::error::LLVMGetErrorMessage(err);
            let text = std::ffi::CStr::from_ptr(msg).to_string_lossy().into_owned();
            llvm_sys::error::LLVMDisposeErrorMessage(msg);
            return Err(CompileError::Internal(format!(
                "LLVM pass pipeline: {text}"
            )));
        }
    }
    Ok(())
}
