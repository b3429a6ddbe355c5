//! The OpenCL C builtin library, as LLVM bitcode to link into every kernel
//! module before import.
//!
//! `build.rs` compiles `crates/frontend/builtins/*.cl` with clang 19 for
//! `spir64` (OpenCL C 3.0, with both the generic and the named address
//! space overloads) and links the units into one module. It defines every
//! OpenCL C builtin a kernel can call - math, common, integer, geometric,
//! relational, vector load/store, shuffle, conversions, atomics, async
//! copies - under the mangled names clang gives user calls, for OpenCL C
//! 1.2, 2.0 and 3.0 kernels. `builtins/lockstep_builtins.cl` states the
//! contract in full; in short:
//!
//! * Left as external declarations, for the importer to map to IR
//!   operations ("core"): the work-item functions (`get_global_id`, ...,
//!   `get_local_linear_id`), `barrier`, `work_group_barrier`, `mem_fence`,
//!   `read_mem_fence`, `write_mem_fence`, `atomic_work_item_fence`,
//!   `printf`, and the conversion hooks
//!   `__lockstep_convert_{s,u,f}_{rte,rtz,rtp,rtn}[_sat]` (overloaded on
//!   the source type; the destination type is the *call's* return type - the
//!   same mangled hook is declared with several return types, and
//!   llvm-link keeps only one declaration).
//! * Also left external: LLVM intrinsics (`llvm.sin.*`, `llvm.fma.*`,
//!   `llvm.fmuladd.*`, `llvm.ctlz.*`, `llvm.is.fpclass.*`, half variants,
//!   ...) and C libm functions without an intrinsic (`erff`, `lgamma`,
//!   `hypotf`, ...). `builtins/check_coverage.py --externals` prints the
//!   exact list.
//! * Atomics are LLVM `atomicrmw` / `cmpxchg` / atomic `load` / `store`
//!   instructions; async copies are plain loops over the work-group plus a
//!   barrier in `wait_group_events`.
//!
//! How to link: [`Library::load`] reads the bitcode lazily and
//! [`Library::link_into`] links with LLVM's `LinkOnlyNeeded`, so only the
//! functions a program calls (and what they call) are read and linked (the
//! module defines about 12 750 functions, 3.6 MB; reading and linking all
//! of them took most of a second, and the optimizer then had thousands of
//! functions to look at); then `optimize` internalizes everything but the
//! kernels. All library functions carry clang's OpenCL `convergent`
//! attribute; only the ones that reach a barrier need it, so stripping it
//! from the rest before optimizing is safe and gives LLVM more freedom.
//!
//! Both steps are LLVM C++ (`src/link_builtins.cpp`, compiled by
//! `build.rs`): the C API reads metadata eagerly and links everything.
//! Each build has its own LLVM context and lazy module; the bitcode bytes
//! are shared read-only, so builds on several threads need no lock.

use std::ffi::{c_char, c_int, CStr};
use std::marker::PhantomData;

use inkwell::context::Context;
use inkwell::module::Module;
use llvm_sys::prelude::{LLVMContextRef, LLVMModuleRef};

use crate::error::{CompileError, CompileResult};

/// The library's bitcode.
pub const BUILTINS_BC: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/lockstep_builtins.bc"));

extern "C" {
    fn lockstep_lazy_bitcode_module(
        ctx: LLVMContextRef,
        data: *const c_char,
        len: usize,
        name: *const c_char,
        out: *mut LLVMModuleRef,
        error: *mut *mut c_char,
    ) -> c_int;
    fn lockstep_link_only_needed(
        dst: LLVMModuleRef,
        src: LLVMModuleRef,
        error: *mut *mut c_char,
    ) -> c_int;
    fn lockstep_link_free(s: *mut c_char);
}

/// The builtin library read lazily into a context: its globals and
/// function prototypes, no function body yet.
pub struct Library<'c> {
    module: LLVMModuleRef,
    _context: PhantomData<&'c Context>,
}

impl<'c> Library<'c> {
    /// Reads the library's module table into `context`.
    pub fn load(context: &'c Context) -> CompileResult<Library<'c>> {
        let mut module = std::ptr::null_mut();
        let mut error = std::ptr::null_mut();
        // SAFETY: `BUILTINS_BC` is static, so it outlives the module that
        // keeps pointing into it; the name is NUL-terminated; `module` and
        // `error` are valid places for the results.
        let failed = unsafe {
            lockstep_lazy_bitcode_module(
                context.raw(),
                BUILTINS_BC.as_ptr().cast(),
                BUILTINS_BC.len(),
                c"lockstep_builtins".as_ptr(),
                &mut module,
                &mut error,
            )
        };
        if failed != 0 {
            return Err(CompileError::Internal(format!(
                "reading the builtin library: {}",
                take_message(error)
            )));
        }
        Ok(Library {
            module,
            _context: PhantomData,
        })
    }

    /// Links into `module` the library functions and variables it refers
    /// to, and what those refer to, reading their bodies from the bitcode
    /// now; the rest of the library is never read.
    pub fn link_into(self, module: &Module<'c>) -> CompileResult<()> {
        let dst = module.as_mut_ptr();
        let src = self.module;
        std::mem::forget(self);
        // SAFETY: both modules are live and of the same context; the
        // library's data layout may differ trivially, so it takes the
        // program's (strings LLVM copies).
        unsafe {
            use llvm_sys::core::*;
            LLVMSetTarget(src, LLVMGetTarget(dst));
            LLVMSetDataLayout(src, LLVMGetDataLayoutStr(dst));
        }
        let mut error = std::ptr::null_mut();
        // SAFETY: the linker consumes `src`, which nothing else owns any
        // more (`self` was forgotten), on success and on error.
        if unsafe { lockstep_link_only_needed(dst, src, &mut error) } != 0 {
            return Err(CompileError::Internal(format!(
                "linking the builtin library: {}",
                take_message(error)
            )));
        }
        Ok(())
    }
}

impl Drop for Library<'_> {
    fn drop(&mut self) {
        // SAFETY: the module is ours (not linked into anything).
        unsafe { llvm_sys::core::LLVMDisposeModule(self.module) }
    }
}

/// The text of a message from the C++ side, which it allocated.
fn take_message(message: *mut c_char) -> String {
    if message.is_null() {
        return "no message".to_string();
    }
    // SAFETY: a NUL-terminated string from `copy_out`, freed once here.
    unsafe {
        let text = CStr::from_ptr(message).to_string_lossy().into_owned();
        lockstep_link_free(message);
        text
    }
}
