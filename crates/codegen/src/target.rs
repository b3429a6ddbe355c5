//! The host target: what CPU the kernels run on, and LLVM's `default<O3>`
//! pipeline plus object/assembly emission for exactly that CPU (a module
//! too large for them to finish in reasonable time gets cheaper ones, see
//! [`LARGE_MODULE_BLOCKS`]; a kernel's first launches may run a quick tier,
//! see [`Tier`]).
//!
//! Lockstep compiles for the machine it runs on, never for a generic x86-64:
//! the gang width follows the widest vector unit (AVX-512 → 16 lanes of
//! 32 bits), and LLVM's cost model and instruction selection must see the
//! same features, or the explicit `<16 x float>` code of a gang would be
//! split into halves. [`HostTarget`] holds only strings so that it is `Send +
//! Sync` and can be detected once per process; LLVM target machines are made
//! from it on demand (they are cheap, and not thread-safe to share).
//!
//! `LOCKSTEP_CPU=NAME` ([`CPU_ENV`]; `lockstep --cpu NAME`) replaces the host
//! by another CPU of the same architecture, by LLVM's name (`znver3`,
//! `haswell`, `x86-64-v3`): its features come from LLVM's tables, so the
//! width, the code and the cache keys are that CPU's. This measures AVX2
//! code on an AVX-512 machine; code for a CPU with features the host lacks
//! is refused before it runs ([`HostTarget::missing_on`]).

use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;

use inkwell::attributes::AttributeLoc;
use inkwell::basic_block::BasicBlock;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{
    CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine, TargetTriple,
};
use inkwell::OptimizationLevel;

/// An error of the back end: target detection, optimization, emission,
/// JIT linking. Every LLVM error is turned into one of these with LLVM's
/// message; nothing in the back end panics on an LLVM failure.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BackendError {
    /// The native target could not be initialized or described.
    #[error("host target: {0}")]
    Target(String),
    /// The module handed to the back end does not verify. This is always a
    /// bug of the code generator that built it.
    #[error("invalid LLVM module (a code generator bug): {0}")]
    InvalidModule(String),
    /// LLVM's optimization pipeline failed.
    #[error("LLVM optimization: {0}")]
    Optimize(String),
    /// LLVM could not emit an object file or assembly.
    #[error("LLVM code emission: {0}")]
    Emit(String),
    /// The JIT could not be created, could not link an object, or could not
    /// find a symbol.
    #[error("JIT: {0}")]
    Jit(String),
    /// [`CPU_ENV`] names a CPU LLVM does not know for the host's
    /// architecture.
    #[error("{CPU_ENV}={cpu}: LLVM knows no CPU of that name for {triple}; known: {known}")]
    UnknownCpu {
        cpu: String,
        triple: String,
        /// LLVM's CPU names for the triple, space separated.
        known: String,
    },
    /// The chosen CPU has features the host lacks: its code cannot run here.
    #[error(
        "{CPU_ENV}={cpu}: code for it would use {} that this CPU ({host}) lacks; choose a CPU this one can run (e.g. one of the same or an older generation)",
        missing.join(", ")
    )]
    CpuNotRunnable {
        cpu: String,
        host: String,
        missing: Vec<String>,
    },
}

/// `Result` with a [`BackendError`].
pub type BackendResult<T> = Result<T, BackendError>;

/// Prefixes of the x86 features whose instructions LLVM selects in ordinary
/// code (vector and scalar arithmetic, loads, stores, bit manipulation), as
/// opposed to features reachable only through their intrinsics.
pub const CODE_FEATURES: &[&str] = &[
    "sse", "ssse3", "avx", "evex512", "fma", "f16c", "xop", "gfni", "bmi", "lzcnt", "popcnt",
    "movbe", "cmov", "cx8", "cx16", "sahf", "adx", "tbm",
];

/// The environment variable naming the CPU to compile for instead of the
/// host's (LLVM's name; empty, `native` or `host`: the host).
pub const CPU_ENV: &str = "LOCKSTEP_CPU";

/// The CPU [`CPU_ENV`] asks for, if it asks for one other than the host.
pub fn requested_cpu() -> Option<String> {
    let cpu = std::env::var(CPU_ENV).ok()?;
    let cpu = cpu.trim();
    (!cpu.is_empty() && cpu != "native" && cpu != "host").then(|| cpu.to_string())
}

extern "C" {
    // src/cpu_features.cpp
    fn lockstep_cpu_features(
        triple: *const std::ffi::c_char,
        cpu: *const std::ffi::c_char,
        out: *mut *mut std::ffi::c_char,
    ) -> std::ffi::c_int;
    fn lockstep_cpu_features_free(s: *mut std::ffi::c_char);
}

/// LLVM's feature string for `cpu` on `triple` (whose target is
/// initialized), from LLVM's subtarget tables.
fn cpu_features(triple: &str, cpu: &str) -> BackendResult<String> {
    let c = |s: &str| {
        std::ffi::CString::new(s).map_err(|_| BackendError::Target(format!("a NUL byte in {s:?}")))
    };
    let (triple_c, cpu_c) = (c(triple)?, c(cpu)?);
    let mut out: *mut std::ffi::c_char = std::ptr::null_mut();
    // SAFETY: NUL-terminated strings in, a malloc'd string (or NULL when
    // out of memory) out, which is copied and freed here.
    let (code, text) = unsafe {
        let code = lockstep_cpu_features(triple_c.as_ptr(), cpu_c.as_ptr(), &mut out);
        let text = if out.is_null() {
            String::new()
        } else {
            let t = std::ffi::CStr::from_ptr(out).to_string_lossy().into_owned();
            lockstep_cpu_features_free(out);
            t
        };
        (code, text)
    };
    match code {
        0 if !text.is_empty() => Ok(text),
        1 => Err(BackendError::UnknownCpu {
            cpu: cpu.to_owned(),
            triple: triple.to_owned(),
            known: text,
        }),
        _ => Err(BackendError::Target(format!(
            "the features of CPU {cpu} on {triple}: {text}"
        ))),
    }
}

/// The LLVM pipeline that [`optimize`] runs.
pub const PIPELINE: &str = "default<O3>";

/// How much LLVM optimizes a kernel's code: the fully optimized tier, or a
/// quick one for the first launches of a kernel while the full one is
/// compiled (tiered compilation). Both compile the same LLVM IR with the
/// same (strict, no fast-math) semantics; only the effort differs.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Tier {
    /// [`QUICK_PIPELINE`], and code generation at LLVM's `-O0` (fast
    /// instruction selection and register allocation).
    Quick,
    /// [`PIPELINE`] (`-O3`), and code generation at `-O3`.
    #[default]
    Full,
}

/// The LLVM pipeline of [`Tier::Quick`]: inline the gang function into the
/// work-group function, then the clean-ups that remove most of what the
/// emitter leaves (stack slots, repeated address computations), each linear
/// in the code. With code generation at `-O0` it compiles about three times
/// faster than [`PIPELINE`] at `-O3` (AMD EPYC, 2 cores, thread CPU time:
/// `bench/kernels/parser.cl` 39 ms instead of 127, `ao.cl` 36 instead of
/// 105, `saxpy.cl` 4.4 instead of 8.3), and its code runs 1 to 7 times
/// slower (Mandelbrot's latency-bound loop the most): code for a kernel's
/// first launches, until the full tier replaces it.
pub const QUICK_PIPELINE: &str =
    "always-inline,function(sroa,early-cse<memssa>,instcombine<no-verify-fixpoint>,simplifycfg)";

/// A module whose functions have more basic blocks than this in all, as
/// the emitter wrote it, is compiled for compile time rather than speed:
/// [`LARGE_PIPELINE`] instead of [`PIPELINE`], its functions `optnone` and
/// not inlined, and code generation at LLVM's `-O0` (fast instruction
/// selection and register allocation, no machine optimizations). On such
/// functions `-O3` and the machine passes grow faster than the code: a
/// 10,000-case `switch` spends seconds in InstCombine and GVN at a join of
/// 10,000 edges, and minutes in machine code sinking over the diamonds that
/// AVX-512 mask selects expand into (3,000 cases on a varying value: 16 s,
/// 10,000: past 3 minutes). The corpus and the benchmarks stay far below
/// (500 blocks at most).
pub const LARGE_MODULE_BLOCKS: u32 = 4096;

/// A module with a block that more than this many edges enter or leave
/// (a `switch` on a uniform value of that many cases, or the block its
/// cases join at) is compiled like one past [`LARGE_MODULE_BLOCKS`]: in the
/// gang loop, LLVM's machine passes grow with about the cube of the edges
/// of such a block (a 3,000-case switch of a kernel argument: 3,000 blocks,
/// 6.5 s in block placement and register coalescing; 1,000 cases: 0.5 s).
pub const LARGE_BLOCK_EDGES: usize = 1024;

/// The LLVM pipeline [`optimize`] runs on a module past
/// [`LARGE_MODULE_BLOCKS`]: the cheap clean-ups, each linear in the code.
/// (Not SimplifyCFG: the selects it makes of the linearized guards cost
/// instruction selection more than it saves, 0.7 s of 3.7 at 10,000 cases.)
pub const LARGE_PIPELINE: &str = "function(sroa,early-cse<memssa>,adce)";

/// The CPU this process runs on, as LLVM names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostTarget {
    triple: String,
    cpu: String,
    /// LLVM's feature string, `+avx2,-avx512f,...`.
    features: String,
    /// The enabled features (those with `+`), without the sign.
    enabled: BTreeSet<String>,
}

/// Registers the native target, its assembly printer and parser with LLVM,
/// and sets the kernels' LLVM options ([`set_llvm_options`]), once per
/// process. Both the target machines of [`HostTarget`] and the JIT need it.
pub(crate) fn initialize_native() -> BackendResult<()> {
    static INIT: OnceLock<Result<(), String>> = OnceLock::new();
    INIT.get_or_init(|| {
        set_llvm_options();
        Target::initialize_native(&InitializationConfig::default())
    })
    .clone()
    .map_err(|e| BackendError::Target(format!("initializing the native LLVM target: {e}")))
}

/// LLVM options for the kernels' code, set once per process: no runtime
/// unrolling of loops whose trip count is not a constant (a copy of the
/// body run N times plus a remainder loop). The loops of a kernel's
/// work-item often run a few iterations, as many as the data says (a CSR
/// row's non-zeros): the remainder loop and the unrolled loop then each end
/// with a mispredicted branch where one loop had one. spmv's scalar form
/// on znver3: 4.3 ms with it, 3.7 without (pocl 3.5-4.0, whose loop is not
/// unrolled either); other kernels unchanged. Loops with a constant trip
/// count are still unrolled in full.
fn set_llvm_options() {
    let args = [c"lockstep".as_ptr(), c"-unroll-runtime=false".as_ptr()];
    // SAFETY: NUL-terminated strings that live for the call; LLVM copies
    // what it keeps.
    unsafe { llvm_sys::support::LLVMParseCommandLineOptions(2, args.as_ptr(), std::ptr::null()) };
}

impl HostTarget {
    /// The CPU kernels are compiled for: the one [`CPU_ENV`] names, else the
    /// host ([`HostTarget::native`]). An unknown name is an error
    /// ([`BackendError::UnknownCpu`]), never a silent fallback.
    pub fn detect() -> BackendResult<HostTarget> {
        match requested_cpu() {
            Some(cpu) => HostTarget::for_cpu(&cpu),
            None => HostTarget::native(),
        }
    }

    /// Initializes LLVM's native target and describes the host: its triple,
    /// CPU name (`znver4`, `sapphirerapids`, …) and feature string.
    pub fn native() -> BackendResult<HostTarget> {
        initialize_native()?;
        let triple = TargetMachine::get_default_triple();
        let triple = triple.as_str().to_string_lossy().into_owned();
        let cpu = TargetMachine::get_host_cpu_name().to_string();
        let features = TargetMachine::get_host_cpu_features().to_string();
        if triple.is_empty() {
            return Err(BackendError::Target("LLVM reports no host triple".into()));
        }
        let host = HostTarget::from_parts(&triple, &cpu, &features);
        // Fail here, not at the first compile, if LLVM cannot target the host.
        host.target_machine()?;
        Ok(host)
    }

    /// The host's architecture with the CPU LLVM calls `cpu` (`znver3`,
    /// `skylake-avx512`, `x86-64-v3`) and the features LLVM's tables give
    /// it, as `clang -march=CPU` would compile. Every feature of the target
    /// is in the feature string, with `+` or `-`.
    pub fn for_cpu(cpu: &str) -> BackendResult<HostTarget> {
        initialize_native()?;
        let triple = TargetMachine::get_default_triple();
        let triple = triple.as_str().to_string_lossy().into_owned();
        let features = cpu_features(&triple, cpu)?;
        let target = HostTarget::from_parts(&triple, cpu, &features);
        target.target_machine()?;
        Ok(target)
    }

    /// A target from explicit parts, e.g. to compile for another x86 CPU in
    /// tests or for `lockstep compile --emit asm`. `features` is LLVM's
    /// comma-separated `+feat,-feat` string.
    pub fn from_parts(triple: &str, cpu: &str, features: &str) -> HostTarget {
        let enabled = features
            .split(',')
            .filter_map(|f| f.trim().strip_prefix('+'))
            .map(str::to_owned)
            .collect();
        HostTarget {
            triple: triple.to_owned(),
            cpu: cpu.to_owned(),
            features: features.to_owned(),
            enabled,
        }
    }

    /// The target triple, e.g. `x86_64-pc-linux-gnu`.
    pub fn triple(&self) -> &str {
        &self.triple
    }

    /// LLVM's name of the CPU, e.g. `znver3`.
    pub fn cpu(&self) -> &str {
        &self.cpu
    }

    /// LLVM's feature string, `+sse2,+avx2,-avx512f,…`.
    pub fn features(&self) -> &str {
        &self.features
    }

    /// Whether the CPU has `feature` (LLVM's name without sign: `avx512f`,
    /// `avx2`, `fma`).
    pub fn has_feature(&self, feature: &str) -> bool {
        self.enabled.contains(feature)
    }

    /// The instructions this target's code may contain that `host` lacks:
    /// the enabled features that `host`'s feature string lists with `-`,
    /// among those LLVM uses in ordinary code ([`CODE_FEATURES`]). Code for
    /// this target could fault on `host` when the list is not empty.
    ///
    /// System features (`pku`, `rdpru`, `wbnoinvd`, `mwaitx`, …) do not
    /// count: LLVM emits them only for their intrinsics, which kernels
    /// cannot call, and hypervisors often hide them from the guest (a znver4
    /// VM may report no `pku` while znver3's tables have it).
    pub fn missing_on(&self, host: &HostTarget) -> Vec<String> {
        let absent: BTreeSet<&str> = host
            .features
            .split(',')
            .filter_map(|f| f.trim().strip_prefix('-'))
            .collect();
        self.enabled
            .iter()
            .filter(|f| absent.contains(f.as_str()))
            .filter(|f| CODE_FEATURES.iter().any(|p| f.starts_with(p)))
            .cloned()
            .collect()
    }

    /// The preferred number of 32-bit lanes of a gang: 16 with AVX-512F, 8
    /// with AVX2, else 4 (SSE; AVX without AVX2 has no 256-bit integers).
    pub fn preferred_width_32(&self) -> u32 {
        if self.has_feature("avx512f") {
            16
        } else if self.has_feature("avx2") {
            8
        } else {
            4
        }
    }

    /// The widest vector register in bits (512, 256 or 128).
    pub fn vector_bits(&self) -> u32 {
        self.preferred_width_32() * 32
    }

    /// Everything about the target that changes generated code, as one
    /// string for cache keys: triple, CPU and the full feature string.
    pub fn fingerprint(&self) -> String {
        format!("{};{};{}", self.triple, self.cpu, self.features)
    }

    /// An LLVM target machine for this CPU at `-O3`, with position-independent
    /// code and the small code model: what ORC's JITLink linker expects on
    /// x86-64 ELF (LLJIT configures its own target machines the same way),
    /// and the code can be cached and loaded at any address.
    pub fn target_machine(&self) -> BackendResult<TargetMachine> {
        self.target_machine_at(OptimizationLevel::Aggressive)
    }

    /// A target machine whose code generation optimizes at `level`.
    fn target_machine_at(&self, level: OptimizationLevel) -> BackendResult<TargetMachine> {
        initialize_native()?;
        let triple = TargetTriple::create(&self.triple);
        let target = Target::from_triple(&triple).map_err(|e| {
            BackendError::Target(format!("no LLVM target for {}: {e}", self.triple))
        })?;
        target
            .create_target_machine(
                &triple,
                &self.cpu,
                &self.features,
                level,
                RelocMode::PIC,
                CodeModel::Small,
            )
            .ok_or_else(|| {
                BackendError::Target(format!(
                    "LLVM cannot make a target machine for {} ({})",
                    self.triple, self.cpu
                ))
            })
    }
}

/// Gives `module` the host's triple and data layout, and lets every defined
/// function use the full vector registers (see below). Idempotent.
///
/// On AVX-512 CPUs that LLVM tunes for 256-bit vectors (Skylake-X, Ice
/// Lake, Sapphire Rapids), the back end splits every 512-bit operation in
/// two unless the function may use 512-bit vectors: a function without the
/// `"min-legal-vector-width"` attribute may, but one that carries a smaller
/// value (clang puts `"0"` on functions without vector code, and such
/// attributes travel with code copied from clang's output) may not. Since a
/// gang's `<16 x float>` values are the point of the exercise, the
/// attribute is raised to the host's vector width wherever it is lower.
pub fn prepare_module(
    target: &HostTarget,
    machine: &TargetMachine,
    module: &Module,
) -> BackendResult<()> {
    module.set_triple(&machine.get_triple());
    module.set_data_layout(&machine.get_target_data().get_data_layout());
    let bits = target.vector_bits();
    if bits > 256 {
        let context = module.get_context();
        for function in module.get_functions() {
            if function.count_basic_blocks() == 0 {
                continue;
            }
            let current = function
                .get_string_attribute(AttributeLoc::Function, "min-legal-vector-width")
                .and_then(|a| a.get_string_value().to_str().ok()?.parse::<u32>().ok())
                .unwrap_or(0);
            if current < bits {
                let attribute =
                    context.create_string_attribute("min-legal-vector-width", &bits.to_string());
                function.add_attribute(AttributeLoc::Function, attribute);
            }
        }
    }
    Ok(())
}

/// Verifies `module`, sets the host's triple and data layout
/// ([`prepare_module`]) and runs LLVM's `default<O3>` pipeline with the host
/// target machine, so that the cost models know the real vector units; a
/// module past [`LARGE_MODULE_BLOCKS`] gets [`LARGE_PIPELINE`] and its
/// functions become `optnone`. The module is changed in place.
pub fn optimize(target: &HostTarget, module: &Module) -> BackendResult<()> {
    optimize_at(target, module, Tier::Full)
}

/// [`optimize`] with `tier`'s pipeline ([`QUICK_PIPELINE`] for
/// [`Tier::Quick`]; a large module gets [`LARGE_PIPELINE`] in either).
pub fn optimize_at(target: &HostTarget, module: &Module, tier: Tier) -> BackendResult<()> {
    module
        .verify()
        .map_err(|e| BackendError::InvalidModule(e.to_string()))?;
    let machine = target.target_machine()?;
    prepare_module(target, &machine, module)?;
    let large = is_large(module);
    let options = PassBuilderOptions::create();
    options.set_loop_vectorization(true);
    options.set_loop_slp_vectorization(true);
    options.set_loop_interleaving(true);
    options.set_loop_unrolling(true);
    let pipeline = match (large, tier) {
        (true, _) => LARGE_PIPELINE,
        (false, Tier::Full) => PIPELINE,
        (false, Tier::Quick) => QUICK_PIPELINE,
    };
    module
        .run_passes(pipeline, &machine, options)
        .map_err(|e| BackendError::Optimize(e.to_string()))?;
    if large {
        set_optnone(module);
    }
    Ok(())
}

/// True if `module` is past [`LARGE_MODULE_BLOCKS`] or has a block past
/// [`LARGE_BLOCK_EDGES`].
fn is_large(module: &Module) -> bool {
    let blocks: u32 = module.get_functions().map(|f| f.count_basic_blocks()).sum();
    if blocks > LARGE_MODULE_BLOCKS {
        return true;
    }
    let mut entering: HashMap<BasicBlock, usize> = HashMap::new();
    for function in module.get_functions() {
        for block in function.get_basic_blocks() {
            let Some(terminator) = block.get_terminator() else {
                continue;
            };
            let targets = (0..terminator.get_num_operands())
                .filter_map(|i| terminator.get_operand(i)?.block());
            let mut leaving = 0;
            for target in targets {
                leaving += 1;
                *entering.entry(target).or_default() += 1;
            }
            if leaving > LARGE_BLOCK_EDGES {
                return true;
            }
        }
    }
    entering.values().any(|&n| n > LARGE_BLOCK_EDGES)
}

/// Makes every function defined in `module` `optnone` and `noinline`
/// (which `optnone` needs) instead of `alwaysinline`: how [`optimize`] marks
/// a large module for [`emit`].
fn set_optnone(module: &Module) {
    let context = module.get_context();
    let kind = inkwell::attributes::Attribute::get_named_enum_kind_id;
    for function in module.get_functions() {
        if function.count_basic_blocks() == 0 {
            continue;
        }
        function.remove_enum_attribute(AttributeLoc::Function, kind("alwaysinline"));
        for attribute in ["noinline", "optnone"] {
            function.add_attribute(
                AttributeLoc::Function,
                context.create_enum_attribute(kind(attribute), 0),
            );
        }
    }
}

/// True if every function defined in `module` is `optnone`: then nothing
/// in code generation should optimize either.
fn all_optnone(module: &Module) -> bool {
    let optnone = inkwell::attributes::Attribute::get_named_enum_kind_id("optnone");
    let mut defined = module
        .get_functions()
        .filter(|f| f.count_basic_blocks() > 0)
        .peekable();
    defined.peek().is_some()
        && defined.all(|f| {
            f.get_enum_attribute(AttributeLoc::Function, optnone)
                .is_some()
        })
}

/// Emits `module` as it is (no optimization) as an ELF object for the host,
/// in memory. The module gets the host's triple and data layout first.
pub fn emit_object(target: &HostTarget, module: &Module) -> BackendResult<Vec<u8>> {
    emit(target, module, FileType::Object, Tier::Full)
}

/// [`optimize`] then [`emit_object`]: the object file that [`crate::backend::jit::Jit::add_object`]
/// loads and [`crate::backend::cache::ObjectCache`] stores.
pub fn optimize_and_emit_object(target: &HostTarget, module: &Module) -> BackendResult<Vec<u8>> {
    optimize_and_emit_object_at(target, module, Tier::Full)
}

/// Emits `module` as it is as an object file, with code generation at
/// `tier`'s level.
pub fn emit_object_at(target: &HostTarget, module: &Module, tier: Tier) -> BackendResult<Vec<u8>> {
    emit(target, module, FileType::Object, tier)
}

/// [`optimize_at`] then the object file, both at `tier`.
pub fn optimize_and_emit_object_at(
    target: &HostTarget,
    module: &Module,
    tier: Tier,
) -> BackendResult<Vec<u8>> {
    optimize_at(target, module, tier)?;
    emit(target, module, FileType::Object, tier)
}

/// [`optimize`] then the host assembly of `module` (AT&T syntax), for
/// `lockstep compile --emit asm`.
pub fn emit_assembly(target: &HostTarget, module: &Module) -> BackendResult<String> {
    optimize(target, module)?;
    let bytes = emit(target, module, FileType::Assembly, Tier::Full)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// [`optimize`] then the textual LLVM IR of `module`, for
/// `lockstep compile --emit llvm`.
pub fn optimized_ir(target: &HostTarget, module: &Module) -> BackendResult<String> {
    optimize(target, module)?;
    Ok(module.print_to_string().to_string())
}

/// Emits `module` for the host at `tier`'s level; at LLVM's `-O0` if its
/// functions are all `optnone` (a large module, see [`LARGE_MODULE_BLOCKS`]).
fn emit(
    target: &HostTarget,
    module: &Module,
    file_type: FileType,
    tier: Tier,
) -> BackendResult<Vec<u8>> {
    let level = if all_optnone(module) {
        OptimizationLevel::None
    } else {
        match tier {
            Tier::Full => OptimizationLevel::Aggressive,
            Tier::Quick => OptimizationLevel::None,
        }
    };
    let machine = target.target_machine_at(level)?;
    prepare_module(target, &machine, module)?;
    let buffer = machine
        .write_to_memory_buffer(module, file_type)
        .map_err(|e| BackendError::Emit(e.to_string()))?;
    Ok(buffer.as_slice().to_vec())
}
