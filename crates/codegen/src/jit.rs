//! The JIT: one ORC LLJIT that links compiled kernel objects into this
//! process and hands out their addresses.
//!
//! Objects come from [`crate::backend::target::optimize_and_emit_object`] or
//! from the on-disk cache; the JIT only links them (no LLVM IR goes in here),
//! so a cached kernel costs a link, not a compile. Undefined symbols of an
//! object resolve, in order, against the objects already added, the runtime
//! helpers registered as absolute symbols ([`Jit::new`],
//! [`Jit::define_symbols`]), and the process itself: libc, libm (`sinf`,
//! `expf`, …) and SLEEF (`Sleef_sinf16_u10`, …) when `libsleef.so.3` could be
//! loaded.
//!
//! All objects share one JITDylib, so their global symbol names must be
//! unique across the process (name functions after their cache key). Linked
//! code stays for the life of the [`Jit`]; [`Jit::global`] lives as long as
//! the process.

use std::ffi::{c_char, c_void, CStr, CString};
use std::sync::{Mutex, MutexGuard, OnceLock};

use llvm_sys::error::{LLVMDisposeErrorMessage, LLVMErrorRef, LLVMGetErrorMessage};
use llvm_sys::orc2::lljit::*;
use llvm_sys::orc2::*;

use super::target::{initialize_native, BackendError, BackendResult};

/// The SLEEF shared library as Debian's `libsleef3` installs it.
pub const SLEEF_LIBRARY: &str = "libsleef.so.3";

/// Libraries loaded into the process (globally visible) before the JIT
/// resolves symbols: libm in case the executable was linked without it.
const LIBM_LIBRARY: &str = "libm.so.6";

/// An ORC LLJIT for the host CPU, safe to share between threads.
pub struct Jit {
    inner: Mutex<Inner>,
    has_sleef: bool,
    /// Messages that ORC reported asynchronously (e.g. "Symbols not found")
    /// while linking; drained into the error of the failing call. Boxed so
    /// its address, given to ORC as the reporter's context, never moves.
    reports: Box<Mutex<Vec<String>>>,
}

struct Inner {
    jit: LLVMOrcLLJITRef,
}

// SAFETY: the LLJIT handle is only used while holding the `Mutex` around
// `Inner`, so no two threads call into this LLJIT at once; LLJIT itself has
// no thread affinity (ORC's ExecutionSession is designed for use from
// several threads).
unsafe impl Send for Inner {}

impl Jit {
    /// Creates an LLJIT for the host (`JITTargetMachineBuilder::detectHost`),
    /// defines `runtime_symbols` (name, address) as absolute symbols in its
    /// main JITDylib, adds a generator that resolves everything else against
    /// the symbols of this process, and loads SLEEF if it is installed.
    ///
    /// The addresses are usually `extern "C" fn` items cast to `usize`.
    pub fn new(runtime_symbols: &[(&str, usize)]) -> BackendResult<Jit> {
        initialize_native()?;
        load_library(LIBM_LIBRARY);
        let has_sleef = load_library(SLEEF_LIBRARY);

        let reports: Box<Mutex<Vec<String>>> = Box::default();
        let mut jtmb = std::ptr::null_mut();
        // SAFETY: `jtmb` is a valid out-pointer; on success LLVM writes an
        // owned builder into it.
        let err = unsafe { LLVMOrcJITTargetMachineBuilderDetectHost(&mut jtmb) };
        check(err, "detecting the host for the JIT")?;
        // SAFETY: creating a builder has no preconditions. Setting the target
        // machine builder transfers `jtmb` to the builder, and
        // `LLVMOrcCreateLLJIT` consumes the builder whether it succeeds or
        // not, so neither is disposed here.
        let mut jit = std::ptr::null_mut();
        let err = unsafe {
            let builder = LLVMOrcCreateLLJITBuilder();
            LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(builder, jtmb);
            LLVMOrcCreateLLJIT(&mut jit, builder)
        };
        check(err, "creating the LLJIT")?;

        let this = Jit {
            inner: Mutex::new(Inner { jit }),
            has_sleef,
            reports,
        };
        {
            let inner = this.lock();
            let context: *const Mutex<Vec<String>> = &*this.reports;
            // SAFETY: `jit` is live. The reporter context points into the
            // boxed `reports`, which outlives the LLJIT (`Drop` disposes the
            // LLJIT before the box is freed), and `report_error` only reads it
            // as a `&Mutex<Vec<String>>`.
            unsafe {
                let session = LLVMOrcLLJITGetExecutionSession(inner.jit);
                LLVMOrcExecutionSessionSetErrorReporter(
                    session,
                    report_error,
                    context as *mut c_void,
                );
            }
            let mut generator = std::ptr::null_mut();
            // SAFETY: `jit` is live; `generator` is a valid out-pointer, and
            // on success its ownership passes to the JITDylib. No filter.
            let err = unsafe {
                let prefix = LLVMOrcLLJITGetGlobalPrefix(inner.jit);
                LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
                    &mut generator,
                    prefix,
                    None,
                    std::ptr::null_mut(),
                )
            };
            this.check(err, "creating the process symbol generator")?;
            // SAFETY: `jit` is live and `generator` was just created; the
            // JITDylib takes ownership of it.
            unsafe {
                let dylib = LLVMOrcLLJITGetMainJITDylib(inner.jit);
                LLVMOrcJITDylibAddGenerator(dylib, generator);
            }
            this.define_locked(&inner, runtime_symbols)?;
        }
        Ok(this)
    }

    /// The process-wide JIT, created on first use with no runtime symbols
    /// (add them with [`Jit::define_symbols`]). A creation failure is
    /// remembered and returned by every call.
    pub fn global() -> BackendResult<&'static Jit> {
        static GLOBAL: OnceLock<BackendResult<Jit>> = OnceLock::new();
        GLOBAL
            .get_or_init(|| Jit::new(&[]))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Whether SLEEF (`libsleef.so.3`) was loaded, so that the generated code
    /// may call `Sleef_*` functions.
    pub fn has_sleef(&self) -> bool {
        self.has_sleef
    }

    /// Defines more absolute symbols (name, address) in the main JITDylib.
    /// Defining a name twice is an error.
    pub fn define_symbols(&self, symbols: &[(&str, usize)]) -> BackendResult<()> {
        let inner = self.lock();
        self.define_locked(&inner, symbols)
    }

    /// Adds an object file (a copy of `object`) to the main JITDylib. Its
    /// symbols are linked lazily, at the first [`Jit::lookup`] of any of them;
    /// an object that cannot be parsed or that defines a symbol already
    /// defined is rejected here.
    pub fn add_object(&self, object: &[u8]) -> BackendResult<()> {
        let inner = self.lock();
        let name = c"lockstep-kernel-object";
        // SAFETY: `object` is valid for `object.len()` bytes and is copied
        // into a buffer LLVM owns; `LLVMOrcLLJITAddObjectFile` takes that
        // buffer in all cases. `jit` is live.
        let err = unsafe {
            let buffer = llvm_sys::core::LLVMCreateMemoryBufferWithMemoryRangeCopy(
                object.as_ptr() as *const c_char,
                object.len(),
                name.as_ptr(),
            );
            let dylib = LLVMOrcLLJITGetMainJITDylib(inner.jit);
            LLVMOrcLLJITAddObjectFile(inner.jit, dylib, buffer)
        };
        self.check(err, "adding an object file")
    }

    /// The address of `name` (an unmangled symbol), linking the object that
    /// defines it on first use. Unresolvable references of that object are
    /// reported here, with the names ORC could not find.
    pub fn lookup(&self, name: &str) -> BackendResult<usize> {
        let c_name = CString::new(name)
            .map_err(|_| BackendError::Jit(format!("symbol name {name:?} contains NUL")))?;
        let inner = self.lock();
        let mut address: LLVMOrcExecutorAddress = 0;
        // SAFETY: `jit` is live, `address` is a valid out-pointer, and
        // `c_name` outlives the call (LLVM does not keep it).
        let err = unsafe { LLVMOrcLLJITLookup(inner.jit, &mut address, c_name.as_ptr()) };
        self.check(err, &format!("looking up {name}"))?;
        if address == 0 {
            return Err(BackendError::Jit(format!("{name} resolved to address 0")));
        }
        usize::try_from(address)
            .map_err(|_| BackendError::Jit(format!("{name} is at an address beyond usize")))
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves the LLJIT itself consistent
        // (every call into it completed or never started).
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn define_locked(&self, inner: &Inner, symbols: &[(&str, usize)]) -> BackendResult<()> {
        if symbols.is_empty() {
            return Ok(());
        }
        let names = symbols
            .iter()
            .map(|(name, _)| {
                CString::new(*name)
                    .map_err(|_| BackendError::Jit(format!("runtime symbol {name:?} contains NUL")))
            })
            .collect::<BackendResult<Vec<_>>>()?;
        let generic_flags = LLVMJITSymbolGenericFlags::LLVMJITSymbolGenericFlagsExported as u8
            | LLVMJITSymbolGenericFlags::LLVMJITSymbolGenericFlagsCallable as u8;
        let mut pairs = names
            .iter()
            .zip(symbols)
            .map(|(name, &(_, address))| LLVMOrcCSymbolMapPair {
                // SAFETY: `jit` is live; the returned entry is retained once,
                // and that reference is handed to `LLVMOrcAbsoluteSymbols`.
                Name: unsafe { LLVMOrcLLJITMangleAndIntern(inner.jit, name.as_ptr()) },
                Sym: LLVMJITEvaluatedSymbol {
                    Address: address as LLVMOrcExecutorAddress,
                    Flags: LLVMJITSymbolFlags {
                        GenericFlags: generic_flags,
                        TargetFlags: 0,
                    },
                },
            })
            .collect::<Vec<_>>();
        // SAFETY: `pairs` holds `pairs.len()` initialized elements whose names
        // were retained for this call (which takes them over). The JITDylib
        // takes the materialization unit on success; on failure it stays ours
        // and is disposed.
        let err = unsafe {
            let unit = LLVMOrcAbsoluteSymbols(pairs.as_mut_ptr(), pairs.len());
            let dylib = LLVMOrcLLJITGetMainJITDylib(inner.jit);
            let err = LLVMOrcJITDylibDefine(dylib, unit);
            if !err.is_null() {
                LLVMOrcDisposeMaterializationUnit(unit);
            }
            err
        };
        self.check(err, "defining runtime symbols")
    }

    /// Turns `err` into a `BackendError`, adding whatever ORC reported
    /// through the session's error reporter since the last call.
    fn check(&self, err: LLVMErrorRef, what: &str) -> BackendResult<()> {
        let reports = std::mem::take(&mut *self.reports.lock().unwrap_or_else(|e| e.into_inner()));
        match check(err, what) {
            Ok(()) => Ok(()),
            Err(BackendError::Jit(mut message)) if !reports.is_empty() => {
                for report in reports {
                    message.push_str("; ");
                    message.push_str(&report);
                }
                Err(BackendError::Jit(message))
            }
            Err(e) => Err(e),
        }
    }
}

impl Drop for Jit {
    fn drop(&mut self) {
        let inner = self.inner.get_mut().unwrap_or_else(|e| e.into_inner());
        if inner.jit.is_null() {
            return;
        }
        // SAFETY: `jit` is live and owned by `self`; nobody can use it after
        // this (we have `&mut self`). The error reporter's context (`reports`)
        // is freed only after this, when the fields drop.
        let err = unsafe { LLVMOrcDisposeLLJIT(inner.jit) };
        inner.jit = std::ptr::null_mut();
        // Nothing useful to do with a failure while tearing down.
        let _ = check(err, "disposing the LLJIT");
    }
}

impl std::fmt::Debug for Jit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Jit")
            .field("has_sleef", &self.has_sleef)
            .finish_non_exhaustive()
    }
}

/// Loads a shared library into the process, globally visible, for good.
/// Returns whether it is loaded.
fn load_library(name: &str) -> bool {
    let Ok(c_name) = CString::new(name) else {
        return false;
    };
    // SAFETY: `c_name` is a valid C string that LLVM only reads. Loading runs
    // the library's initializers: we load only libm and SLEEF, whose
    // initializers are trivial.
    let failed = unsafe { llvm_sys::support::LLVMLoadLibraryPermanently(c_name.as_ptr()) };
    failed == 0
}

/// Turns an `LLVMErrorRef` (null: success) into a `BackendError::Jit`,
/// consuming it.
fn check(err: LLVMErrorRef, what: &str) -> BackendResult<()> {
    if err.is_null() {
        return Ok(());
    }
    Err(BackendError::Jit(format!("{what}: {}", consume_error(err))))
}

/// The message of a non-null `LLVMErrorRef`, which is consumed.
fn consume_error(err: LLVMErrorRef) -> String {
    // SAFETY: `err` is a live, non-null error that we own;
    // `LLVMGetErrorMessage` consumes it and returns a message we must free
    // with `LLVMDisposeErrorMessage` after copying it.
    unsafe {
        let message = LLVMGetErrorMessage(err);
        if message.is_null() {
            return "unknown LLVM error".to_string();
        }
        let text = CStr::from_ptr(message).to_string_lossy().into_owned();
        LLVMDisposeErrorMessage(message);
        text
    }
}

/// ORC's session error reporter: keeps the message for the next
/// [`Jit::check`]. Must not unwind into LLVM, and does not.
extern "C" fn report_error(context: *mut c_void, err: LLVMErrorRef) {
    let text = consume_error(err);
    if context.is_null() {
        return;
    }
    // SAFETY: `context` is the address of the `Mutex<Vec<String>>` boxed in
    // the `Jit` that registered this reporter, which outlives its LLJIT.
    let reports = unsafe { &*(context as *const Mutex<Vec<String>>) };
    reports.lock().unwrap_or_else(|e| e.into_inner()).push(text);
}
