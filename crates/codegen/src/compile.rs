//! The code generator's entry point for running kernels: one kernel
//! specialization of a module in, a callable work-group function out.
//!
//! [`compile`] owns the whole path to code for the kernel ABI ([`crate::abi`]): the
//! pass pipeline and the emitter ([`crate::emit`]), LLVM's `-O3` for the
//! host, the on-disk object cache and the process's ORC JIT. Its caller
//! (`lockstep-llvm`'s toolchain, for the runtime) sees no LLVM type: another
//! back end would offer the same function behind the runtime's `Toolchain`.
//!
//! A kernel is compiled at most once per key (see [`compile`]): the key is
//! computed before any pass runs, and what launching needs besides the code
//! (the local memory layout and the report) is kept beside it, in memory
//! and in the on-disk entry, so a hit runs neither the passes nor the
//! emitter nor LLVM. [`stats`] counts what was generated and what was found.
//!
//! Tiers ([`Tier`]): [`compile_at`] with [`Tier::Quick`] returns the fully
//! optimized code when it is at hand (in the JIT or on disk), else compiles
//! the same IR with less LLVM optimization, kept in this process only: the
//! disk cache holds only the full tier. The runtime runs a kernel's first
//! launches on the quick tier while the full one compiles in the background.
//!
//! `LOCKSTEP_TIME_BUILD=1` reports each generated specialization's stages on
//! stderr: the passes and the emitter (`emit`), LLVM's optimizer (`llvm
//! opt`), machine code (`llvm codegen`) and loading into the JIT (`jit`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};

use cranelift_entity::EntityRef;
use lockstep_ir::{FuncId, GlobalId, Module};

use crate::abi::{RuntimeFunctions, WorkGroupFn};
use crate::backend::target::{self, Tier};
use crate::backend::{Jit, ObjectCache};
use crate::{emit, CodegenError, LocalLayout, Spec};

/// One compiled kernel specialization: its work-group function and what
/// launching it needs to know.
pub struct CompiledKernel {
    function: WorkGroupFn,
    /// Where the kernel's `__local` variables and gang state go.
    pub local: LocalLayout,
    /// What the SIMD code generator did (`--emit report`), as text: a
    /// kernel loaded from a cache has the report it was compiled with.
    pub report: String,
    /// How optimized the code is (the full tier may come back when the
    /// quick one was asked for, never the other way).
    pub tier: Tier,
}

impl CompiledKernel {
    /// The work-group function: runs every gang of one work-group given its
    /// [`crate::abi::GroupContext`].
    pub fn function(&self) -> WorkGroupFn {
        self.function
    }
}

/// How [`compile`] served its calls in this process.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CompileStats {
    /// Specializations whose code was generated (passes, emitter, LLVM).
    pub generated: u64,
    /// Specializations found loaded in this process's JIT.
    pub memory_hits: u64,
    /// Specializations loaded from the on-disk object cache.
    pub disk_hits: u64,
    /// Of those generated, how many at [`Tier::Quick`].
    pub quick: u64,
}

static GENERATED: AtomicU64 = AtomicU64::new(0);
static QUICK: AtomicU64 = AtomicU64::new(0);
static MEMORY_HITS: AtomicU64 = AtomicU64::new(0);
static DISK_HITS: AtomicU64 = AtomicU64::new(0);

/// What [`compile`] has done so far in this process.
pub fn stats() -> CompileStats {
    CompileStats {
        generated: GENERATED.load(Ordering::Relaxed),
        memory_hits: MEMORY_HITS.load(Ordering::Relaxed),
        disk_hits: DISK_HITS.load(Ordering::Relaxed),
        quick: QUICK.load(Ordering::Relaxed),
    }
}

/// A specialization loaded into the JIT: its address and what launching
/// it needs.
struct Loaded {
    address: usize,
    local: LocalLayout,
    report: String,
    tier: Tier,
}

/// Compiles kernel `kernel` of `module` for `spec`, or loads it: from this
/// process's JIT when it is there already, else from the object cache on
/// disk. `program_key` identifies what the program's code was built from
/// (a hash of its Lockstep IR and options, so a program built from source
/// and the same program loaded from its binary share entries); with the
/// compiler's version and build, the CPU, the kernel's name and the
/// specialization it makes the key, computed before anything is compiled.
/// `runtime` is registered with the JIT on the first call.
///
/// `LOCKSTEP_DUMP_LLVM=DIR` writes the LLVM IR of each specialization whose
/// code is generated (`LOCKSTEP_CACHE=0` to generate all of them).
pub fn compile(
    module: &Module,
    kernel: FuncId,
    spec: &Spec,
    program_key: &str,
    runtime: RuntimeFunctions,
) -> Result<CompiledKernel, CodegenError> {
    compile_at(module, kernel, spec, program_key, runtime, Tier::Full)
}

/// [`compile`] at `tier`: [`Tier::Quick`] code is compiled with less
/// optimization and kept in this process's JIT only (under a key of its
/// own), never on disk; the disk cache gets a marker that it was compiled
/// ([`seen_at_quick_tier`]).
pub fn compile_at(
    module: &Module,
    kernel: FuncId,
    spec: &Spec,
    program_key: &str,
    runtime: RuntimeFunctions,
    tier: Tier,
) -> Result<CompiledKernel, CodegenError> {
    let k = load(module, kernel, spec, program_key, runtime, tier, true)?;
    Ok(k.expect("generated when not found"))
}

/// The fully optimized code of the specialization if this process's JIT
/// or the disk cache has it; `None` (compiling nothing) if not.
pub fn cached(
    module: &Module,
    kernel: FuncId,
    spec: &Spec,
    program_key: &str,
    runtime: RuntimeFunctions,
) -> Result<Option<CompiledKernel>, CodegenError> {
    load(
        module,
        kernel,
        spec,
        program_key,
        runtime,
        Tier::Full,
        false,
    )
}

/// True if a process compiled the specialization at the quick tier before
/// (it left a marker in the disk cache, see [`compile_at`]): the kernel
/// recurs across processes, so its full tier is worth compiling now, for
/// the disk cache. False without a disk cache.
pub fn seen_at_quick_tier(
    module: &Module,
    kernel: FuncId,
    spec: &Spec,
    program_key: &str,
) -> Result<bool, CodegenError> {
    let key = cache_key(module, kernel, spec, program_key)?;
    Ok(ObjectCache::open().is_some_and(|c| c.get(&quick_marker(&key)).is_some()))
}

/// The disk-cache key of the marker a quick-tier compile leaves: not code
/// (the cache holds only the full tier's), only the fact.
fn quick_marker(key: &str) -> String {
    ObjectCache::key(&[b"compiled at the quick tier", key.as_bytes()])
}

/// What identifies a specialization's code: the program, the compiler's
/// version and build, the CPU, the kernel and its specialization.
fn cache_key(
    module: &Module,
    kernel: FuncId,
    spec: &Spec,
    program_key: &str,
) -> Result<String, CodegenError> {
    let host = crate::target()?;
    Ok(ObjectCache::key(&[
        program_key.as_bytes(),
        crate::backend::cache::compiler_version().as_bytes(),
        build_identity().as_bytes(),
        host.fingerprint().as_bytes(),
        module.functions[kernel].name.as_bytes(),
        format!(
            "{:?}/{}/{}/refill-{}/small-buffers-{}{}",
            spec.local_size,
            spec.width,
            spec.linearization.name(),
            spec.refill.name(),
            spec.small_buffers,
            if spec.checked { "/checked" } else { "" }
        )
        .as_bytes(),
    ]))
}

/// The specialization at `tier`: from the JIT, else (the full tier) from
/// disk, else generated if `generate`.
fn load(
    module: &Module,
    kernel: FuncId,
    spec: &Spec,
    program_key: &str,
    runtime: RuntimeFunctions,
    tier: Tier,
    generate: bool,
) -> Result<Option<CompiledKernel>, CodegenError> {
    let name = &module.functions[kernel].name;
    let internal = |e: String| CodegenError::Internal(e);
    let host = crate::target()?;
    let jit = jit(runtime).map_err(internal)?;
    let key = cache_key(module, kernel, spec, program_key)?;
    let found = |l: &Loaded| {
        // SAFETY: the address is of a work-group function the emitter wrote
        // with this signature (abi.rs), linked into the JIT for good.
        let function: WorkGroupFn = unsafe { std::mem::transmute::<usize, WorkGroupFn>(l.address) };
        CompiledKernel {
            function,
            local: l.local.clone(),
            report: l.report.clone(),
            tier: l.tier,
        }
    };
    // Quick code lives under a key (and symbol) of its own.
    let memory_key = match tier {
        Tier::Full => key.clone(),
        Tier::Quick => format!("{key}/quick"),
    };
    if let Some(l) = lock_loaded().get(&memory_key) {
        MEMORY_HITS.fetch_add(1, Ordering::Relaxed);
        return Ok(Some(found(l)));
    }
    // Compiled (or read) without the lock, so kernels compile in parallel.
    let disk = ObjectCache::open();
    let on_disk = match tier {
        Tier::Full => disk.as_ref().and_then(|c| Entry::decode(&c.get(&key)?)),
        Tier::Quick => None,
    };
    let (entry, from_disk) = match on_disk {
        Some(entry) => (entry, true),
        None if !generate => return Ok(None),
        None => {
            GENERATED.fetch_add(1, Ordering::Relaxed);
            if tier == Tier::Quick {
                QUICK.fetch_add(1, Ordering::Relaxed);
            }
            let symbol = symbol_of(&key, tier);
            let context = inkwell::context::Context::create();
            let llvm = context.create_module(name);
            let (local, report) = timed(name, "emit", || {
                emit::emit_kernel(context.raw(), llvm.as_mut_ptr(), module, kernel, spec)
            })?;
            if let Some(dir) = std::env::var_os("LOCKSTEP_DUMP_LLVM") {
                let path = std::path::Path::new(&dir)
                    .join(format!("{name}-{:?}-w{}.ll", spec.local_size, spec.width));
                let _ = std::fs::write(path, llvm.print_to_string().to_string());
            }
            if let Some(f) = llvm.get_function(emit::WORK_GROUP_FN) {
                f.as_global_value().set_name(&symbol);
            }
            let tier_name = match tier {
                Tier::Full => "",
                Tier::Quick => " (quick)",
            };
            timed(name, &format!("llvm opt{tier_name}"), || {
                target::optimize_at(host, &llvm, tier)
            })
            .map_err(|e| internal(e.to_string()))?;
            let object = timed(name, &format!("llvm codegen{tier_name}"), || {
                target::emit_object_at(host, &llvm, tier)
            })
            .map_err(|e| internal(e.to_string()))?;
            let entry = Entry {
                local,
                report: report.to_string(),
                object,
            };
            // Only the full tier goes to disk; a quick one leaves a marker.
            match (&disk, tier) {
                (Some(c), Tier::Full) => {
                    let _ = c.put(&key, &entry.encode());
                }
                (Some(c), Tier::Quick) => {
                    let _ = c.put(&quick_marker(&key), b"quick");
                }
                (None, _) => {}
            }
            (entry, false)
        }
    };
    let mut loaded = lock_loaded();
    // Another thread may have loaded the same key meanwhile: the JIT
    // takes each symbol once.
    if let Some(l) = loaded.get(&memory_key) {
        MEMORY_HITS.fetch_add(1, Ordering::Relaxed);
        return Ok(Some(found(l)));
    }
    let symbol = symbol_of(&key, tier);
    let address = timed(name, "jit", || {
        jit.add_object(&entry.object)?;
        jit.lookup(&symbol)
    })
    .map_err(|e| internal(e.to_string()))?;
    if crate::perf_map::enabled() {
        crate::perf_map::record(&entry.object, &symbol, address, name);
    }
    if from_disk {
        DISK_HITS.fetch_add(1, Ordering::Relaxed);
    }
    let l = Loaded {
        address,
        local: entry.local,
        report: entry.report,
        tier,
    };
    let k = found(&l);
    loaded.insert(memory_key, l);
    Ok(Some(k))
}

/// The work-group function's symbol for a specialization's key at `tier`
/// (both tiers of a kernel may be in the JIT at once).
fn symbol_of(key: &str, tier: Tier) -> String {
    match tier {
        Tier::Full => format!("lockstep_wg_{}", &key[..32]),
        Tier::Quick => format!("lockstep_wg_quick_{}", &key[..32]),
    }
}

/// Runs `f` as stage `stage` of compiling `kernel`, reporting its time on
/// stderr when `LOCKSTEP_TIME_BUILD=1` (as the front end reports its own).
fn timed<T>(kernel: &str, stage: &str, f: impl FnOnce() -> T) -> T {
    static ON: OnceLock<bool> = OnceLock::new();
    if !*ON.get_or_init(|| std::env::var_os("LOCKSTEP_TIME_BUILD").is_some_and(|v| v == "1")) {
        return f();
    }
    let thread_cpu = || {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid timespec to write to.
        unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        std::time::Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
    };
    let (wall, cpu) = (std::time::Instant::now(), thread_cpu());
    let out = f();
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    eprintln!(
        "lockstep: time: {kernel}: {stage:<13} {:8.2} ms cpu {:8.2} ms wall",
        ms(thread_cpu().saturating_sub(cpu)),
        ms(wall.elapsed())
    );
    out
}

/// An on-disk entry: the object, and what launching its kernel needs that
/// the object does not say (so that a hit compiles nothing).
struct Entry {
    local: LocalLayout,
    report: String,
    object: Vec<u8>,
}

impl Entry {
    /// `report length, report, local size, gang state, refill (0 or 1),
    /// offset count,
    /// (variable, offset)*, object`, integers little endian.
    fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.object.len() + self.report.len() + 64);
        let u64 = |out: &mut Vec<u8>, v: u64| out.extend_from_slice(&v.to_le_bytes());
        u64(&mut out, self.report.len() as u64);
        out.extend_from_slice(self.report.as_bytes());
        u64(&mut out, self.local.size);
        u64(&mut out, self.local.gang_state);
        u64(&mut out, self.local.refill as u64);
        u64(&mut out, self.local.offsets.len() as u64);
        for &(g, offset) in &self.local.offsets {
            u64(&mut out, g.index() as u64);
            u64(&mut out, offset);
        }
        out.extend_from_slice(&self.object);
        out
    }

    /// The entry [`Entry::encode`] wrote, or `None` for bytes it did not.
    fn decode(bytes: &[u8]) -> Option<Entry> {
        let mut r = Reader(bytes);
        let report_len = usize::try_from(r.u64()?).ok()?;
        let report = std::str::from_utf8(r.bytes(report_len)?).ok()?.to_string();
        let size = r.u64()?;
        let gang_state = r.u64()?;
        let refill = match r.u64()? {
            0 => false,
            1 => true,
            _ => return None,
        };
        let count = r.u64()?;
        let mut offsets = Vec::new();
        for _ in 0..count {
            let g = u32::try_from(r.u64()?).ok()?;
            let offset = r.u64()?;
            offsets.push((GlobalId::new(g as usize), offset));
        }
        Some(Entry {
            local: LocalLayout {
                offsets,
                size,
                gang_state,
                refill,
            },
            report,
            object: r.0.to_vec(),
        })
    }
}

/// Reads an [`Entry`] front to back.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn bytes(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.0.len() {
            return None;
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(head)
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.bytes(8)?.try_into().ok()?))
    }
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

/// Specializations already loaded into the JIT, by key (a program built
/// twice in one process, or loaded from its binary, compiles nothing).
fn lock_loaded() -> MutexGuard<'static, HashMap<String, Loaded>> {
    static LOADED: OnceLock<Mutex<HashMap<String, Loaded>>> = OnceLock::new();
    LOADED
        .get_or_init(|| Mutex::new(HashMap::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner())
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
    use super::*;

    #[test]
    fn cache_entries_read_back_and_truncated_ones_do_not() {
        let entry = Entry {
            local: LocalLayout {
                offsets: vec![(GlobalId::new(0), 0), (GlobalId::new(3), 64)],
                size: 96,
                gang_state: 40,
                refill: true,
            },
            report: "kernel k, width 8".to_string(),
            object: b"\x7fELF object".to_vec(),
        };
        let bytes = entry.encode();
        let back = Entry::decode(&bytes).expect("decodes");
        assert_eq!(back.local.offsets, entry.local.offsets);
        assert_eq!(
            (back.local.size, back.local.gang_state, back.local.refill),
            (entry.local.size, entry.local.gang_state, entry.local.refill)
        );
        assert_eq!(back.report, entry.report);
        assert_eq!(back.object, entry.object);
        // Cut inside the header fields: not an entry.
        for cut in [0, 7, 8 + 5, 8 + entry.report.len() + 20] {
            assert!(Entry::decode(&bytes[..cut]).is_none(), "cut at {cut}");
        }
    }

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
