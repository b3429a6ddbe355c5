//! The OpenCL C builtin library, as LLVM bitcode to link into every kernel
//! module before import.
//!
//! `build.rs` compiles `crates/frontend/builtins/*.cl` with clang 19 for
//! `spir64` (OpenCL C 3.0, with both the generic and the named address
//! space overloads), one module per unit. Together they define every
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
//! How to link: [`link_into`] links into a program what it uses of the
//! library, and nothing else. The library is kept as the units `build.rs`
//! compiled (`math`, `integer`, `convert_float`, ...; 12 750 functions and
//! 3.6 MB in all) with an index of the symbols each defines: a build reads
//! only the units that define a function the program calls, lazily (a
//! function's body is read only when it is linked), and links them with
//! LLVM's `LinkOnlyNeeded`, so only the functions it calls (and what they
//! call) are linked. Reading and linking the whole library took most of a
//! second, and the optimizer then had thousands of functions to look at;
//! an `a + b` kernel now reads no unit at all. Then `optimize`
//! internalizes everything but the kernels. All library functions carry
//! clang's OpenCL `convergent` attribute; only the ones that reach a
//! barrier need it, so stripping it from the rest before optimizing is
//! safe and gives LLVM more freedom.
//!
//! Reading lazily and linking only what is needed are LLVM C++
//! (`src/link_builtins.cpp`, compiled by `build.rs`): the C API reads
//! metadata eagerly and links everything. Each build has its own LLVM
//! context and lazy modules; the bitcode and the index are static and
//! read-only, so builds on several threads need no lock.

use std::collections::HashSet;
use std::ffi::{c_char, c_int, CStr, CString};
use std::marker::PhantomData;

use inkwell::context::Context;
use inkwell::module::Module;
use llvm_sys::core::*;
use llvm_sys::prelude::{LLVMContextRef, LLVMModuleRef, LLVMValueRef};

use crate::error::{CompileError, CompileResult};
use crate::timing;

/// One unit of the library: a module compiled from one source file.
pub struct Unit {
    pub name: &'static str,
    pub bitcode: &'static [u8],
}

// `UNITS` and `SYMBOLS`.
include!(concat!(env!("OUT_DIR"), "/builtin_units.rs"));

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

/// Links into `module` the library functions (and variables) it refers
/// to, and what those refer to; `name` names the program in the build
/// times ([`timing`]), where this is the stages "library load" and "link".
pub fn link_into<'c>(context: &'c Context, module: &Module<'c>, name: &str) -> CompileResult<()> {
    let mut load = timing::Total::default();
    let mut link = timing::Total::default();
    // Each symbol is looked for once: a unit that does not define what its
    // index says would otherwise be read again and again.
    let mut asked = HashSet::new();
    loop {
        let mut units = Vec::new();
        for symbol in declarations(module) {
            let Some(unit) = unit_defining(&symbol) else {
                continue;
            };
            if !asked.insert(symbol.clone()) {
                return Err(CompileError::Internal(format!(
                    "the builtin library's unit {} does not define {symbol}",
                    UNITS[unit].name
                )));
            }
            units.push(unit);
        }
        if units.is_empty() {
            break;
        }
        units.sort_unstable();
        units.dedup();
        // A unit may refer to another's functions: linking it can declare
        // more, which the next round links.
        for unit in units {
            let lazy = load.time(|| LazyUnit::load(context, &UNITS[unit]))?;
            link.time(|| lazy.link_into(module))?;
        }
    }
    load.report(name, "library load");
    link.report(name, "link");
    Ok(())
}

/// The index of the unit that defines `symbol`.
fn unit_defining(symbol: &str) -> Option<usize> {
    SYMBOLS
        .binary_search_by(|(name, _)| (*name).cmp(symbol))
        .ok()
        .map(|i| usize::from(SYMBOLS[i].1))
}

/// The names of the functions and variables `module` declares without
/// defining.
fn declarations(module: &Module<'_>) -> Vec<String> {
    let raw = module.as_mut_ptr();
    let mut out = Vec::new();
    // SAFETY: walking a live module's function and global lists.
    unsafe {
        let mut push = |v: LLVMValueRef| {
            if LLVMIsDeclaration(v) != 0 {
                let mut len = 0;
                let p = LLVMGetValueName2(v, &mut len);
                if !p.is_null() && len > 0 {
                    let bytes = std::slice::from_raw_parts(p.cast::<u8>(), len);
                    out.push(String::from_utf8_lossy(bytes).into_owned());
                }
            }
        };
        let mut f = LLVMGetFirstFunction(raw);
        while !f.is_null() {
            push(f);
            f = LLVMGetNextFunction(f);
        }
        let mut g = LLVMGetFirstGlobal(raw);
        while !g.is_null() {
            push(g);
            g = LLVMGetNextGlobal(g);
        }
    }
    out
}

/// A unit read lazily into a context: its globals and function
/// prototypes, no function body yet.
struct LazyUnit<'c> {
    module: LLVMModuleRef,
    _context: PhantomData<&'c Context>,
}

impl<'c> LazyUnit<'c> {
    /// Reads `unit`'s module table into `context`.
    fn load(context: &'c Context, unit: &'static Unit) -> CompileResult<LazyUnit<'c>> {
        let name = CString::new(format!("lockstep_builtins_{}", unit.name))
            .expect("unit names have no NUL");
        let mut module = std::ptr::null_mut();
        let mut error = std::ptr::null_mut();
        // SAFETY: the bitcode is static, so it outlives the module that
        // keeps pointing into it; the name is NUL-terminated (LLVM copies
        // it); `module` and `error` are valid places for the results.
        let failed = unsafe {
            lockstep_lazy_bitcode_module(
                context.raw(),
                unit.bitcode.as_ptr().cast(),
                unit.bitcode.len(),
                name.as_ptr(),
                &mut module,
                &mut error,
            )
        };
        if failed != 0 {
            return Err(CompileError::Internal(format!(
                "reading the builtin library's unit {}: {}",
                unit.name,
                take_message(error)
            )));
        }
        Ok(LazyUnit {
            module,
            _context: PhantomData,
        })
    }

    /// Links into `module` what it needs of the unit, reading those
    /// function bodies now; the rest of the unit is never read.
    fn link_into(self, module: &Module<'c>) -> CompileResult<()> {
        let dst = module.as_mut_ptr();
        let src = self.module;
        std::mem::forget(self);
        // SAFETY: both modules are live and of the same context; the
        // library's data layout may differ trivially, so it takes the
        // program's (strings LLVM copies).
        unsafe {
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

impl Drop for LazyUnit<'_> {
    fn drop(&mut self) {
        // SAFETY: the module is ours (not linked into anything).
        unsafe { LLVMDisposeModule(self.module) }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_is_sorted_and_names_existing_units() {
        assert!(SYMBOLS.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(SYMBOLS.iter().all(|&(_, u)| usize::from(u) < UNITS.len()));
        assert_eq!(
            unit_defining("_Z4sqrtf").map(|u| UNITS[u].name),
            Some("math")
        );
        assert_eq!(unit_defining("_Z13get_global_idj"), None);
    }

    /// Every unit reads, and every function the index names links from it:
    /// what each build did when it linked the whole library.
    #[test]
    fn a_module_declaring_every_library_symbol_gets_every_definition() {
        let context = Context::create();
        let module = context.create_module("everything");
        let ty = context.void_type().fn_type(&[], false);
        for (name, _) in SYMBOLS {
            module.add_function(name, ty, None);
        }
        link_into(&context, &module, "everything").unwrap();
        let left: Vec<String> = declarations(&module)
            .into_iter()
            .filter(|d| unit_defining(d).is_some())
            .collect();
        assert!(left.is_empty(), "still declared: {left:?}");
        let defined = module
            .get_functions()
            .filter(|f| f.count_basic_blocks() > 0)
            .count();
        assert!(defined >= SYMBOLS.len(), "{defined} definitions");
    }

    #[test]
    fn a_module_calling_no_builtin_reads_no_unit() {
        let context = Context::create();
        let module = context.create_module("plain");
        let ty = context.void_type().fn_type(&[], false);
        module.add_function("helper_defined_nowhere", ty, None);
        link_into(&context, &module, "plain").unwrap();
        assert_eq!(module.get_functions().count(), 1);
    }
}
