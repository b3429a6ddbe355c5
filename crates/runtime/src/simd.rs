//! The SIMD engine: has each kernel specialization (local size, width)
//! compiled once per program by the program's [`crate::Toolchain`] (which
//! may also cache it on disk across processes) and runs its work-groups on a
//! persistent pool of worker threads, one per core, each
//! with its own local memory and a stack sized for the kernel's private
//! arrays. Buffers are locked for the launch in the global lock order
//! ([`crate::lock_all`]); by-value arguments are copied to 128-byte aligned
//! memory; the callbacks generated code makes (`printf`, conversions) never
//! let a panic unwind into it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use lockstep_interp::convert::{self, Format};
use lockstep_interp::device_queue::{DeviceMemory, DeviceWork};
use lockstep_ir::abi::{runtime_symbols, type_of_code, GroupContext};
use lockstep_ir::{ConvertOp, FuncId, Rounding, Type};
use lockstep_passes::analysis::gathers::SMALL_OBJECT;

use crate::kernel::ArgValue;
use crate::tiers::Tiering;
use crate::variant_trial::{hopeless, Blocks, Form, Run, Sampling, TrialKey};
use crate::{
    CompiledKernel, Context, Kernel, LaunchError, LaunchReport, NDRange, ProgramInner, RefillMode,
    Spec, Tier,
};

/// The cores the process may use, read once (asking the OS each launch
/// costs more than a small launch).
pub(crate) fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The functions generated code calls ([`runtime_symbols`]).
fn runtime_functions() -> [(&'static str, usize); 5] {
    [
        (
            runtime_symbols::DEVICE_ENQUEUE,
            lockstep_rt_device_enqueue as *const () as usize,
        ),
        (
            runtime_symbols::BARRIER_DIVERGED,
            lockstep_rt_barrier_diverged as *const () as usize,
        ),
        (
            runtime_symbols::CHECK_FAILED,
            crate::check::lockstep_rt_check_failed as *const () as usize,
        ),
        (
            runtime_symbols::PRINTF,
            lockstep_rt_printf as *const () as usize,
        ),
        (
            runtime_symbols::CONVERT,
            lockstep_rt_convert as *const () as usize,
        ),
    ]
}

/// Has the toolchain compile the specialization of `func` for `spec` at `tier`.
fn compile(
    program: &ProgramInner,
    func: FuncId,
    spec: Spec,
    tier: Tier,
) -> Result<CompiledKernel, LaunchError> {
    program
        .toolchain
        .compile_kernel_at(
            &program.module,
            func,
            &spec,
            program.code_key(),
            &runtime_functions(),
            tier,
        )
        .map_err(|message| LaunchError::Compile {
            kernel: program.module.functions[func].name.clone(),
            message,
        })
}

/// Compiles (or fetches) the specialization of `func` for `spec`. Under
/// tiered compilation ([`crate::tiers`]) a specialization the toolchain
/// has not cached is compiled at the quick tier, and the upgrade thread
/// compiles the full tier and swaps it in.
pub(crate) fn compiled(
    program: &Arc<ProgramInner>,
    func: FuncId,
    spec: Spec,
    tiering: Tiering,
) -> Result<Arc<CompiledKernel>, LaunchError> {
    let mut cache = program.simd_cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(k) = cache.get(&(func, spec)) {
        return Ok(k.clone());
    }
    let cached = match tiering {
        Tiering::Auto => program.toolchain.cached_kernel(
            &program.module,
            func,
            &spec,
            program.code_key(),
            &runtime_functions(),
        ),
        Tiering::Quick | Tiering::Full => None,
    };
    let started = std::time::Instant::now();
    let k = match cached {
        Some(k) => k,
        // A kernel earlier processes compiled at the quick tier recurs:
        // its full tier now, for the disk cache.
        None if tiering == Tiering::Auto
            && program.toolchain.recurring_kernel(
                &program.module,
                func,
                &spec,
                program.code_key(),
            ) =>
        {
            compile(program, func, spec, Tier::Full)?
        }
        None => compile(program, func, spec, tiering.first())?,
    };
    let k = Arc::new(k);
    if tiering == Tiering::Auto && k.tier() == Tier::Quick {
        // The upgrade, for when the kernel proves worth it. Weak links:
        // the program holds the kernel, which holds its upgrade.
        let (program, quick) = (Arc::downgrade(program), Arc::downgrade(&k));
        let job = move || {
            let (Some(program), Some(quick)) = (program.upgrade(), quick.upgrade()) else {
                return;
            };
            // On failure the quick tier stays (it runs correctly).
            let Ok(full) = compile(&program, func, spec, Tier::Full) else {
                return;
            };
            if !quick.upgrade(&full) {
                // Another layout (it never is): later launches get it.
                program
                    .simd_cache
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert((func, spec), Arc::new(full));
            }
        };
        k.set_upgrade(crate::toolchain::PendingUpgrade {
            job: Box::new(job),
            quick_compile: started.elapsed(),
        });
    }
    cache.insert((func, spec), k.clone());
    Ok(k)
}

/// The stack a thread that runs work-groups gets at least (Rust's default
/// for spawned threads is 2 MiB).
pub(crate) const MIN_WORKER_STACK: usize = 8 << 20;

/// The largest worker stack a launch may need (private arrays of all lanes
/// of a gang live in the work-group function's frame).
const MAX_WORKER_STACK: u64 = 1 << 30;

/// Frames up to this size run on the launching thread, whose stack size we
/// do not know (an application's thread, inside the OpenCL platform).
const CALLER_FRAME_LIMIT: u64 = 256 << 10;

/// The worker pool, created once per thread count and stack size.
pub(crate) fn pool(threads: usize, stack: usize) -> Result<Arc<rayon::ThreadPool>, LaunchError> {
    type Pools = Mutex<HashMap<(usize, usize), Arc<rayon::ThreadPool>>>;
    static POOLS: OnceLock<Pools> = OnceLock::new();
    let mut pools = POOLS
        .get_or_init(|| Mutex::new(HashMap::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(p) = pools.get(&(threads, stack)) {
        return Ok(p.clone());
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(stack)
        .thread_name(|i| format!("lockstep-worker-{i}"))
        .build()
        .map_err(|e| LaunchError::WorkerThreads {
            threads,
            message: e.to_string(),
        })?;
    let p = Arc::new(p);
    pools.insert((threads, stack), p.clone());
    Ok(p)
}

/// Runs `task(state, i)` for every `i` in `0..n` on the workers of `pool`,
/// each job with its own `init()` state, taking the `i` in order from a
/// shared counter; returns when all are done.
///
/// The workers are woken by the calling thread, which then waits. Woken by
/// one another, as a work-stealing split does, a worker can be queued
/// behind its busy waker on the same core until the scheduler's next
/// balancing tick: on a 2-core VM, spmv's launches took 8.5 ms instead of
/// 4.3 more often than not, the second worker starting 2-4 ms late.
pub(crate) fn on_workers<S>(
    pool: &rayon::ThreadPool,
    n: u64,
    init: impl Fn() -> S + Sync,
    task: impl Fn(&mut S, u64) + Sync,
) {
    let next = AtomicU64::new(0);
    let work = || {
        let mut state = init();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= n {
                break;
            }
            task(&mut state, i);
        }
    };
    // One job per worker that can have work, each injected (and a sleeping
    // worker woken) by this thread; a job not yet started when the others
    // ran out of work is taken by whichever worker is free, so a worker
    // that wakes late delays nothing.
    let jobs = n.min(pool.current_num_threads() as u64);
    pool.in_place_scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|_| work());
        }
    });
}

/// The stack a worker needs for `frame` bytes of private memory per gang:
/// a power of two (so few pools exist) with room for the rest of the
/// frame and the runtime.
fn worker_stack(frame: u64) -> usize {
    (frame.saturating_add(1 << 20))
        .next_power_of_two()
        .max(MIN_WORKER_STACK as u64) as usize
}

/// What a launch's work-items report while it runs (the generated code's
/// `GroupContext::sink`): printf output, the first barrier divergence, and
/// their device enqueue operations.
struct LaunchSink<'a> {
    printf: Mutex<String>,
    divergence: Mutex<Option<String>>,
    /// The device queues, events and enqueued commands of the launch from
    /// the host this launch is part of.
    device: &'a Mutex<DeviceWork>,
    module: &'a lockstep_ir::Module,
    /// The first device enqueue operation that faulted.
    device_error: Mutex<Option<String>>,
}

/// Host memory as device enqueue operations read and write it: the SIMD
/// engine's pointers are host addresses. Only the null pointer is refused;
/// any other address is the kernel's, as for its own accesses.
pub(crate) struct HostMemory;

impl DeviceMemory for HostMemory {
    type Error = String;

    fn read(&mut self, addr: u64, len: u64) -> Result<Vec<u8>, String> {
        if addr == 0 {
            return Err(format!("a read of {len} bytes through a null pointer"));
        }
        // SAFETY: an address a kernel computed and gave a device enqueue
        // operation, of memory the kernel may read (what OpenCL requires).
        Ok(unsafe { std::slice::from_raw_parts(addr as *const u8, len as usize) }.to_vec())
    }

    fn write(&mut self, addr: u64, bytes: &[u8]) -> Result<(), String> {
        if addr == 0 {
            return Err(format!(
                "a write of {} bytes through a null pointer",
                bytes.len()
            ));
        }
        // SAFETY: as for `read`, memory the kernel may write.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), addr as *mut u8, bytes.len()) };
        Ok(())
    }
}

/// Raw launch state shared by the workers (pointers into buffers the
/// launch holds locked).
struct Shared {
    args: Vec<u64>,
    globals: Vec<u64>,
}

// SAFETY: the pointers inside are to memory that outlives the launch and is
// written only by the kernel, as OpenCL allows.
unsafe impl Sync for Shared {}

/// Alignment of a work-group's local memory and of each `__local`
/// argument in it: the widest OpenCL C type (`long16`), as for buffers
/// ([`crate::BUFFER_ALIGN`]).
const LOCAL_ALIGN: u64 = crate::BUFFER_ALIGN as u64;

/// Bytes of this worker's memory on each side of a work-group's local
/// memory ([`lockstep_ir::abi::LOCAL_GUARD`]).
const LOCAL_GUARD: usize = lockstep_ir::abi::LOCAL_GUARD as usize;

/// The largest natural alignment of a by-value argument: a 16-element
/// vector of 8-byte elements (`double16`, `long16`) is 128 bytes.
const BYVAL_ALIGN: usize = 128;

/// One [`BYVAL_ALIGN`]-aligned unit of by-value argument storage.
#[derive(Clone, Copy)]
#[repr(C, align(128))]
struct ByValueChunk([u8; BYVAL_ALIGN]);

/// A copy of a by-value argument (struct or vector) the kernel reads, and
/// may write, through a pointer: aligned to 128 bytes, so that generated
/// code may use aligned vector loads of any width on it (a `float16` read
/// with an aligned 32- or 64-byte load faults on 16-byte aligned memory).
/// Also the copy of an enqueued kernel's block literal.
pub(crate) struct ByValue(Vec<ByValueChunk>);

impl ByValue {
    pub(crate) fn new(bytes: &[u8]) -> ByValue {
        let mut chunks =
            vec![ByValueChunk([0; BYVAL_ALIGN]); bytes.len().div_ceil(BYVAL_ALIGN).max(1)];
        // SAFETY: the chunks hold at least `bytes.len()` bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(
                bytes.as_ptr(),
                chunks.as_mut_ptr() as *mut u8,
                bytes.len(),
            )
        };
        ByValue(chunks)
    }

    pub(crate) fn as_ptr(&self) -> *const u8 {
        self.0.as_ptr() as *const u8
    }
}

/// Locks every buffer of a launch's arguments once, in the global lock
/// order ([`crate::lock_all`]): what the caller holds while the launch
/// and the kernels it enqueues run (they reach its buffers through
/// pointers the block literals captured).
pub(crate) fn lock_buffers(bound: &[ArgValue]) -> Vec<crate::StorageGuard<'_>> {
    crate::lock_all(bound.iter().flat_map(|a| match a {
        ArgValue::Buffer(s) => vec![(&**s, crate::Access::Write)],
        ArgValue::Image(i) => vec![
            (&**i.storage(), crate::Access::Read),
            (&**i.texels(), crate::Access::Write),
        ],
        _ => Vec::new(),
    }))
}

/// Runs a launch's work-items on the SIMD engine, in gangs of `width`,
/// the caller holding the locks of its buffers ([`lock_buffers`]); what
/// they enqueue goes to `device` (the caller runs it).
pub(crate) fn launch(
    kernel: &Kernel,
    range: &NDRange,
    local: [u64; 3],
    width: u32,
    bound: &[ArgValue],
    ctx: &Context,
    device: &Mutex<DeviceWork>,
) -> Result<LaunchReport, LaunchError> {
    let (threads, settings) = (ctx.threads(), ctx.settings());
    let program = &kernel.program;
    let dims = range.dims as usize;
    let mut global = [1u64; 3];
    global[..dims].copy_from_slice(&range.global[..dims]);
    let num_groups: [u64; 3] = std::array::from_fn(|d| global[d].div_ceil(local[d]));
    // The group sizes that occur: full, and the smaller last one per dimension.
    let size_of = |d: usize, g: u64| (global[d] - g * local[d]).min(local[d]);
    let tiering = ctx.tiering().for_launch(global.iter().product());
    // Every buffer or image below 2 GiB: offsets into one fit in 32 bits.
    // An image whose texels are a buffer's reaches them by an offset from
    // its descriptor that spans two allocations.
    let small_buffers = bound.iter().all(|arg| match arg {
        ArgValue::Buffer(storage) => (storage.len() as u64) < SMALL_OBJECT,
        // An in-bounds offset from a pointer inside an allocation smaller
        // than 2 GiB fits in 32 bits, signed, wherever the pointer is.
        ArgValue::Pointer { allocation, .. } => {
            allocation.is_some_and(|(_, len)| len < SMALL_OBJECT)
        }
        ArgValue::Image(image) => {
            image.is_self_contained() && (image.storage().len() as u64) < SMALL_OBJECT
        }
        _ => true,
    });
    // The specializations, by group size, compiled for `width` with refill
    // as `refill` says.
    let compile_all = |refill: RefillMode, width: u32| {
        let mut specs: HashMap<[u32; 3], Arc<CompiledKernel>> = HashMap::new();
        for x in [0, num_groups[0] - 1] {
            for y in [0, num_groups[1] - 1] {
                for z in [0, num_groups[2] - 1] {
                    let sizes = [
                        size_of(0, x) as u32,
                        size_of(1, y) as u32,
                        size_of(2, z) as u32,
                    ];
                    if let std::collections::hash_map::Entry::Vacant(e) = specs.entry(sizes) {
                        let spec = Spec {
                            local_size: sizes,
                            width,
                            linearization: settings.linearization,
                            refill,
                            small_buffers,
                            checked: ctx.checked(),
                        };
                        e.insert(compiled(program, kernel.func, spec, tiering)?);
                    }
                }
            }
        }
        Ok::<_, LaunchError>(specs)
    };
    // The forms of the kernel the compiler proposes: under auto refill, one
    // without and one with lane refill if the cost model gave it refill;
    // one lane per gang if the width is the compiler's to choose and it
    // proposes that; those at twice the width if it proposes that. Until one is found fastest (crate::variant_trial),
    // launches run alternate runs of groups with each; variant 0 is the
    // baseline.
    let chosen = compile_all(settings.refill, width)?;
    let trial_key = TrialKey {
        func: kernel.func,
        local,
        width,
        linearization: settings.linearization,
    };
    let refill_proposed =
        settings.refill == RefillMode::Auto && chosen.values().any(|k| k.local.refill);
    let form = |refill, width| Form { refill, width };
    let mut candidates: Vec<Form> = Vec::new();
    if refill_proposed {
        candidates.extend([form(RefillMode::Off, width), form(settings.refill, width)]);
    } else {
        candidates.push(form(settings.refill, width));
    }
    if width > 1 && ctx.tries_one_lane(kernel) {
        candidates.push(form(RefillMode::Off, 1));
    }
    if ctx.tries_wider(kernel, local, width * 2) {
        // Refill may pay at one width and not the other: both, if proposed.
        let at_width: Vec<RefillMode> = candidates
            .iter()
            .filter(|f| f.width == width)
            .map(|f| f.refill)
            .collect();
        candidates.extend(at_width.into_iter().map(|refill| form(refill, width * 2)));
    }
    let total_groups = num_groups.iter().product::<u64>();
    // Runs of consecutive groups per task (about 16 tasks per worker):
    // cheap groups do not pay the pool's per-task cost each.
    let run = (total_groups / (threads as u64 * 16)).clamp(1, 4096);
    let runs = total_groups.div_ceil(run);
    let picked: Vec<Form> = match program.variant_trials.decision(&trial_key) {
        _ if candidates.len() == 1 => candidates,
        Some(decided) if candidates.contains(&decided) => vec![decided],
        // Too few runs to time every form twice: the baseline alone, and
        // only its compile is paid (a small launch's time is its compile).
        None if runs < 2 * candidates.len() as u64 => vec![candidates[0]],
        _ => candidates,
    };
    let mut variants: Vec<(u32, HashMap<[u32; 3], Arc<CompiledKernel>>)> = Vec::new();
    for &f in &picked {
        let specs = if f == form(settings.refill, width) {
            chosen.clone()
        } else {
            compile_all(f.refill, f.width)?
        };
        variants.push((f.width, specs));
    }
    let trial = variants.len() > 1;
    for k in variants.iter().flat_map(|(_, specs)| specs.values()) {
        k.launching();
    }
    let tiers_of = || -> Vec<Tier> {
        variants
            .iter()
            .flat_map(|(_, specs)| specs.values())
            .map(|k| k.tier())
            .collect()
    };
    let tiers_at_start = tiers_of();
    // Arguments: local ones become offsets after the kernel's own locals.
    let static_local = variants
        .iter()
        .flat_map(|(_, specs)| specs.values())
        .map(|k| k.local.size)
        .max()
        .unwrap_or(0);
    let mut local_total = static_local;
    let mut byval: Vec<ByValue> = Vec::new();
    let mut args = Vec::with_capacity(bound.len());
    for a in bound {
        args.push(match a {
            // The caller holds the buffer's lock ([`lock_buffers`]).
            ArgValue::Buffer(s) => s.as_ptr() as u64,
            ArgValue::Null => 0,
            ArgValue::Pointer { addr, .. } => *addr,
            ArgValue::Local(n) => {
                // Aligned for the widest type, like buffers.
                let offset = local_total.div_ceil(LOCAL_ALIGN) * LOCAL_ALIGN;
                local_total = offset + *n as u64;
                offset
            }
            ArgValue::Scalar(_, bytes) => {
                let mut raw = [0u8; 8];
                raw[..bytes.len().min(8)].copy_from_slice(&bytes[..bytes.len().min(8)]);
                u64::from_le_bytes(raw)
            }
            // Its descriptor; the caller holds the texels' lock too.
            ArgValue::Image(i) => i.storage().as_ptr() as u64,
            ArgValue::Sampler(_) | ArgValue::Pipe(_) => unreachable!("bound as Scalar / Buffer"),
            ArgValue::Bytes(bytes) => {
                // An aligned copy the kernel reads (and may write) by pointer.
                let copy = ByValue::new(bytes);
                let p = copy.as_ptr() as u64;
                byval.push(copy);
                p
            }
        });
    }
    let globals = program.global_addresses();
    let shared = Shared { args, globals };
    let sink = LaunchSink {
        printf: Mutex::new(String::new()),
        divergence: Mutex::new(None),
        device,
        module: &program.module,
        device_error: Mutex::new(None),
    };
    // Checked code reads the arguments' sizes and flags, and reports here.
    let checked = ctx.checked();
    let arg_info = if checked {
        crate::check::arg_info(kernel, bound)
    } else {
        Vec::new()
    };
    let check_sink = crate::check::CheckSink::new(kernel, crate::check::abort_requested());
    let local_bytes = local_total.div_ceil(64) as usize * 64 + LOCAL_GUARD;
    // Gang state of kernels with barriers: one area per gang, per worker.
    let scratch_bytes = variants
        .iter()
        .flat_map(|(w, specs)| specs.iter().map(move |(sizes, k)| (*w, sizes, k)))
        .map(|(w, sizes, k)| {
            let lanes: u64 = sizes.iter().map(|&s| s as u64).product();
            lanes.div_ceil(w as u64) * k.local.gang_state
        })
        .max()
        .unwrap_or(0) as usize
        + 64;
    // The specialization of each group, by which dimensions it is the
    // last group of (bit d): a lookup per group without hashing.
    let by_position: Vec<Vec<Arc<CompiledKernel>>> = variants
        .iter()
        .map(|(_, specs)| {
            (0..8u32)
                .map(|bits| {
                    let sizes: [u32; 3] = std::array::from_fn(|d| {
                        let g = if bits & (1 << d) != 0 {
                            num_groups[d] - 1
                        } else {
                            0
                        };
                        size_of(d, g) as u32
                    });
                    specs[&sizes].clone()
                })
                .collect()
        })
        .collect();
    let last = [num_groups[0] - 1, num_groups[1] - 1, num_groups[2] - 1];
    let one_dimensional = num_groups[1] == 1 && num_groups[2] == 1;
    let position_of = |g: [u64; 3]| {
        (g[0] == last[0]) as usize
            | ((g[1] == last[1]) as usize) << 1
            | ((g[2] == last[2]) as usize) << 2
    };
    // Lane refill numbers a call's work-items with an `i32`.
    let group_items: u64 = local.iter().product();
    let max_refill_groups = (i32::MAX as u64 / group_items.max(1)).max(1);
    // Runs `count` groups from the one of linear index `index` in one call:
    // more than one only for a kernel compiled with lane refill, along a row
    // of dimension 0 and within one specialization (see `calls`).
    let group_of = |index: u64| {
        if one_dimensional {
            [index, 0, 0]
        } else {
            [
                index % num_groups[0],
                (index / num_groups[0]) % num_groups[1],
                index / (num_groups[0] * num_groups[1]),
            ]
        }
    };
    // Each group runs the code its specialization has when it starts: a
    // quick tier's upgrade takes effect at the next group.
    let run_groups = |mem: &mut Vec<u8>, variant: usize, index: u64, count: u64| {
        let g = group_of(index);
        let function = by_position[variant][position_of(g)].function();
        // Aligned starts of this worker's local memory (LOCAL_ALIGN: the
        // kernel's `__local` variables are at offsets aligned for their
        // types from it) and scratch (64 bytes).
        let base = mem.as_mut_ptr() as usize;
        let aligned = (base + LOCAL_GUARD).div_ceil(LOCAL_ALIGN as usize) * LOCAL_ALIGN as usize;
        let scratch = (aligned + local_bytes).div_ceil(64) * 64;
        let ctx = GroupContext {
            args: shared.args.as_ptr(),
            globals: shared.globals.as_ptr(),
            local_mem: aligned as *mut u8,
            sink: &sink as *const LaunchSink as *mut std::ffi::c_void,
            work_dim: dims as u64,
            group_id: g,
            global_size: global,
            global_offset: range.offset,
            num_groups,
            enqueued_local_size: local,
            scratch: scratch as *mut u8,
            group_count: count,
            arg_info: if checked {
                arg_info.as_ptr()
            } else {
                std::ptr::null()
            },
            check_sink: if checked {
                &check_sink as *const crate::check::CheckSink as *mut std::ffi::c_void
            } else {
                std::ptr::null_mut()
            },
        };
        // SAFETY: the compiled function reads `ctx` as abi.rs describes; all
        // pointers in it are valid for the launch.
        unsafe { function(&ctx) };
    };
    // The groups of linear indices `start..end` as calls: one per group, or
    // for a kernel with lane refill, one per run of groups along a row of
    // dimension 0 before its last group (which may be smaller), so that
    // lanes go on to the next group's work-items.
    let run_range = |mem: &mut Vec<u8>, variant: usize, start: u64, end: u64| {
        let mut index = start;
        while index < end {
            let g = group_of(index);
            let refill = by_position[variant][position_of(g)].local.refill && g[0] != last[0];
            let count = if refill {
                (end - index).min(last[0] - g[0]).min(max_refill_groups)
            } else {
                1
            };
            run_groups(mem, variant, index, count);
            index += count;
        }
    };
    let worker_memory =
        || vec![0u8; LOCAL_GUARD + local_bytes + scratch_bytes + LOCAL_ALIGN as usize];
    // Private arrays are in the work-group function's frame (one copy per
    // lane of a gang): the workers' stacks are sized for it.
    let frame = kernel.private_mem_size().saturating_mul(width as u64);
    if frame > MAX_WORKER_STACK {
        return Err(LaunchError::PrivateMemoryTooLarge {
            kernel: kernel.name().to_string(),
            bytes: frame,
            max: MAX_WORKER_STACK,
        });
    }
    let stack = worker_stack(frame);
    // In a trial, blocks of runs spread over the launch take the variants
    // in turn, timed (crate::variant_trial::Sampling); the other runs take
    // the baseline: a candidate much slower than the baseline (scalar code
    // for a kernel that vectorizes well) costs a bounded part of the launch.
    let sampling = Sampling::new(if trial { runs } else { 0 }, variants.len());
    let timings: Mutex<Blocks> = Mutex::new(vec![vec![None; variants.len()]; sampling.blocks()]);
    let lock_timings = || timings.lock().unwrap_or_else(|e| e.into_inner());
    let run_task = |mem: &mut Vec<u8>, r: u64| {
        let (start, end) = (r * run, ((r + 1) * run).min(total_groups));
        let Some((block, variant)) = sampling.slot(r) else {
            return run_range(mem, 0, start, end);
        };
        if variant > 0 && hopeless(&lock_timings(), variant) {
            return run_range(mem, 0, start, end);
        }
        let t = std::time::Instant::now();
        run_range(mem, variant, start, end);
        lock_timings()[block][variant] = Some(Run {
            nanos: t.elapsed().as_nanos() as f64,
            groups: end - start,
        });
    };
    // Code generated at LLVM's -O0 (the quick tier) keeps values in stack
    // slots of their own: its frame grows with the code (megabytes for a
    // long kernel at width 32 with block-IP linearization) and is not
    // known here, so it runs on the workers, whose stacks are at least
    // MIN_WORKER_STACK, not on the launching thread, whose stack may be
    // small (2 MiB for a Rust thread).
    let frame_unknown = tiers_at_start.contains(&Tier::Quick);
    let workers =
        if (threads <= 1 || total_groups == 1) && frame <= CALLER_FRAME_LIMIT && !frame_unknown {
            None
        } else {
            Some(pool(threads, stack)?)
        };
    // How long the work-groups ran (for the tiers: a launch that ran longer
    // than its quick compile took gets the full tier), not counting the
    // launch's set-up or a first launch's starting of the worker threads.
    let running = std::time::Instant::now();
    if let Some(workers) = workers {
        on_workers(&workers, runs, worker_memory, run_task);
    } else {
        let mut mem = worker_memory();
        for r in 0..runs {
            run_task(&mut mem, r);
        }
    }
    // A variant trial's timings compare the variants' optimized code: a
    // launch that ran the quick tier (or saw an upgrade) records nothing,
    // unless only the quick tier is ever compiled.
    let comparable = tiers_of() == tiers_at_start
        && (ctx.tiering() == Tiering::Quick || tiers_at_start.iter().all(|&t| t == Tier::Full));
    if trial && comparable {
        let blocks = timings.into_inner().unwrap_or_else(|e| e.into_inner());
        if let Some((measured, kept)) = program.variant_trials.record(trial_key, &picked, &blocks) {
            crate::variant_trial::log_decision(
                kernel.name(),
                &trial_key,
                picked[0],
                &measured,
                kept,
            );
        }
    }
    for k in variants.iter().flat_map(|(_, specs)| specs.values()) {
        k.launched(running.elapsed());
    }
    drop(byval);
    // A barrier divergence, then a device enqueue's failure, stops the launch.
    let failure = [sink.divergence, sink.device_error]
        .into_iter()
        .find_map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()));
    if let Some(message) = failure {
        return Err(LaunchError::Execution {
            kernel: kernel.name().to_string(),
            message,
        });
    }
    let printf_output = sink.printf.into_inner().unwrap_or_else(|e| e.into_inner());
    Ok(LaunchReport {
        printf_output,
        diagnostics: check_sink.into_reports(),
        ..Default::default()
    })
}

/// A work-item's device enqueue operation, from generated code
/// ([`runtime_symbols::DEVICE_ENQUEUE`]): carried out on the launch's
/// device work. A panic is caught (never unwound into generated code) and
/// gives 0; a fault is kept to fail the launch with.
///
/// # Safety
/// Called by generated code with the launch's live sink and `nargs`
/// operand bits at `args`.
unsafe extern "C" fn lockstep_rt_device_enqueue(
    sink: *mut std::ffi::c_void,
    op: u32,
    kernel: u32,
    nargs: u64,
    args: *const u64,
) -> u64 {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // SAFETY: the caller's contract above.
        unsafe { rt_device_enqueue(sink, op, kernel, nargs, args) }
    }))
    .unwrap_or(0)
}

/// [`lockstep_rt_device_enqueue`]'s body.
///
/// # Safety
/// As for [`lockstep_rt_device_enqueue`].
unsafe fn rt_device_enqueue(
    sink: *mut std::ffi::c_void,
    op: u32,
    kernel: u32,
    nargs: u64,
    args: *const u64,
) -> u64 {
    let sink = &*(sink as *const LaunchSink);
    let Some(op) = lockstep_ir::DeviceOp::from_code(op) else {
        return 0;
    };
    let kernel = (kernel != u32::MAX).then(|| FuncId::from_u32(kernel));
    let args = std::slice::from_raw_parts(args, nargs as usize);
    let result = sink.device.lock().unwrap_or_else(|e| e.into_inner()).call(
        sink.module,
        op,
        kernel,
        args,
        &mut HostMemory,
    );
    match result {
        Ok(bits) => bits,
        Err(fault) => {
            let mut error = sink.device_error.lock().unwrap_or_else(|e| e.into_inner());
            error.get_or_insert_with(|| format!("{op}: {fault}"));
            0
        }
    }
}

/// `printf` from generated code: formats one work-item's call. A panic in
/// the formatter must not unwind into generated code (it would abort the
/// process): it is caught and the call returns -1.
///
/// # Safety
/// Called by generated code with a live sink, a NUL-terminated format and
/// `nargs` argument bits and type codes.
unsafe extern "C" fn lockstep_rt_printf(
    sink: *mut std::ffi::c_void,
    format: *const u8,
    nargs: u64,
    bits: *const u64,
    types: *const u8,
) -> i32 {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // SAFETY: the caller's contract above.
        unsafe { rt_printf(sink, format, nargs, bits, types) }
    }))
    .unwrap_or(-1)
}

/// [`lockstep_rt_printf`]'s body.
///
/// # Safety
/// As for [`lockstep_rt_printf`].
unsafe fn rt_printf(
    sink: *mut std::ffi::c_void,
    format: *const u8,
    nargs: u64,
    bits: *const u64,
    types: *const u8,
) -> i32 {
    let sink = &*(sink as *const LaunchSink);
    let fmt = std::ffi::CStr::from_ptr(format as *const std::ffi::c_char).to_string_lossy();
    let args: Vec<(u64, Type)> = (0..nargs as usize)
        .map(|i| (*bits.add(i), type_of_code(*types.add(i))))
        .collect();
    let mut read_string = |addr: u64| -> Result<Vec<u8>, ()> {
        if addr == 0 {
            return Err(());
        }
        Ok(std::ffi::CStr::from_ptr(addr as *const std::ffi::c_char)
            .to_bytes()
            .to_vec())
    };
    match lockstep_interp::printf::format(&fmt, &args, &mut read_string) {
        Ok(text) => {
            sink.printf
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push_str(&text);
            0
        }
        Err(_) => -1,
    }
}

/// A gang reached a barrier without all its work-items (see
/// [`runtime_symbols::BARRIER_DIVERGED`]): the first such report of the
/// launch is kept, and the launch fails with it.
///
/// # Safety
/// Called by generated code with the launch's live sink and context.
unsafe extern "C" fn lockstep_rt_barrier_diverged(
    sink: *mut std::ffi::c_void,
    ctx: *const GroupContext,
    line: u64,
    first_id: u64,
    arrived: u64,
    active: u64,
) {
    // SAFETY: the caller's contract above.
    let (sink, ctx) = unsafe { (&*(sink as *const LaunchSink), &*ctx) };
    let mut divergence = sink.divergence.lock().unwrap_or_else(|e| e.into_inner());
    if divergence.is_some() {
        return;
    }
    let ids = |bits: u64| -> Vec<u64> {
        (0..64)
            .filter(|l| bits >> l & 1 != 0)
            .map(|l| first_id + l)
            .collect()
    };
    let at = if line == 0 {
        "a barrier".to_string()
    } else {
        format!("the barrier at line {line}")
    };
    let g = ctx.group_id;
    let others = if arrived == 0 {
        "other work-items of the group reached".to_string()
    } else {
        format!(
            "work-items {} reached",
            lockstep_interp::id_ranges(&ids(arrived), "..=")
        )
    };
    *divergence = Some(format!(
        "barrier divergence in work-group ({}, {}, {}): work-items {} (local linear ids) did not reach {at}, which {others} (they returned or took another path); OpenCL requires every work-item of a work-group to reach each barrier, so the work-group stopped there. `lockstep run --engine interp --check` (LOCKSTEP_CHECK=full for an OpenCL program) shows where each work-item went",
        g[0],
        g[1],
        g[2],
        lockstep_interp::id_ranges(&ids(active & !arrived), "..="),
    ));
}

/// An exact conversion with a directed rounding mode, for generated code
/// (a panic is caught, never unwound into generated code: the result is
/// then the input bits).
extern "C" fn lockstep_rt_convert(
    bits: u64,
    from: u32,
    to: u32,
    op: u32,
    rounding: u32,
    saturate: u32,
) -> u64 {
    std::panic::catch_unwind(|| rt_convert(bits, from, to, op, rounding, saturate)).unwrap_or(bits)
}

/// [`lockstep_rt_convert`]'s body.
fn rt_convert(bits: u64, from: u32, to: u32, op: u32, rounding: u32, saturate: u32) -> u64 {
    let (from, to) = (type_of_code(from as u8), type_of_code(to as u8));
    let op = ConvertOp::ALL
        .get(op as usize)
        .copied()
        .unwrap_or(ConvertOp::Bitcast);
    let mode = Rounding::ALL
        .get(rounding as usize)
        .copied()
        .unwrap_or(Rounding::Rte);
    let _ = saturate;
    let sext = |b: u64, t: Type| -> i128 {
        let shift = 64 - t.bits();
        (((b << shift) as i64) >> shift) as i128
    };
    match op {
        ConvertOp::SiToFp => convert::int_to_float(sext(bits, from), Format::of(to), mode),
        ConvertOp::UiToFp => {
            convert::int_to_float((bits & from.int_mask()) as i128, Format::of(to), mode)
        }
        ConvertOp::FpTrunc | ConvertOp::FpExt => {
            convert::float_to_float(bits, Format::of(from), Format::of(to), mode)
        }
        _ => bits,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn by_value_arguments_are_aligned_for_any_vector() {
        for len in [1, 4, 16, 64, 100, 128, 129, 1024] {
            let bytes: Vec<u8> = (0..len).map(|i| i as u8).collect();
            let copy = super::ByValue::new(&bytes);
            assert_eq!(copy.as_ptr() as usize % 128, 0, "{len} bytes");
            // SAFETY: the copy holds at least `len` bytes.
            let back = unsafe { std::slice::from_raw_parts(copy.as_ptr(), len) };
            assert_eq!(back, &bytes[..]);
        }
    }
}
