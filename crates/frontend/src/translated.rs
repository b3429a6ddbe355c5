//! Makes the LLVM module the SPIR-V translator wrote look like what clang
//! 19 emits for `spir64`, so that it links with the builtin library and
//! imports like clang's (`crate::spirv` runs the translator).
//!
//! The translator is built for LLVM 15 and writes its conventions:
//!
//! * its target triple and data layout (`spir64-unknown-unknown`, no `G1`):
//!   the module gets clang's, so the library links without a mismatch;
//! * `noinline` on every call site (from SPIR-V's `DontInline` function
//!   control, which clang sets at `-O0`): removed, since the front end
//!   inlines every helper into its kernel;
//! * `event_t` as a pointer, where clang 19 and the library have
//!   `target("spirv.Event")`: the async copies' declarations are renamed
//!   and defined as wrappers around the library's (an event is an opaque
//!   token the library hands back; the wrapper hands back the caller's);
//! * a pipe as a `__global` pointer and a `reserve_id_t` as a pointer,
//!   where clang 19 and the library have `target("spirv.Pipe")` and
//!   `target("spirv.ReserveId")`: the pipe functions' declarations are
//!   renamed to the library's versions with those types
//!   (`__lockstep_spirv__read_pipe_2`, ...; `builtins/pipes.cl`).

use std::ffi::CString;

use inkwell::module::Module;
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::{LLVMAttributeFunctionIndex, LLVMTypeKind};

use crate::error::{CompileError, CompileResult};

/// The data layout clang 19 gives `spir64` modules (the builtin library's).
const SPIR64_DATA_LAYOUT: &str =
    "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1";

/// The builtins that take and return an `event_t` by value, by the start
/// of their mangled names (every overload).
const EVENT_FUNCTIONS: &[&str] = &[
    "_Z21async_work_group_copy",
    "_Z29async_work_group_strided_copy",
];

/// The pipe functions clang and the translator call (the pipe, then the
/// builtin's arguments), renamed with [`SPIRV_PIPE_PREFIX`] when their
/// pipe is a pointer.
const PIPE_FUNCTIONS: &[&str] = &[
    "__read_pipe_2",
    "__write_pipe_2",
    "__read_pipe_4",
    "__write_pipe_4",
    "__reserve_read_pipe",
    "__reserve_write_pipe",
    "__commit_read_pipe",
    "__commit_write_pipe",
    "__work_group_reserve_read_pipe",
    "__work_group_reserve_write_pipe",
    "__work_group_commit_read_pipe",
    "__work_group_commit_write_pipe",
    "__sub_group_reserve_read_pipe",
    "__sub_group_reserve_write_pipe",
    "__sub_group_commit_read_pipe",
    "__sub_group_commit_write_pipe",
    "__get_pipe_num_packets_ro",
    "__get_pipe_num_packets_wo",
    "__get_pipe_max_packets_ro",
    "__get_pipe_max_packets_wo",
];

/// What the library's pointer-typed pipe functions are named: the prefix
/// and clang's name.
const SPIRV_PIPE_PREFIX: &str = "__lockstep_spirv";

/// `is_valid_reserve_id`, and the library's version for a pointer id.
const IS_VALID_RESERVE_ID: (&str, &str) = (
    "_Z19is_valid_reserve_id13ocl_reserveid",
    "__lockstep_spirv_is_valid_reserve_id",
);

/// Adapts the translated `module` in place (see the module documentation).
pub fn adapt(module: &Module<'_>) -> CompileResult<()> {
    let triple = module.get_triple();
    let triple = triple.as_str().to_string_lossy();
    if !triple.starts_with("spir64") {
        return Err(CompileError::SpirvTranslation {
            log: format!("the translated module is for '{triple}', not spir64"),
        });
    }
    module.set_triple(&inkwell::targets::TargetTriple::create("spir64"));
    let layout = CString::new(SPIR64_DATA_LAYOUT).expect("no NUL");
    let raw = module.as_mut_ptr();
    // SAFETY: a live module and its functions, instructions and types;
    // LLVM copies the strings it is given.
    unsafe {
        LLVMSetDataLayout(raw, layout.as_ptr());
        remove_call_site_noinline(raw);
        wrap_event_functions(raw);
        rename_pipe_functions(raw);
    }
    Ok(())
}

unsafe fn name_of(v: LLVMValueRef) -> String {
    let mut len = 0;
    let p = LLVMGetValueName2(v, &mut len);
    String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned()
}

unsafe fn functions(module: LLVMModuleRef) -> Vec<LLVMValueRef> {
    let mut out = Vec::new();
    let mut f = LLVMGetFirstFunction(module);
    while !f.is_null() {
        out.push(f);
        f = LLVMGetNextFunction(f);
    }
    out
}

unsafe fn remove_call_site_noinline(module: LLVMModuleRef) {
    let kind = LLVMGetEnumAttributeKindForName(c"noinline".as_ptr(), "noinline".len());
    for f in functions(module) {
        let mut block = LLVMGetFirstBasicBlock(f);
        while !block.is_null() {
            let mut inst = LLVMGetFirstInstruction(block);
            while !inst.is_null() {
                if !LLVMIsACallInst(inst).is_null() {
                    LLVMRemoveCallSiteEnumAttribute(inst, LLVMAttributeFunctionIndex, kind);
                }
                inst = LLVMGetNextInstruction(inst);
            }
            block = LLVMGetNextBasicBlock(block);
        }
    }
}

/// Each declared async copy with pointer events, `T @name(..., ptr %event)`
/// returning `ptr`, becomes a definition of the same type under another
/// name that calls the library's `target("spirv.Event") @name(...,
/// target("spirv.Event") zeroinitializer)` and returns `%event`.
unsafe fn wrap_event_functions(module: LLVMModuleRef) {
    let ctx = LLVMGetModuleContext(module);
    let event = LLVMTargetExtTypeInContext(
        ctx,
        c"spirv.Event".as_ptr(),
        std::ptr::null_mut(),
        0,
        std::ptr::null_mut(),
        0,
    );
    let builder = LLVMCreateBuilderInContext(ctx);
    for f in functions(module) {
        let name = name_of(f);
        if LLVMIsDeclaration(f) == 0 || !EVENT_FUNCTIONS.iter().any(|p| name.starts_with(p)) {
            continue;
        }
        let fn_ty = LLVMGlobalGetValueType(f);
        let n = LLVMCountParamTypes(fn_ty) as usize;
        let mut params = vec![std::ptr::null_mut(); n];
        LLVMGetParamTypes(fn_ty, params.as_mut_ptr());
        let is_ptr = |t: LLVMTypeRef| LLVMGetTypeKind(t) == LLVMTypeKind::LLVMPointerTypeKind;
        let ret = LLVMGetReturnType(fn_ty);
        if n == 0 || !is_ptr(params[n - 1]) || !is_ptr(ret) {
            continue;
        }
        // The wrapper takes the declaration's place and name suffix; the
        // library's function is declared under the original name.
        let wrapper_name = CString::new(format!("{name}.spirv")).expect("no NUL");
        LLVMSetValueName2(f, wrapper_name.as_ptr(), wrapper_name.as_bytes().len());
        let mut lib_params = params.clone();
        lib_params[n - 1] = event;
        let lib_ty = LLVMFunctionType(event, lib_params.as_mut_ptr(), n as u32, 0);
        let lib_name = CString::new(name).expect("no NUL");
        let lib = LLVMAddFunction(module, lib_name.as_ptr(), lib_ty);
        LLVMSetFunctionCallConv(lib, LLVMGetFunctionCallConv(f));
        let entry = LLVMAppendBasicBlockInContext(ctx, f, c"entry".as_ptr());
        LLVMPositionBuilderAtEnd(builder, entry);
        let mut args: Vec<LLVMValueRef> = (0..n as u32).map(|i| LLVMGetParam(f, i)).collect();
        let caller_event = args[n - 1];
        args[n - 1] = LLVMConstNull(event);
        let call = LLVMBuildCall2(
            builder,
            lib_ty,
            lib,
            args.as_mut_ptr(),
            n as u32,
            c"".as_ptr(),
        );
        LLVMSetInstructionCallConv(call, LLVMGetFunctionCallConv(f));
        LLVMBuildRet(builder, caller_event);
    }
    LLVMDisposeBuilder(builder);
}

/// Renames each declared pipe function whose first parameter (the pipe, or
/// `is_valid_reserve_id`'s id) is a pointer to the library's version with
/// pointer types.
unsafe fn rename_pipe_functions(module: LLVMModuleRef) {
    for f in functions(module) {
        let name = name_of(f);
        let new_name = if PIPE_FUNCTIONS.contains(&name.as_str()) {
            format!("{SPIRV_PIPE_PREFIX}{name}")
        } else if name == IS_VALID_RESERVE_ID.0 {
            IS_VALID_RESERVE_ID.1.to_string()
        } else {
            continue;
        };
        let fn_ty = LLVMGlobalGetValueType(f);
        if LLVMIsDeclaration(f) == 0 || LLVMCountParamTypes(fn_ty) == 0 {
            continue;
        }
        let mut params = vec![std::ptr::null_mut(); LLVMCountParamTypes(fn_ty) as usize];
        LLVMGetParamTypes(fn_ty, params.as_mut_ptr());
        if LLVMGetTypeKind(params[0]) != LLVMTypeKind::LLVMPointerTypeKind {
            continue;
        }
        let new_name = CString::new(new_name).expect("no NUL");
        LLVMSetValueName2(f, new_name.as_ptr(), new_name.as_bytes().len());
    }
}
