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
//!   (`__lockstep_spirv__read_pipe_2`, ...; `builtins/pipes.cl`);
//! * an image as a `__global` pointer and a sampler as a `__constant`
//!   pointer (a sampler literal as `__translate_sampler_initializer`'s
//!   pointer), where clang 19 and the library have `target("spirv.Image",
//!   ...)` and `target("spirv.Sampler")`: a kernel's image and sampler
//!   parameters get clang's types (so the runtime binds a sampler as its
//!   32-bit bitfield), and each image function is defined as a wrapper that
//!   hands the library's function its handles ([`adapt_images`]).

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
        adapt_images(raw);
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

/// Makes declaration `f` a definition under its name plus `.spirv`, which
/// calls the library's function of `f`'s old name with parameter types
/// `lib_params` and return type `lib_ret` (declared here), passing what
/// `arg` makes of each parameter (index, value; built at the wrapper's
/// entry), and returns what `result` makes of the call (nothing: `ret
/// void`).
unsafe fn wrap_declaration(
    module: LLVMModuleRef,
    builder: LLVMBuilderRef,
    f: LLVMValueRef,
    lib_params: &[LLVMTypeRef],
    lib_ret: LLVMTypeRef,
    arg: impl Fn(usize, LLVMValueRef) -> LLVMValueRef,
    result: impl Fn(LLVMValueRef) -> Option<LLVMValueRef>,
) {
    let name = name_of(f);
    let wrapper_name = CString::new(format!("{name}.spirv")).expect("no NUL");
    LLVMSetValueName2(f, wrapper_name.as_ptr(), wrapper_name.as_bytes().len());
    let mut lib_params = lib_params.to_vec();
    let n = lib_params.len();
    let lib_ty = LLVMFunctionType(lib_ret, lib_params.as_mut_ptr(), n as u32, 0);
    let lib = declared(module, &name, lib_ty);
    LLVMSetFunctionCallConv(lib, LLVMGetFunctionCallConv(f));
    let ctx = LLVMGetModuleContext(module);
    let entry = LLVMAppendBasicBlockInContext(ctx, f, c"entry".as_ptr());
    LLVMPositionBuilderAtEnd(builder, entry);
    let mut args: Vec<LLVMValueRef> = (0..n).map(|i| arg(i, LLVMGetParam(f, i as u32))).collect();
    let call = LLVMBuildCall2(
        builder,
        lib_ty,
        lib,
        args.as_mut_ptr(),
        n as u32,
        c"".as_ptr(),
    );
    LLVMSetInstructionCallConv(call, LLVMGetFunctionCallConv(f));
    match result(call) {
        Some(v) => LLVMBuildRet(builder, v),
        None => LLVMBuildRetVoid(builder),
    };
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
        let mut lib_params = params.clone();
        lib_params[n - 1] = event;
        wrap_declaration(
            module,
            builder,
            f,
            &lib_params,
            event,
            |i, p| if i == n - 1 { LLVMConstNull(event) } else { p },
            |_| Some(LLVMGetParam(f, n as u32 - 1)),
        );
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

/// What the importer takes as the identity from a `__global` pointer to an
/// image handle: the prefix of one function per image type
/// (`__lockstep_spirv_image.ocl_image2d_ro`), declared here.
pub const IMAGE_FROM_POINTER: &str = "__lockstep_spirv_image.";

/// Clang 19's sampler literal: the bitfield as a `target("spirv.Sampler")`
/// (the importer's identity).
const SAMPLER_INITIALIZER: &str = "__translate_sampler_initializer";

/// The library's view of a sampler handle: its bitfield (`images.cl`).
const SAMPLER_BITS: &str = "_Z18__lockstep_sampler11ocl_sampler";

/// An image type as the mangled names spell it (`ocl_image2d_ro`) as
/// clang 19's `target("spirv.Image", void, dim, depth, arrayed,
/// multisampled, sampled, format, access)` integer parameters.
fn image_type_params(token: &str) -> Option<[u32; 7]> {
    let (shape, access) = token.strip_prefix("ocl_")?.rsplit_once('_')?;
    let access = match access {
        "ro" => 0,
        "wo" => 1,
        "rw" => 2,
        _ => return None,
    };
    let (dim, depth, arrayed) = match shape {
        "image1d" => (0, 0, 0),
        "image1d_array" => (0, 0, 1),
        "image1d_buffer" => (5, 0, 0),
        "image2d" => (1, 0, 0),
        "image2d_array" => (1, 0, 1),
        "image2d_depth" => (1, 1, 0),
        "image2d_array_depth" => (1, 1, 1),
        "image3d" => (2, 0, 0),
        _ => return None,
    };
    Some([dim, depth, arrayed, 0, 0, 0, access])
}

/// The image type of a kernel argument from its `kernel_arg_type` and
/// `kernel_arg_access_qual` (`image2d_t`, `read_only`), as mangled names
/// spell it (`ocl_image2d_ro`).
fn kernel_arg_image_token(type_name: &str, access: &str) -> Option<String> {
    let shape = type_name.strip_suffix("_t")?;
    let access = match access {
        "read_only" | "none" | "" => "ro",
        "write_only" => "wo",
        "read_write" => "rw",
        _ => return None,
    };
    let token = format!("ocl_{shape}_{access}");
    image_type_params(&token).map(|_| token)
}

/// The first image type a mangled name mentions (`_Z11read_imagef14ocl_image2d_ro...`
/// gives `ocl_image2d_ro`): the length-prefixed `ocl_image...` token.
fn mangled_image_token(name: &str) -> Option<&str> {
    let at = name.find("ocl_image")?;
    let digits = name[..at]
        .bytes()
        .rev()
        .take_while(u8::is_ascii_digit)
        .count();
    let len: usize = name[at - digits..at].parse().ok()?;
    let token = name.get(at..at + len)?;
    image_type_params(token).map(|_| token)
}

unsafe fn image_type(ctx: LLVMContextRef, token: &str) -> LLVMTypeRef {
    let mut ints = image_type_params(token).expect("a known image type");
    let mut void = LLVMVoidTypeInContext(ctx);
    LLVMTargetExtTypeInContext(
        ctx,
        c"spirv.Image".as_ptr(),
        &mut void,
        1,
        ints.as_mut_ptr(),
        ints.len() as u32,
    )
}

unsafe fn sampler_type(ctx: LLVMContextRef) -> LLVMTypeRef {
    LLVMTargetExtTypeInContext(
        ctx,
        c"spirv.Sampler".as_ptr(),
        std::ptr::null_mut(),
        0,
        std::ptr::null_mut(),
        0,
    )
}

fn is_pointer_in(ty: LLVMTypeRef, address_space: u32) -> bool {
    // SAFETY: a live type.
    unsafe {
        LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMPointerTypeKind
            && LLVMGetPointerAddressSpace(ty) == address_space
    }
}

/// The function `name` of type `ty` in `module`, declared if missing.
unsafe fn declared(module: LLVMModuleRef, name: &str, ty: LLVMTypeRef) -> LLVMValueRef {
    let c_name = CString::new(name).expect("no NUL");
    let f = LLVMGetNamedFunction(module, c_name.as_ptr());
    if f.is_null() {
        LLVMAddFunction(module, c_name.as_ptr(), ty)
    } else {
        f
    }
}

/// Conversions, at the builder's position, between the translator's
/// values (an image's `__global` pointer, a sampler's `__constant` pointer
/// whose address is its bitfield) and clang 19's handles.
struct Handles {
    module: LLVMModuleRef,
    ctx: LLVMContextRef,
    builder: LLVMBuilderRef,
}

impl Handles {
    unsafe fn call(&self, name: &str, ret: LLVMTypeRef, arg: LLVMValueRef) -> LLVMValueRef {
        let mut params = [LLVMTypeOf(arg)];
        let ty = LLVMFunctionType(ret, params.as_mut_ptr(), 1, 0);
        let f = declared(self.module, name, ty);
        let mut args = [arg];
        LLVMBuildCall2(self.builder, ty, f, args.as_mut_ptr(), 1, c"".as_ptr())
    }

    /// An image handle from its pointer.
    unsafe fn image(&self, token: &str, pointer: LLVMValueRef) -> LLVMValueRef {
        let ty = image_type(self.ctx, token);
        self.call(&format!("{IMAGE_FROM_POINTER}{token}"), ty, pointer)
    }

    /// An image's pointer from its handle: the library's `__lockstep_image`.
    unsafe fn image_pointer(&self, token: &str, handle: LLVMValueRef) -> LLVMValueRef {
        let ptr = LLVMPointerTypeInContext(self.ctx, 1);
        self.call(
            &format!("_Z16__lockstep_image{}{token}", token.len()),
            ptr,
            handle,
        )
    }

    /// A sampler handle from the translator's pointer (whose address is
    /// the bitfield).
    unsafe fn sampler(&self, pointer: LLVMValueRef) -> LLVMValueRef {
        let i32_ty = LLVMInt32TypeInContext(self.ctx);
        let bits = LLVMBuildPtrToInt(self.builder, pointer, i32_ty, c"".as_ptr());
        self.call(SAMPLER_INITIALIZER, sampler_type(self.ctx), bits)
    }

    /// The translator's sampler pointer from a handle.
    unsafe fn sampler_pointer(&self, handle: LLVMValueRef) -> LLVMValueRef {
        let bits = self.call(SAMPLER_BITS, LLVMInt32TypeInContext(self.ctx), handle);
        let ptr = LLVMPointerTypeInContext(self.ctx, 2);
        LLVMBuildIntToPtr(self.builder, bits, ptr, c"".as_ptr())
    }
}

/// Images and samplers as clang 19 passes them (see the module
/// documentation): sampler literals become pointers whose address is the
/// bitfield, image functions wrappers around the library's, and kernels
/// take clang's handles.
unsafe fn adapt_images(module: LLVMModuleRef) {
    let ctx = LLVMGetModuleContext(module);
    let builder = LLVMCreateBuilderInContext(ctx);
    let handles = Handles {
        module,
        ctx,
        builder,
    };
    replace_sampler_initializers(&handles);
    wrap_image_functions(&handles);
    retype_kernel_handles(&handles);
    LLVMDisposeBuilder(builder);
}

/// Each `ptr addrspace(2) __translate_sampler_initializer(i32 bits)` call
/// becomes `inttoptr bits`, and the declaration goes (clang's, returning a
/// `target("spirv.Sampler")`, takes its name).
unsafe fn replace_sampler_initializers(h: &Handles) {
    let name = CString::new(SAMPLER_INITIALIZER).expect("no NUL");
    let f = LLVMGetNamedFunction(h.module, name.as_ptr());
    if f.is_null() || !is_pointer_in(LLVMGetReturnType(LLVMGlobalGetValueType(f)), 2) {
        return;
    }
    let ptr = LLVMPointerTypeInContext(h.ctx, 2);
    loop {
        let used = LLVMGetFirstUse(f);
        if used.is_null() {
            break;
        }
        let call = LLVMGetUser(used);
        if LLVMIsACallInst(call).is_null() || LLVMGetCalledValue(call) != f {
            return; // Not a call (its address taken): left to fail in the importer.
        }
        LLVMPositionBuilderBefore(h.builder, call);
        let bits = LLVMGetOperand(call, 0);
        let pointer = LLVMBuildIntToPtr(h.builder, bits, ptr, c"".as_ptr());
        LLVMReplaceAllUsesWith(call, pointer);
        LLVMInstructionEraseFromParent(call);
    }
    LLVMDeleteFunction(f);
}

/// Each declared image function whose image is a pointer becomes a
/// definition of the same type under another name that calls the
/// library's function with handles (the image first; a sampler is the
/// `__constant` pointer among the parameters).
unsafe fn wrap_image_functions(h: &Handles) {
    for f in functions(h.module) {
        let name = name_of(f);
        if LLVMIsDeclaration(f) == 0 || name.starts_with(IMAGE_FROM_POINTER) {
            continue;
        }
        let Some(token) = mangled_image_token(&name).map(str::to_string) else {
            continue;
        };
        let fn_ty = LLVMGlobalGetValueType(f);
        let n = LLVMCountParamTypes(fn_ty) as usize;
        let mut params = vec![std::ptr::null_mut(); n];
        LLVMGetParamTypes(fn_ty, params.as_mut_ptr());
        if n == 0 || !is_pointer_in(params[0], 1) {
            continue;
        }
        let lib_params: Vec<LLVMTypeRef> = params
            .iter()
            .enumerate()
            .map(|(i, &t)| match i {
                0 => image_type(h.ctx, &token),
                _ if is_pointer_in(t, 2) => sampler_type(h.ctx),
                _ => t,
            })
            .collect();
        let ret = LLVMGetReturnType(fn_ty);
        let returns = LLVMGetTypeKind(ret) != LLVMTypeKind::LLVMVoidTypeKind;
        wrap_declaration(
            h.module,
            h.builder,
            f,
            &lib_params,
            ret,
            |i, p| match i {
                0 => h.image(&token, p),
                _ if is_pointer_in(params[i], 2) => h.sampler(p),
                _ => p,
            },
            |call| returns.then_some(call),
        );
    }
}

/// Each kernel with an image or sampler parameter (by its
/// `kernel_arg_type`) that is a pointer is rebuilt with clang's handle
/// types there: its blocks move to a new function of that type, which
/// turns each handle back into the translator's pointer first.
unsafe fn retype_kernel_handles(h: &Handles) {
    for f in functions(h.module) {
        if LLVMIsDeclaration(f) != 0
            || LLVMGetFunctionCallConv(f) != llvm_sys::LLVMCallConv::LLVMSPIRKERNELCallConv as u32
            || !LLVMGetFirstUse(f).is_null()
        {
            continue;
        }
        let meta = |kind: &str| -> Vec<String> {
            crate::llvm::Val(f)
                .function_metadata(kind)
                .map(|ops| {
                    ops.into_iter()
                        .map(|v| v.md_string().unwrap_or_default())
                        .collect()
                })
                .unwrap_or_default()
        };
        let (types, access) = (meta("kernel_arg_type"), meta("kernel_arg_access_qual"));
        let fn_ty = LLVMGlobalGetValueType(f);
        let n = LLVMCountParamTypes(fn_ty) as usize;
        let mut params = vec![std::ptr::null_mut(); n];
        LLVMGetParamTypes(fn_ty, params.as_mut_ptr());
        // What each parameter becomes: an image of this type, a sampler, or itself.
        enum Handle {
            Image(String),
            Sampler,
        }
        let handles: Vec<Option<Handle>> = (0..n)
            .map(|i| {
                let ty = types.get(i).map_or("", String::as_str);
                if ty == "sampler_t" && is_pointer_in(params[i], 2) {
                    return Some(Handle::Sampler);
                }
                let acc = access.get(i).map_or("", String::as_str);
                kernel_arg_image_token(ty, acc)
                    .filter(|_| is_pointer_in(params[i], 1))
                    .map(Handle::Image)
            })
            .collect();
        if handles.iter().all(Option::is_none) {
            continue;
        }
        let mut new_params: Vec<LLVMTypeRef> = (0..n)
            .map(|i| match &handles[i] {
                Some(Handle::Image(token)) => image_type(h.ctx, token),
                Some(Handle::Sampler) => sampler_type(h.ctx),
                None => params[i],
            })
            .collect();
        let new_ty = LLVMFunctionType(
            LLVMGetReturnType(fn_ty),
            new_params.as_mut_ptr(),
            n as u32,
            0,
        );
        let name = name_of(f);
        let new = LLVMAddFunction(h.module, c"".as_ptr(), new_ty);
        LLVMSetFunctionCallConv(new, LLVMGetFunctionCallConv(f));
        LLVMSetLinkage(new, LLVMGetLinkage(f));
        // Attributes: the function's, and those of the parameters kept.
        let copy_attributes = |index: u32| {
            let count = LLVMGetAttributeCountAtIndex(f, index);
            let mut attrs = vec![std::ptr::null_mut(); count as usize];
            LLVMGetAttributesAtIndex(f, index, attrs.as_mut_ptr());
            for a in attrs {
                LLVMAddAttributeAtIndex(new, index, a);
            }
        };
        copy_attributes(LLVMAttributeFunctionIndex);
        for (i, handle) in handles.iter().enumerate() {
            if handle.is_none() {
                copy_attributes(i as u32 + 1);
            }
        }
        let mut count = 0;
        let entries = LLVMGlobalCopyAllMetadata(f, &mut count);
        for i in 0..count as u32 {
            LLVMGlobalSetMetadata(
                new,
                LLVMValueMetadataEntriesGetKind(entries, i),
                LLVMValueMetadataEntriesGetMetadata(entries, i),
            );
        }
        if !entries.is_null() {
            LLVMDisposeValueMetadataEntries(entries);
        }
        // The blocks move over; the entry block stays first (its allocas
        // stay static), the handles turned into pointers at its top.
        let mut blocks = Vec::new();
        let mut bb = LLVMGetFirstBasicBlock(f);
        while !bb.is_null() {
            blocks.push(bb);
            bb = LLVMGetNextBasicBlock(bb);
        }
        let placeholder = LLVMAppendBasicBlockInContext(h.ctx, new, c"".as_ptr());
        let mut after = placeholder;
        for &bb in &blocks {
            LLVMMoveBasicBlockAfter(bb, after);
            after = bb;
        }
        LLVMDeleteBasicBlock(placeholder);
        LLVMPositionBuilderBefore(h.builder, LLVMGetFirstInstruction(blocks[0]));
        for (i, handle) in handles.iter().enumerate() {
            let (old, param) = (LLVMGetParam(f, i as u32), LLVMGetParam(new, i as u32));
            let mut len = 0;
            let param_name = LLVMGetValueName2(old, &mut len);
            LLVMSetValueName2(param, param_name, len);
            let value = match handle {
                Some(Handle::Image(token)) => h.image_pointer(token, param),
                Some(Handle::Sampler) => h.sampler_pointer(param),
                None => param,
            };
            LLVMReplaceAllUsesWith(old, value);
        }
        LLVMDeleteFunction(f);
        let c_name = CString::new(name).expect("no NUL");
        LLVMSetValueName2(new, c_name.as_ptr(), c_name.as_bytes().len());
    }
}
