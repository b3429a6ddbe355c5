//! The code generator's entry point for running kernels: one kernel
//! specialization of a module in, a callable work-group function out.
//!
//! [`compile`] owns the whole path to code for the kernel ABI ([`crate::abi`]): the
//! pass pipeline and the emitter ([`crate::emit`]), LLVM's `-O3` for the
//! host, the on-disk object cache and the process's ORC JIT. Its caller
//! (`lockstep-llvm`'s toolchain, for the runtime) sees no LLVM type: another
//! back end would offer the same function behind the runtime's `Toolchain`.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use lockstep_ir::{FuncId, Module};

use crate::abi::{RuntimeFunctions, WorkGroupFn};
use crate::backend::{target, Jit, ObjectCache};
use crate::{emit, CodegenError, LocalLayout, Report, Spec};

/// One compiled kernel specialization: its work-group function and what
/// launching it needs to know.
pub struct CompiledKernel {
    function: WorkGroupFn,
    /// Where the kernel's `__local` variables and gang state go.
    pub local: LocalLayout,
    /// What the SIMD code generator did (`--emit report`).
    pub report: Report,
}

impl CompiledKernel {
    /// The work-group function: runs every gang of one work-group given its
    /// [`crate::abi::GroupContext`].
    pub fn function(&self) -> WorkGroupFn {
        self.function
    }
}

/// Compiles kernel `kernel` of `module` for `spec`, or loads it: from this
/// process's JIT when it is there already, else from the object cache on
/// disk. `program_key` identifies what the program's code was built from
/// (its IR and options); `runtime` is registered with the JIT on the first
/// call.
pub fn compile(
    module: &Module,
    kernel: FuncId,
    spec: &Spec,
    program_key: &str,
    runtime: RuntimeFunctions,
) -> Result<CompiledKernel, CodegenError> {
    let name = &module.functions[kernel].name;
    let internal = |e: String| CodegenError::Internal(e);
    let host = crate::target()?;
    let jit = jit(runtime).map_err(internal)?;
    let context = inkwell::context::Context::create();
    let llvm = context.create_module(name);
    let (local, report) =
        emit::emit_kernel(context.raw(), llvm.as_mut_ptr(), module, kernel, spec)?;
    if let Some(dir) = std::env::var_os("LOCKSTEP_DUMP_LLVM") {
        let path = std::path::Path::new(&dir)
            .join(format!("{name}-{:?}-w{}.ll", spec.local_size, spec.width));
        let _ = std::fs::write(path, llvm.print_to_string().to_string());
    }
    let key = ObjectCache::key(&[
        program_key.as_bytes(),
        crate::backend::cache::compiler_version().as_bytes(),
        build_identity().as_bytes(),
        host.fingerprint().as_bytes(),
        name.as_bytes(),
        format!(
            "{:?}/{}/{}",
            spec.local_size,
            spec.width,
            spec.linearization.name()
        )
        .as_bytes(),
    ]);
    let symbol = format!("lockstep_wg_{}", &key[..32]);
    let mut loaded = loaded().lock().unwrap_or_else(|e| e.into_inner());
    let address = match loaded.get(&symbol) {
        Some(&a) => a,
        None => {
            let disk = ObjectCache::open();
            let object = match disk.as_ref().and_then(|c| c.get(&key)) {
                Some(object) => object,
                None => {
                    if let Some(f) = llvm.get_function(emit::WORK_GROUP_FN) {
                        f.as_global_value().set_name(&symbol);
                    }
                    let object = target::optimize_and_emit_object(host, &llvm)
                        .map_err(|e| internal(e.to_string()))?;
                    if let Some(c) = &disk {
                        let _ = c.put(&key, &object);
                    }
                    object
                }
            };
            jit.add_object(&object)
                .map_err(|e| internal(e.to_string()))?;
            let a = jit.lookup(&symbol).map_err(|e| internal(e.to_string()))?;
            loaded.insert(symbol, a);
            a
        }
    };
    // SAFETY: the symbol names a work-group function the emitter wrote with
    // this signature (abi.rs), now linked into the JIT at `address`.
    let function: WorkGroupFn = unsafe { std::mem::transmute::<usize, WorkGroupFn>(address) };
    Ok(CompiledKernel {
        function,
        local,
        report,
    })
}

/// The process's JIT, with the runtime's functions registered (on the first call).
fn jit(runtime: RuntimeFunctions) -> Result<&'static Jit, String> {
    static READY: OnceLock<Result<(), String>> = OnceLock::new();
    let jit = Jit::global().map_err(|e| e.to_string())?;
    READY
        .get_or_init(|| jit.define_symbols(runtime).map_err(|e| e.to_string()))
        .clone()?;
    Ok(jit)
}

/// Compiled objects already loaded into the JIT, by symbol (a program
/// built twice in one process loads its code once).
fn loaded() -> &'static Mutex<HashMap<String, usize>> {
    static LOADED: OnceLock<Mutex<HashMap<String, usize>>> = OnceLock::new();
    LOADED.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Identifies this build of the compiler, so a rebuilt Lockstep never loads
/// code an older build cached: the size and modification time of the file
/// that holds this code — the shared library when Lockstep runs inside a
/// host application (the OpenCL platform), the executable otherwise.
pub fn build_identity() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        let file = containing_file().or_else(|| std::env::current_exe().ok());
        let meta = file.as_ref().and_then(|f| std::fs::metadata(f).ok());
        match (file, meta) {
            (Some(f), Some(m)) => format!("{}:{}:{:?}", f.display(), m.len(), m.modified().ok()),
            // Unknown: a per-process identity, so nothing cached is reused.
            _ => format!(
                "unknown:{}:{:?}",
                std::process::id(),
                std::time::SystemTime::now()
            ),
        }
    })
}

/// The file (executable or shared library) this function was loaded from,
/// by `dladdr`.
fn containing_file() -> Option<std::path::PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    let mut info = std::mem::MaybeUninit::<libc::Dl_info>::zeroed();
    // SAFETY: `dladdr` fills `info` for an address inside a loaded object;
    // a function of ours is one.
    let found = unsafe { libc::dladdr(containing_file as *const libc::c_void, info.as_mut_ptr()) };
    if found == 0 {
        return None;
    }
    // SAFETY: `dladdr` succeeded, so `info` is initialized.
    let info = unsafe { info.assume_init() };
    if info.dli_fname.is_null() {
        return None;
    }
    // SAFETY: a NUL-terminated path owned by the dynamic loader.
    let name = unsafe { std::ffi::CStr::from_ptr(info.dli_fname) };
    let path = std::path::Path::new(std::ffi::OsStr::from_bytes(name.to_bytes()));
    // The main program's entry may be relative (argv[0]) or empty: then the
    // caller falls back to the executable's path.
    (path.is_absolute() && path.is_file()).then(|| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    #[test]
    fn build_identity_names_the_file_holding_the_compiler() {
        // Linked statically into this test executable, dladdr finds it; in
        // liblockstep_icd.so it finds the library, not the host program.
        let file = super::containing_file().expect("dladdr finds our code");
        let exe = std::env::current_exe().unwrap();
        assert_eq!(file.canonicalize().unwrap(), exe.canonicalize().unwrap());
        assert!(super::build_identity().starts_with(&*file.display().to_string()));
    }
}
