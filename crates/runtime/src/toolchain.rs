//! What the runtime needs from a compiler, as a trait: build a program's
//! source (OpenCL C or SPIR-V) into Lockstep IR, and compile one kernel specialization into a
//! work-group function the SIMD engine calls.
//!
//! The runtime links no compiler. A [`Toolchain`] is handed to
//! [`crate::Context::new`], and every program built in the context keeps
//! it for the kernels it compiles at launch. `lockstep-llvm` implements it
//! with clang and LLVM (`lockstep-frontend` and `lockstep-codegen`); another
//! back end (a GPU, C) would sit beside it without changing the runtime.
//! What the two sides share is Lockstep IR and the kernel ABI
//! ([`lockstep_ir::abi`]).

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use lockstep_ir::abi::{LocalLayout, RuntimeFunctions, WorkGroupFn};
use lockstep_ir::{FuncId, Module};

use crate::{BuildError, SimdFeatures, Spec};

/// A compiler the runtime builds programs and compiles kernels with.
pub trait Toolchain: Send + Sync + fmt::Debug {
    /// What `options` (`clBuildProgram`-style) tell the runtime, or the
    /// error ([`BuildError::Options`]) for options the toolchain rejects.
    fn build_flags(&self, options: &str) -> Result<BuildFlags, BuildError>;

    /// Builds OpenCL C source with `options` into a verified module.
    fn build(&self, source: &Source, options: &str) -> Result<Built, BuildError>;

    /// Builds a SPIR-V module (bytes as `clCreateProgramWithIL` takes
    /// them) with `options` into a verified module, its specialization
    /// constants (by `SpecId`) set to the given values (their bytes, in
    /// host order). [`BuildError::InvalidSpirv`] if the bytes are not a
    /// SPIR-V module the toolchain runs.
    fn build_spirv(
        &self,
        spirv: &[u8],
        spec_constants: &[(u32, Vec<u8>)],
        options: &str,
    ) -> Result<Built, BuildError>;

    /// Links separately compiled objects (the toolchain's own format, as
    /// `clCompileProgram` made them) into a verified module.
    fn link(&self, objects: &[&str], options: &str) -> Result<Built, BuildError>;

    /// Compiles kernel `kernel` of `module` for `spec` into a work-group
    /// function. `program_key` identifies the module and its build options
    /// (for caches keyed by what the code is built from); `runtime` are the
    /// functions generated code may call ([`lockstep_ir::abi::runtime_symbols`]).
    /// The error is a message for [`crate::LaunchError::Compile`].
    fn compile_kernel(
        &self,
        module: &Module,
        kernel: FuncId,
        spec: &Spec,
        program_key: &str,
        runtime: RuntimeFunctions,
    ) -> Result<CompiledKernel, String>;

    /// [`Toolchain::compile_kernel`] at `tier`: [`Tier::Quick`] code is
    /// compiled quickly (less optimization, the same semantics) and not
    /// cached beyond the process. The result says which tier it is
    /// ([`CompiledKernel::tier`]): a toolchain with one tier compiles that.
    fn compile_kernel_at(
        &self,
        module: &Module,
        kernel: FuncId,
        spec: &Spec,
        program_key: &str,
        runtime: RuntimeFunctions,
        tier: Tier,
    ) -> Result<CompiledKernel, String> {
        let _ = tier;
        self.compile_kernel(module, kernel, spec, program_key, runtime)
    }

    /// The fully optimized specialization if the toolchain has it without
    /// compiling (its caches), else `None`.
    fn cached_kernel(
        &self,
        module: &Module,
        kernel: FuncId,
        spec: &Spec,
        program_key: &str,
        runtime: RuntimeFunctions,
    ) -> Option<CompiledKernel> {
        let _ = (module, kernel, spec, program_key, runtime);
        None
    }

    /// True if an earlier process compiled the specialization at
    /// [`Tier::Quick`] (the toolchain's disk cache remembers that, without
    /// its code): the kernel recurs across processes, so the runtime
    /// compiles the full tier at once, for the cache.
    fn recurring_kernel(
        &self,
        module: &Module,
        kernel: FuncId,
        spec: &Spec,
        program_key: &str,
    ) -> bool {
        let _ = (module, kernel, spec, program_key);
        false
    }

    /// The CPU kernels are compiled for, or why none can be.
    fn target(&self) -> Result<Target, String>;
}

/// OpenCL C source to build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// The name diagnostics use for this source (e.g. `kernel.cl`).
    pub name: String,
    pub text: String,
    /// The directory `#include "..."` is resolved against (the source
    /// file's directory when building a file).
    pub include_dir: Option<PathBuf>,
}

impl Source {
    /// Source text with a name for diagnostics.
    pub fn from_string(name: impl Into<String>, text: impl Into<String>) -> Source {
        Source {
            name: name.into(),
            text: text.into(),
            include_dir: None,
        }
    }

    /// Reads a source file; includes resolve against its directory.
    pub fn from_file(path: &Path) -> Result<Source, BuildError> {
        let text = std::fs::read_to_string(path).map_err(|e| BuildError::Read {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        Ok(Source {
            name,
            text,
            include_dir: path.parent().map(Path::to_path_buf),
        })
    }
}

/// What build options tell the runtime.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildFlags {
    /// Local sizes must divide the global size: OpenCL 1.x programs
    /// (`-cl-std=CL1.*`) and `-cl-uniform-work-group-size`.
    pub uniform_work_groups: bool,
}

/// A built program: its kernels in Lockstep IR, and the build log.
#[derive(Clone, Debug)]
pub struct Built {
    pub module: Module,
    /// The compiler's warnings (empty for a clean build).
    pub log: String,
}

/// The CPU kernels are compiled for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The toolchain's name of the CPU (LLVM's: `znver4`, `skylake-avx512`).
    pub cpu: String,
    /// Whether the user chose it (`LOCKSTEP_CPU`) rather than the host.
    pub chosen: bool,
    /// Its SIMD features, as the compiler sees them.
    pub features: SimdFeatures,
}

/// How optimized a kernel specialization's code is: tiered compilation
/// runs a kernel's first launches on quickly compiled code while the fully
/// optimized code is compiled in the background, then swaps it in. The
/// tiers compile the same IR with the same semantics: results never
/// differ, only speed.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Tier {
    /// Compiled quickly (LLVM at a lower optimization level).
    Quick,
    /// Fully optimized (what caches keep).
    #[default]
    Full,
}

/// One compiled kernel specialization: its work-group function and what
/// launching it needs to know. The function of a quick-tier kernel is
/// replaced in place by the full tier's when that is compiled
/// ([`CompiledKernel::upgrade`]), so launches running it (a long first
/// launch too) go on with the optimized code at their next work-group.
pub struct CompiledKernel {
    /// The work-group function's address.
    function: AtomicUsize,
    /// Where the kernel's `__local` variables and gang state go.
    pub local: LocalLayout,
    /// What the compiler did (`lockstep compile --emit report`).
    pub report: Box<dyn fmt::Display + Send + Sync>,
    /// Whether `function` is the full tier's.
    full: AtomicBool,
    /// A quick tier's upgrade, until it is handed to the upgrade thread
    /// (when the kernel proves worth it: see [`crate::tiers`]).
    upgrade: Mutex<Option<PendingUpgrade>>,
    /// Launches that ran this code.
    launches: AtomicU64,
}

/// An upgrade not started yet: what compiles the full tier and swaps it
/// in, and how long the quick tier took to compile.
pub(crate) struct PendingUpgrade {
    pub job: Box<dyn FnOnce() + Send>,
    pub quick_compile: Duration,
}

impl CompiledKernel {
    /// A compiled kernel that runs `function`.
    ///
    /// # Safety
    /// `function` must run every gang of one work-group of the kernel's
    /// specialization as [`lockstep_ir::abi`] describes (reading a
    /// `GroupContext`, its local memory laid out as `local` says), and stay
    /// callable for the rest of the process.
    pub unsafe fn new(
        function: WorkGroupFn,
        local: LocalLayout,
        report: Box<dyn fmt::Display + Send + Sync>,
    ) -> CompiledKernel {
        CompiledKernel {
            function: AtomicUsize::new(function as usize),
            local,
            report,
            full: AtomicBool::new(true),
            upgrade: Mutex::new(None),
            launches: AtomicU64::new(0),
        }
    }

    /// This kernel, marked as code of `tier`.
    pub fn with_tier(self, tier: Tier) -> CompiledKernel {
        self.full.store(tier == Tier::Full, Ordering::Release);
        self
    }

    /// How optimized the code is (now: it changes on an upgrade).
    pub fn tier(&self) -> Tier {
        if self.full.load(Ordering::Acquire) {
            Tier::Full
        } else {
            Tier::Quick
        }
    }

    /// Keeps `upgrade` until the kernel proves worth it ([`CompiledKernel::launching`],
    /// [`CompiledKernel::launched`]).
    pub(crate) fn set_upgrade(&self, upgrade: PendingUpgrade) {
        *self.upgrade.lock().unwrap_or_else(|e| e.into_inner()) = Some(upgrade);
    }

    /// Counts a launch that starts: from the second one on, a pending
    /// upgrade is scheduled (the kernel is used again).
    pub(crate) fn launching(&self) {
        if self.launches.fetch_add(1, Ordering::Relaxed) >= 1 {
            self.schedule_upgrade(|_| true);
        }
    }

    /// A launch ran for `elapsed`: longer than the quick tier took to
    /// compile, the pending upgrade is scheduled (the kernel's time goes
    /// to running it).
    pub(crate) fn launched(&self, elapsed: Duration) {
        self.schedule_upgrade(|u| elapsed > u.quick_compile);
    }

    fn schedule_upgrade(&self, worth_it: impl FnOnce(&PendingUpgrade) -> bool) {
        let pending = {
            let mut upgrade = self.upgrade.lock().unwrap_or_else(|e| e.into_inner());
            match upgrade.as_ref() {
                Some(u) if worth_it(u) => upgrade.take(),
                _ => None,
            }
        };
        if let Some(u) = pending {
            crate::tiers::schedule(u.job);
        }
    }

    /// Runs `full`'s code (the same specialization at the full tier) from
    /// now on; false (and nothing changes) if its local memory layout is
    /// not this kernel's, which launches sized memory for.
    pub(crate) fn upgrade(&self, full: &CompiledKernel) -> bool {
        if self.local != full.local {
            return false;
        }
        self.function
            .store(full.function.load(Ordering::Acquire), Ordering::Release);
        self.full.store(true, Ordering::Release);
        true
    }

    /// The work-group function: runs every gang of one work-group given its
    /// [`lockstep_ir::abi::GroupContext`].
    pub fn function(&self) -> WorkGroupFn {
        let address = self.function.load(Ordering::Acquire);
        // SAFETY: the address of a `WorkGroupFn` given to `new` (this
        // kernel's or, after `upgrade`, the full tier's), which stays
        // callable for the rest of the process.
        unsafe { std::mem::transmute::<usize, WorkGroupFn>(address) }
    }
}
