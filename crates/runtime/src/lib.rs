//! The runtime: contexts, programs, kernels, buffers and launches over 1-3D
//! NDRanges.
//!
//! The runtime compiles nothing itself: a context is made with a
//! [`Toolchain`] (`lockstep_llvm::context()` makes one with clang and LLVM),
//! which builds its programs and compiles their kernels for the SIMD engine.
//!
//! ```
//! use std::sync::Arc;
//! use lockstep_runtime::{Buffer, Context, NDRange, Program, Toolchain};
//!
//! fn saxpy(toolchain: Arc<dyn Toolchain>) {
//!     let ctx = Context::new(toolchain);
//!     let program = Program::build(&ctx, "
//!         kernel void saxpy(float a, global const float *x, global float *y) {
//!             size_t i = get_global_id(0);
//!             y[i] = a * x[i] + y[i];
//!         }", "").expect("builds");
//!     let x = Buffer::from_slice(&[1.0f32, 2.0, 3.0, 4.0]);
//!     let y = Buffer::from_slice(&[10.0f32; 4]);
//!     let mut kernel = program.kernel("saxpy").unwrap();
//!     kernel.set_arg(0, 2.0f32).unwrap();
//!     kernel.set_arg(1, &x).unwrap();
//!     kernel.set_arg(2, &y).unwrap();
//!     ctx.launch(&kernel, &NDRange::new_1d(4).local([2, 1, 1])).unwrap();
//!     assert_eq!(y.read(), vec![12.0, 14.0, 16.0, 18.0]);
//! }
//! ```

mod buffer;
mod check;
mod device;
pub mod device_queues;
mod error;
pub mod executor;
pub mod fuzz;
pub mod image;
mod kernel;
mod ndrange;
pub mod pipe;
pub mod sim;
mod simd;
mod tiers;
pub mod toolchain;
mod variant_trial;

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, OnceLock};

use lockstep_interp as interp;
use lockstep_ir as ir;

pub use buffer::{
    fill_bytes, lock_all, Access, AllocError, Buffer, Pod, Storage, StorageGuard, BUFFER_ALIGN,
};
pub use device::{Device, SimdFeatures};
pub use device_queues::{DeviceQueueError, DeviceQueues};
pub use error::{BinaryError, BuildError, EngineError, LaunchError};
pub use image::{
    AddressingMode, FilterMode, Image, ImageDesc, ImageError, ImageFormat, ImageType, Sampler,
};
pub use kernel::{
    pick_local_size, ArgKind, ArgMeta, ArgValue, Bytes, Kernel, LocalMem, ScalarKind,
};
pub use lockstep_passes::pipeline::{Linearization, RefillMode, Settings, Spec};
pub use ndrange::NDRange;
pub use pipe::{Pipe, PipeError};
pub use tiers::{wait_for_upgrades, Tiering, QUICK_TIER_MAX_ITEMS};
pub use toolchain::{BuildFlags, Built, CompiledKernel, Source, Target, Tier, Toolchain};

/// The largest work-group Lockstep runs.
pub const MAX_WORK_GROUP_SIZE: u64 = 4096;

/// The most worker threads a context runs launches on (`--threads`,
/// `LOCKSTEP_THREADS`): far more than any host's cores, few enough that
/// starting them is quick.
pub const MAX_THREADS: usize = 1024;

/// The most `__local` memory a work-group's arguments may ask for, in bytes
/// (`CL_DEVICE_LOCAL_MEM_SIZE`): each worker holds one group's local memory,
/// and this much fits in a core's L2 cache.
pub const MAX_LOCAL_MEM_SIZE: u64 = 256 * 1024;

/// Which engine runs kernels.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// The reference interpreter: one work-item at a time, exact semantics.
    Interpreter,
    /// Compiled code running W work-items per SIMD instruction, all cores
    /// busy. Kernels it does not run yet (divergent irreducible loops) run
    /// on the interpreter, and the launch report says so.
    #[default]
    Simd,
}

impl Engine {
    /// The engines this build can run kernels on.
    pub const AVAILABLE: &'static [Engine] = &[Engine::Interpreter, Engine::Simd];

    /// The short name `--engine` takes.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Interpreter => "interp",
            Engine::Simd => "simd",
        }
    }
}

impl std::fmt::Display for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Engine::Interpreter => f.write_str("interpreter"),
            Engine::Simd => f.write_str("SIMD"),
        }
    }
}

/// An engine by its short name: `interp` (or `interpreter`), `simd`.
impl std::str::FromStr for Engine {
    type Err = EngineError;

    fn from_str(name: &str) -> Result<Engine, EngineError> {
        match name {
            "interp" | "interpreter" => Ok(Engine::Interpreter),
            "simd" => Ok(Engine::Simd),
            _ => Err(EngineError::Unknown {
                name: name.to_string(),
            }),
        }
    }
}

/// What checked mode on the SIMD engine diagnoses, and what it does not
/// (printed once by the tools that turn it on).
pub const SIMD_CHECK_SCOPE: &str = "checked mode on the SIMD engine reports out-of-bounds accesses (and skips them), misaligned accesses, and writes to read-only or reads of write-only buffers; it does not detect data races, uninitialized values or misused async copies: for those, run on the interpreter (--engine interp --check, or LOCKSTEP_CHECK=full)";

/// Where programs are built and kernels launched.
#[derive(Clone, Debug)]
pub struct Context {
    /// What builds the programs and compiles their kernels.
    toolchain: Arc<dyn Toolchain>,
    /// The device, described at first use (shared by clones).
    device: Arc<OnceLock<Device>>,
    engine: Engine,
    checked: bool,
    /// SIMD width (work-items per gang); the host's best when `None`.
    width: Option<u32>,
    /// Worker threads; one per core when `None` (or `LOCKSTEP_THREADS`).
    threads: Option<usize>,
    /// How the SIMD engine linearizes divergent control flow.
    linearization: Linearization,
    /// Whether kernels run with lane refill (`LOCKSTEP_REFILL`, else auto).
    refill: RefillMode,
    /// The interpreter runs kernels as the pass pipeline leaves them.
    interpret_after_passes: bool,
    /// Launches made with [`Context::launch_async`] not finished yet, run
    /// in order (shared by clones).
    launches: Arc<AsyncLaunches>,
    /// Which tiers kernels compile at (`LOCKSTEP_TIER`, else auto).
    tiering: Tiering,
    /// The device queues kernels may enqueue to (shared by clones).
    device_queues: DeviceQueues,
}

/// What a launch produced besides writing its buffers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LaunchReport {
    /// Everything the kernel printed with `printf`, in order.
    pub printf_output: String,
    /// Checked-mode findings (data races, uninitialized values, barrier
    /// divergence, ...), with locations.
    pub diagnostics: Vec<String>,
    /// Set when a SIMD launch ran on the interpreter instead, with why (a
    /// NULL buffer the kernel may access: the interpreter checks every
    /// access and reports the faulting one).
    pub fallback: Option<String>,
    /// When the launched kernel's own work-items had all run. The launch
    /// returns once the kernels it enqueued on the device (and those
    /// enqueued, transitively) have run too: for the OpenCL platform, the
    /// command's `CL_PROFILING_COMMAND_END`, before its `COMPLETE`.
    pub kernel_ended: Option<std::time::Instant>,
    /// How many kernels the launch enqueued on the device, transitively.
    pub enqueued: u64,
}

impl Context {
    /// A context whose programs `toolchain` builds, on the SIMD engine.
    pub fn new(toolchain: Arc<dyn Toolchain>) -> Context {
        Context {
            toolchain,
            device: Arc::default(),
            engine: Engine::default(),
            checked: false,
            width: None,
            threads: None,
            linearization: Linearization::default(),
            refill: refill_from_env(),
            interpret_after_passes: false,
            launches: Arc::default(),
            tiering: Tiering::from_env(),
            device_queues: DeviceQueues::with_default(),
        }
    }

    /// The device queues kernels launched in this context may enqueue to
    /// (OpenCL C 2.0 `enqueue_kernel`): a new context has a default device
    /// queue of the preferred size (which `get_default_queue` gives), and
    /// the host may add others or replace it (see [`DeviceQueues`]).
    pub fn device_queues(&self) -> &DeviceQueues {
        &self.device_queues
    }

    /// Launches in this context (and clones made after) use `queues` as
    /// their device queues: the OpenCL platform gives each device of a
    /// context its own.
    pub fn set_device_queues(&mut self, queues: DeviceQueues) {
        self.device_queues = queues;
    }

    /// This context, running kernels on `engine`.
    pub fn with_engine(mut self, engine: Engine) -> Context {
        self.engine = engine;
        self
    }

    /// The device kernels run on: the host CPU, with the SIMD features of
    /// the CPU the toolchain compiles for.
    pub fn device(&self) -> &Device {
        self.device
            .get_or_init(|| Device::new(self.toolchain.target()))
    }

    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// Checked mode: launches report bad memory accesses. On the SIMD
    /// engine the compiled code checks every access against the object its
    /// pointer came from (bounds — an access out of bounds is skipped —,
    /// alignment, read-only and write-only buffers: [`SIMD_CHECK_SCOPE`]);
    /// the interpreter also reports data races, uses of uninitialized
    /// values, division by zero and barrier divergence. Reports are in
    /// [`LaunchReport::diagnostics`].
    pub fn set_checked(&mut self, checked: bool) {
        self.checked = checked;
    }

    /// Sets the SIMD width (4, 8, 16 or 32 work-items per gang).
    pub fn set_width(&mut self, width: u32) {
        self.width = Some(width);
    }

    /// The SIMD width launches use: the setting, else the device's.
    pub fn width(&self) -> u32 {
        self.width.unwrap_or_else(|| self.device().simd_width)
    }

    /// The SIMD width `kernel` runs at, which is also its subgroup size:
    /// the one it requires (`intel_reqd_sub_group_size`), else the
    /// setting, else the device's or twice that for a kernel whose loops
    /// are latency-bound ([`lockstep_passes::analysis::gang_width`]).
    pub fn kernel_width(&self, kernel: &Kernel) -> u32 {
        if let Some(width) = kernel.required_sub_group_size() {
            return width;
        }
        if let Some(width) = self.width {
            return width;
        }
        self.gang_width(kernel).width
    }

    /// The compiler's choice of width for `kernel` on this device, cached
    /// per program.
    fn gang_width(&self, kernel: &Kernel) -> lockstep_passes::analysis::GangWidth {
        let device_width = self.device().simd_width;
        let program = &kernel.program;
        let mut widths = program
            .gang_widths
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        widths
            .entry((kernel.func, device_width))
            .or_insert_with(|| {
                let func = &program.module.functions[kernel.func];
                lockstep_passes::analysis::gang_width(func, device_width)
            })
            .clone()
    }

    /// Whether launches of `kernel` also try it one lane per gang (see
    /// [`lockstep_passes::analysis::gang_width`]): when its width is the
    /// compiler's to choose and the compiler proposes it.
    pub(crate) fn tries_one_lane(&self, kernel: &Kernel) -> bool {
        self.width.is_none()
            && kernel.required_sub_group_size().is_none()
            && self.gang_width(kernel).one_lane.is_some()
    }

    /// Whether launches of `kernel` in work-groups of `local` also try it
    /// at the width `wider`, twice its own (see
    /// [`lockstep_passes::analysis::gang_width`]): when its width is the
    /// compiler's to choose and the compiler proposes it (for some kernels,
    /// only if such a gang stays within a row of the work-group).
    pub(crate) fn tries_wider(&self, kernel: &Kernel, local: [u64; 3], wider: u32) -> bool {
        let proposal = self.gang_width(kernel);
        let within_rows = local[1] * local[2] == 1 || local[0].is_multiple_of(wider as u64);
        self.width.is_none()
            && kernel.required_sub_group_size().is_none()
            && proposal.wider.is_some()
            && (within_rows || !proposal.wider_within_rows)
    }

    /// Sets how the `linearize` pass turns divergent control flow into
    /// masks (per-block masks, the default, or block-IP), for the SIMD
    /// engine and for the interpreter after the passes.
    pub fn set_linearization(&mut self, linearization: Linearization) {
        self.linearization = linearization;
    }

    pub fn linearization(&self) -> Linearization {
        self.linearization
    }

    /// Sets whether kernels run with lane refill: `on` for every eligible
    /// kernel, `auto` where the cost model expects a gain, `off`.
    pub fn set_refill(&mut self, refill: RefillMode) {
        self.refill = refill;
    }

    pub fn refill(&self) -> RefillMode {
        self.refill
    }

    /// Sets which tiers kernels compile at ([`Tiering`]): the quick tier
    /// first and the optimized one in the background (auto), or only one.
    pub fn set_tiering(&mut self, tiering: Tiering) {
        self.tiering = tiering;
    }

    pub fn tiering(&self) -> Tiering {
        self.tiering
    }

    /// The passes' settings launches use (checked code runs without lane
    /// refill: its reports name each lane's work-item by the group's ids).
    pub fn settings(&self) -> Settings {
        Settings {
            linearization: self.linearization,
            refill: if self.checked {
                RefillMode::Off
            } else {
                self.refill
            },
        }
    }

    /// Whether launches run checked ([`Context::set_checked`]).
    pub fn checked(&self) -> bool {
        self.checked
    }

    /// Makes the interpreter run each kernel as the pass pipeline leaves it
    /// (specialized for the launch's local size and this context's SIMD
    /// width) instead of as imported: the passes' output checked against
    /// the same oracle, without code generation.
    pub fn set_interpret_after_passes(&mut self, on: bool) {
        self.interpret_after_passes = on;
    }

    /// Sets the number of worker threads (1 to [`MAX_THREADS`]; others
    /// are clamped to that range).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = Some(threads.clamp(1, MAX_THREADS));
    }

    /// The number of worker threads launches use: the setting, else
    /// `LOCKSTEP_THREADS`, else one per core; at most [`MAX_THREADS`].
    pub fn threads(&self) -> usize {
        self.threads
            .or_else(|| {
                std::env::var("LOCKSTEP_THREADS")
                    .ok()
                    .and_then(|t| t.parse().ok())
            })
            .unwrap_or_else(simd::cores)
            .clamp(1, MAX_THREADS)
    }

    /// The vectorization report of `kernel` specialized for `local_size`
    /// on the SIMD engine (compiling it if needed).
    pub fn simd_report(
        &self,
        kernel: &Kernel,
        local_size: [u32; 3],
    ) -> Result<String, LaunchError> {
        let spec = Spec {
            local_size,
            width: self.kernel_width(kernel),
            linearization: self.linearization,
            refill: self.settings().refill,
            checked: self.checked,
            // As launched with buffers below 2 GiB.
            small_buffers: true,
        };
        Ok(
            simd::compiled(&kernel.program, kernel.func, spec, self.tiering)?
                .report
                .to_string(),
        )
    }

    /// The tier of `kernel`'s code specialized for `local_size` under this
    /// context's settings, if it has been compiled ([`Tiering`]).
    pub fn compiled_tier(&self, kernel: &Kernel, local_size: [u32; 3]) -> Option<Tier> {
        let spec = Spec {
            local_size,
            width: self.kernel_width(kernel),
            linearization: self.linearization,
            refill: self.settings().refill,
            checked: self.checked,
            // As launched with buffers below 2 GiB.
            small_buffers: true,
        };
        let cache = kernel
            .program
            .simd_cache
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        cache.get(&(kernel.func, spec)).map(|k| k.tier())
    }

    /// Runs `kernel` over `range` after validating its arguments and the
    /// range, and returns when it has run. Launches made before with
    /// [`Context::launch_async`] on this context (or a clone) run first.
    pub fn launch(&self, kernel: &Kernel, range: &NDRange) -> Result<LaunchReport, LaunchError> {
        self.launches.wait_idle();
        self.launch_now(kernel, range)
    }

    /// Starts `kernel` over `range` and returns at once: the launch runs on
    /// a background thread (its work-groups on the worker pool as for
    /// [`Context::launch`]) while the caller goes on. The kernel's
    /// arguments are taken as they are now; the buffers stay alive until it
    /// has run. Launches of one context (and its clones) run in the order
    /// they were made, asynchronous or not. Reading a buffer the launch
    /// writes before [`LaunchHandle::wait`] returns may see it before the
    /// launch. Errors (invalid arguments or range included) come from
    /// `wait`; dropping the handle lets the launch run unobserved.
    ///
    /// ```
    /// # use lockstep_runtime::{Buffer, Context, Kernel, NDRange};
    /// # fn two(ctx: &Context, k1: &Kernel, k2: &Kernel, out: &Buffer<f32>) {
    /// let first = ctx.launch_async(k1, &NDRange::new_1d(1 << 20));
    /// let second = ctx.launch_async(k2, &NDRange::new_1d(1 << 20)); // after `first`
    /// // ... the host works here while the kernels run ...
    /// first.wait().unwrap();
    /// second.wait().unwrap();
    /// let result = out.read();
    /// # }
    /// ```
    pub fn launch_async(&self, kernel: &Kernel, range: &NDRange) -> LaunchHandle {
        let done = Arc::new(Completion::default());
        let handle = LaunchHandle { done: done.clone() };
        let (ctx, kernel, range) = (self.clone(), kernel.clone(), *range);
        self.launches.push(Box::new(move || {
            // Set even if the launch panics (then as an execution error).
            let mut result = Err(LaunchError::Execution {
                kernel: kernel.name().to_string(),
                message: "the launch panicked (a Lockstep bug)".to_string(),
            });
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                result = ctx.launch_now(&kernel, &range);
            }));
            // The launch's references (buffers, program) go before waiters
            // are told it is done.
            drop((ctx, kernel));
            done.set(result);
        }));
        handle
    }

    fn launch_now(&self, kernel: &Kernel, range: &NDRange) -> Result<LaunchReport, LaunchError> {
        let width = self.kernel_width(kernel);
        let local = kernel::validate_range(kernel, range, width)?;
        let mut bound = kernel.bound_args()?;
        kernel::check_local_memory(kernel, &bound)?;
        let null_buffer = match self.engine {
            Engine::Simd => kernel.null_buffer_used(&bound),
            Engine::Interpreter => None,
        };
        // Images whose texels are a buffer's: the SIMD engine reads them
        // in place; the interpreter and checked code know only the memory
        // of each argument, so they run on self-contained copies.
        let in_place = self.engine == Engine::Simd && !self.checked && null_buffer.is_none();
        let staged = if in_place {
            Vec::new()
        } else {
            stage_images(kernel, &mut bound)?
        };
        let result = if let Some(index) = null_buffer {
            self.run_interpreter(kernel, range, local, &bound)
                .map(|mut report| {
                    report.fallback = Some(format!(
                        "argument {index} ('{}') of kernel '{}' is a NULL buffer the kernel may access; it ran on the interpreter, which checks every access",
                        kernel.args()[index].name,
                        kernel.name()
                    ));
                    report
                })
        } else {
            match self.engine {
                Engine::Interpreter => self.run_interpreter(kernel, range, local, &bound),
                Engine::Simd => self.run_simd(kernel, range, local, width, &bound),
            }
        };
        // What the kernel wrote goes back, also after a fault (memory
        // written before it stays written, as in place).
        for (image, copy) in staged {
            image.copy_texels_from(&copy);
        }
        let report = result?;
        if null_buffer.is_some() {
            return Ok(report);
        }
        if self.checked && check::abort_requested() {
            if let Some(first) = report.diagnostics.first() {
                check::abort_with(first);
            }
        }
        Ok(report)
    }

    /// Runs a launch on the SIMD engine: its work-items, then the kernels
    /// they enqueued on the device, each on all cores, in an order their
    /// wait lists allow ([`lockstep_interp::device_queue`]).
    fn run_simd(
        &self,
        kernel: &Kernel,
        range: &NDRange,
        local: [u64; 3],
        width: u32,
        bound: &[ArgValue],
    ) -> Result<LaunchReport, LaunchError> {
        let device = Mutex::new(device_queues::device_work(self, kernel));
        // The launch's buffers stay locked until its children have run too.
        let guards = simd::lock_buffers(bound);
        let mut report = simd::launch(kernel, range, local, width, bound, self, &device)?;
        report.kernel_ended = Some(std::time::Instant::now());
        let device_error = |message: String| LaunchError::Execution {
            kernel: kernel.name().to_string(),
            message: format!("device enqueue: {message}"),
        };
        let lock = || device.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            // Not held while the child runs: its work-items enqueue too.
            let next = lock().next(&mut simd::HostMemory);
            let Some(child) = next.map_err(device_error)? else {
                break;
            };
            let child_report = self.run_simd_child(kernel, &child, &device)?;
            report.printf_output.push_str(&child_report.printf_output);
            report.diagnostics.extend(child_report.diagnostics);
            lock()
                .finish(child.command, &mut simd::HostMemory)
                .map_err(device_error)?;
        }
        let work = lock();
        if work.waiting() > 0 {
            return Err(device_error(format!(
                "{} enqueued command(s) wait for device events that never complete (a user event no work-item set to CL_COMPLETE), so the launch would never end",
                work.waiting()
            )));
        }
        report.enqueued = work.launched();
        drop(guards);
        Ok(report)
    }

    /// Runs one kernel a launch enqueued (`parent` is the launch's own
    /// kernel, for its program): its block literal in aligned memory the
    /// run keeps, its `__local` arguments of the sizes given.
    fn run_simd_child(
        &self,
        parent: &Kernel,
        child: &interp::device_queue::ChildLaunch,
        device: &Mutex<interp::device_queue::DeviceWork>,
    ) -> Result<LaunchReport, LaunchError> {
        let mut kernel = Kernel::for_func(parent.program.clone(), child.kernel);
        let block = simd::ByValue::new(&child.block);
        let addr = block.as_ptr() as u64;
        kernel.set_arg(
            0,
            ArgValue::Pointer {
                addr,
                allocation: Some((addr, child.block.len() as u64)),
            },
        )?;
        for (i, &size) in child.local_sizes.iter().enumerate() {
            kernel.set_arg(i + 1, ArgValue::Local(size as usize))?;
        }
        let range = NDRange::new(child.work_dim, child.global_size)
            .local(child.local_size)
            .offset(child.global_offset);
        let width = self.kernel_width(&kernel);
        let local = kernel::validate_range(&kernel, &range, width)?;
        let bound = kernel.bound_args()?;
        kernel::check_local_memory(&kernel, &bound)?;
        // No buffer arguments to lock: the block's pointers are to the
        // launch's buffers (locked by `run_simd`) or shared memory.
        let report = simd::launch(&kernel, &range, local, width, &bound, self, device);
        drop(block);
        report
    }

    fn run_interpreter(
        &self,
        kernel: &Kernel,
        range: &NDRange,
        local: [u64; 3],
        bound: &[ArgValue],
    ) -> Result<LaunchReport, LaunchError> {
        // Lock every buffer once, then hand the interpreter disjoint
        // slices: a buffer (or pipe) given again is the earlier argument's
        // memory; ranges that overlap otherwise cannot be regions of their
        // own.
        let mut seen: Vec<(usize, usize, usize)> = Vec::new();
        let mut same_as: Vec<Option<usize>> = vec![None; bound.len()];
        for (i, arg) in bound.iter().enumerate() {
            if let ArgValue::Buffer(storage) = arg {
                let (start, len) = (storage.id(), storage.len());
                if let Some(&(_, _, first)) = seen.iter().find(|&&(s, l, _)| s == start && l == len)
                {
                    same_as[i] = Some(first);
                    continue;
                }
                if let Some(&(_, _, first)) = seen
                    .iter()
                    .find(|&&(s, l, _)| start < s + l.max(1) && s < start + len.max(1))
                {
                    return Err(LaunchError::AliasedBuffers {
                        kernel: kernel.name().to_string(),
                        first,
                        second: i,
                    });
                }
                seen.push((start, len, i));
            }
        }
        let system_pointer = bound.iter().position(|a| {
            matches!(
                a,
                ArgValue::Pointer {
                    allocation: None,
                    ..
                }
            )
        });
        if let Some(index) = system_pointer {
            return Err(LaunchError::SystemPointer {
                kernel: kernel.name().to_string(),
                index,
            });
        }
        // An SVM pointer's slice must not overlap another argument's.
        let span = |a: &ArgValue| match a {
            ArgValue::Buffer(s) => Some((s.as_ptr() as u64, s.as_ptr() as u64 + s.len() as u64)),
            ArgValue::Pointer {
                addr,
                allocation: Some((start, len)),
            } => Some((*addr, start + len)),
            _ => None,
        };
        for (i, a) in bound.iter().enumerate() {
            let (Some((a0, a1)), ArgValue::Pointer { .. }) = (span(a), a) else {
                continue;
            };
            let overlap = bound
                .iter()
                .enumerate()
                .find(|&(j, b)| j != i && span(b).is_some_and(|(b0, b1)| a0 < b1 && b0 < a1));
            if let Some((j, _)) = overlap {
                return Err(LaunchError::AliasedBuffers {
                    kernel: kernel.name().to_string(),
                    first: i.min(j),
                    second: i.max(j),
                });
            }
        }
        let guards = lock_all(bound.iter().filter_map(|a| match a {
            ArgValue::Buffer(s) => Some((&**s, Access::Write)),
            _ => None,
        }));
        let mut args: Vec<interp::KernelArg> = bound
            .iter()
            .zip(&same_as)
            .map(|(a, same)| match a {
                ArgValue::Buffer(_) if same.is_some() => {
                    interp::KernelArg::SameAs(same.unwrap_or_default())
                }
                // SAFETY: the write lock of each (distinct) buffer is held in `guards`.
                ArgValue::Buffer(s) => interp::KernelArg::Buffer(unsafe {
                    std::slice::from_raw_parts_mut(s.as_ptr(), s.len())
                }),
                ArgValue::Null => interp::KernelArg::Null,
                // The interpreter addresses memory by region: an SVM pointer
                // is the rest of its allocation (unlocked: shared memory).
                // SAFETY: the application keeps the allocation alive while
                // kernels use it (the API's contract).
                ArgValue::Pointer {
                    addr,
                    allocation: Some((start, len)),
                } => interp::KernelArg::Buffer(unsafe {
                    std::slice::from_raw_parts_mut(
                        *addr as *mut u8,
                        (start + len).saturating_sub(*addr) as usize,
                    )
                }),
                ArgValue::Local(n) => interp::KernelArg::Local(*n),
                ArgValue::Scalar(_, bytes) => interp::KernelArg::Scalar(bytes.clone()),
                ArgValue::Bytes(bytes) => interp::KernelArg::ByVal(bytes.clone()),
                ArgValue::Pointer { .. } => unreachable!("system pointers were refused above"),
                ArgValue::Image(..) | ArgValue::Sampler(_) | ArgValue::Pipe(_) => {
                    unreachable!("set_arg binds these as Buffer / Scalar, launch_now stages images")
                }
            })
            .collect();
        let nd = interp::NdRange {
            work_dim: range.dims,
            global_size: range.global,
            local_size: local,
            global_offset: range.offset,
        };
        // Checked mode: the buffers the kernel must not write or read.
        let (mut read_only_args, mut write_only_args) = (0u64, 0u64);
        if self.checked {
            let info = check::arg_info(kernel, bound);
            for (i, flags) in info.chunks(2).map(|c| c[1]).enumerate().take(64) {
                if flags & lockstep_ir::abi::arg_flags::READ_ONLY != 0 {
                    read_only_args |= 1 << i;
                } else if flags & lockstep_ir::abi::arg_flags::WRITE_ONLY != 0 {
                    write_only_args |= 1 << i;
                }
            }
        }
        let opts = interp::Options {
            checked: self.checked,
            max_steps: None,
            sub_group_size: Some(self.kernel_width(kernel)),
            read_only_args,
            write_only_args,
        };
        let transformed;
        let module = if self.interpret_after_passes {
            // One specialization runs every group: a dimension whose last
            // group is smaller has no one local size.
            let mut sizes = local;
            for d in 0..3 {
                if range.global[d] % local[d].max(1) != 0 {
                    sizes[d] = 0;
                }
            }
            transformed = self.after_passes(kernel, sizes)?;
            &transformed
        } else {
            &kernel.program.module
        };
        let device = device_queues::device_work(self, kernel);
        let result =
            interp::run_kernel_with_device(module, kernel.func, &mut args, &nd, &opts, device);
        drop(args);
        drop(guards);
        let report = result.map_err(|e| LaunchError::Execution {
            kernel: kernel.name().to_string(),
            message: execution_message(&e, &kernel.program.source_name),
        })?;
        Ok(LaunchReport {
            kernel_ended: report.kernel_ended,
            enqueued: report.enqueued,
            printf_output: report.printf_output,
            diagnostics: report
                .diagnostics
                .iter()
                .map(|d| {
                    check::interp_report(
                        d,
                        kernel.name(),
                        &kernel.program.source_name,
                        kernel.program.source_text.as_deref(),
                    )
                })
                .collect(),
            fallback: None,
        })
    }
}

/// A launch made with [`Context::launch_async`]: wait for its result.
#[must_use = "a launch's errors come from `wait`"]
pub struct LaunchHandle {
    done: Arc<Completion>,
}

impl LaunchHandle {
    /// Blocks until the launch has run; its report or error.
    pub fn wait(self) -> Result<LaunchReport, LaunchError> {
        let mut result = self.done.result.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(r) = result.take() {
                return r;
            }
            result = self
                .done
                .set
                .wait(result)
                .unwrap_or_else(|e| e.into_inner());
        }
    }

    /// True once the launch has run (then [`LaunchHandle::wait`] returns
    /// at once).
    pub fn is_done(&self) -> bool {
        self.done
            .result
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some()
    }
}

impl std::fmt::Debug for LaunchHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LaunchHandle")
            .field("done", &self.is_done())
            .finish()
    }
}

/// Where an asynchronous launch leaves its result.
#[derive(Default)]
struct Completion {
    result: Mutex<Option<Result<LaunchReport, LaunchError>>>,
    set: Condvar,
}

impl Completion {
    fn set(&self, result: Result<LaunchReport, LaunchError>) {
        *self.result.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
        self.set.notify_all();
    }
}

type AsyncJob = Box<dyn FnOnce() + Send>;

/// A context's asynchronous launches: run one at a time, in order, by a
/// job on the [`executor`] while any are pending.
#[derive(Default)]
struct AsyncLaunches {
    state: Mutex<AsyncState>,
    /// Signalled after each launch.
    idle: Condvar,
}

#[derive(Default)]
struct AsyncState {
    pending: VecDeque<AsyncJob>,
    /// An executor job is running the pending launches.
    running: bool,
    /// Launches pushed and launches run, ever: what [`AsyncLaunches::wait_idle`]
    /// waits for.
    pushed: u64,
    finished: u64,
}

impl std::fmt::Debug for AsyncLaunches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        f.debug_struct("AsyncLaunches")
            .field("pending", &state.pending.len())
            .field("running", &state.running)
            .finish()
    }
}

impl AsyncLaunches {
    fn push(self: &Arc<Self>, job: AsyncJob) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.pending.push_back(job);
        state.pushed += 1;
        if !state.running {
            state.running = true;
            let this = self.clone();
            executor::spawn(move || this.drain());
        }
    }

    /// Runs pending launches in order until none is left.
    fn drain(&self) {
        loop {
            let job = {
                let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
                match state.pending.pop_front() {
                    Some(job) => job,
                    None => {
                        state.running = false;
                        return;
                    }
                }
            };
            job();
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            state.finished += 1;
            self.idle.notify_all();
        }
    }

    /// Blocks until every launch pushed so far has run (not those pushed
    /// meanwhile by other threads).
    fn wait_idle(&self) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let target = state.pushed;
        while state.finished < target {
            state = self.idle.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }
}

impl Context {
    /// `kernel`'s module with the kernel as the pass pipeline leaves it for
    /// a work-group of `local` work-items at the kernel's width (0 in a
    /// dimension where groups differ in size) and linearization.
    fn after_passes(&self, kernel: &Kernel, local: [u64; 3]) -> Result<ir::Module, LaunchError> {
        let config = lockstep_passes::analysis::UniformityConfig {
            local_size: local.map(|n| n as u32),
            width: self.kernel_width(kernel),
        };
        lockstep_passes::pipeline::transformed_module(
            &kernel.program.module,
            kernel.func,
            &config,
            self.settings(),
        )
        .map_err(|e| LaunchError::Compile {
            kernel: kernel.name().to_string(),
            message: e.to_string(),
        })
    }
}

/// The refill mode `LOCKSTEP_REFILL` asks for (`off`, `on`, `auto`), else
/// auto; an unknown value is reported once on stderr and ignored.
fn refill_from_env() -> RefillMode {
    static MODE: OnceLock<RefillMode> = OnceLock::new();
    *MODE.get_or_init(|| match std::env::var("LOCKSTEP_REFILL") {
        Ok(v) => v.parse().unwrap_or_else(|e| {
            eprintln!("lockstep: LOCKSTEP_REFILL: {e}; using auto");
            RefillMode::Auto
        }),
        Err(_) => RefillMode::Auto,
    })
}

/// Binds each image argument as the memory holding its descriptor and
/// texels: its own for a self-contained image, a copy for one whose texels
/// are a buffer's. Returns the images a kernel may write with their
/// copies, to copy back after the launch.
fn stage_images(
    kernel: &Kernel,
    bound: &mut [ArgValue],
) -> Result<Vec<(Image, Image)>, LaunchError> {
    let mut staged = Vec::new();
    for (index, arg) in bound.iter_mut().enumerate() {
        let ArgValue::Image(image) = arg else {
            continue;
        };
        if image.is_self_contained() {
            *arg = ArgValue::Buffer(image.storage().clone());
            continue;
        }
        let copy = image
            .self_contained_copy()
            .map_err(|e| LaunchError::ImageCopy {
                kernel: kernel.name().to_string(),
                index,
                message: e.to_string(),
            })?;
        let storage = copy.storage().clone();
        if kernel.args()[index].access != lockstep_ir::AccessQual::ReadOnly {
            staged.push((image.clone(), copy));
        }
        *arg = ArgValue::Buffer(storage);
    }
    Ok(staged)
}

/// The interpreter's error with the source file named in its location
/// (`at program.cl:3:16` rather than `at 3:16`): the IR keeps only line and
/// column.
fn execution_message(e: &interp::InterpError, file: &str) -> String {
    use interp::InterpError as E;
    let text = e.to_string();
    let site = match e {
        E::OutOfBounds { site, .. }
        | E::ReadOnly { site, .. }
        | E::MisalignedAtomic { site, .. }
        | E::StepLimit { site, .. }
        | E::Unreachable { site } => Some(site),
        E::Unsupported { site, .. } => site.as_ref(),
        _ => None,
    };
    match site.and_then(|s| s.loc) {
        Some(loc) => text.replacen(
            &format!("at {}:{}, ", loc.line, loc.col),
            &format!("at {file}:{}:{}, ", loc.line, loc.col),
            1,
        ),
        None => text,
    }
}

/// True if `head` is SPIR-V's magic number, in either byte order.
fn is_spirv_magic(head: [u8; 4]) -> bool {
    const MAGIC: u32 = 0x0723_0203;
    let word = u32::from_le_bytes(head);
    word == MAGIC || word.swap_bytes() == MAGIC
}

/// A built program: its kernels in Lockstep IR, and the build log.
#[derive(Clone)]
pub struct Program {
    pub(crate) inner: Arc<ProgramInner>,
}

pub(crate) struct ProgramInner {
    pub module: ir::Module,
    /// What compiles the kernels for the SIMD engine.
    pub toolchain: Arc<dyn Toolchain>,
    /// The build options.
    pub options: String,
    /// What identifies the program's code in compiled-code cache keys: a
    /// hash of its IR (what headers the source included are in it, unlike
    /// in the source text) and build options, computed at first use.
    code_key: std::sync::OnceLock<String>,
    /// The gang width each kernel runs at when none is set, for a device
    /// width ([`lockstep_passes::analysis::gang_width`]).
    gang_widths: std::sync::Mutex<
        std::collections::HashMap<(ir::FuncId, u32), lockstep_passes::analysis::GangWidth>,
    >,
    /// Lane refill under auto: what the first launches measured.
    pub(crate) variant_trials: variant_trial::VariantTrials,
    /// Compiled SIMD specializations.
    pub simd_cache:
        std::sync::Mutex<std::collections::HashMap<(ir::FuncId, Spec), Arc<CompiledKernel>>>,
    /// Program-scope variables' memory, allocated at the first SIMD launch;
    /// they keep their values across launches.
    globals_memory: std::sync::Mutex<Option<Vec<Buffer<u64>>>>,
    pub log: String,
    /// The name of the source file, for locations in execution errors.
    pub source_name: String,
    /// The source text, when built from OpenCL C (checked mode's reports
    /// show the line).
    pub source_text: Option<String>,
    /// OpenCL 1.x programs (and `-cl-uniform-work-group-size`) need local
    /// sizes that divide the global size.
    pub uniform_groups_required: bool,
}

impl ProgramInner {
    /// The identity of the program's code in compiled-object cache keys:
    /// its IR text and options (not its source text, which does not show
    /// what its headers held).
    pub(crate) fn code_key(&self) -> &str {
        self.code_key.get_or_init(|| {
            use sha2::{Digest, Sha256};
            let mut hasher = Sha256::new();
            for part in [
                b"program code".as_slice(),
                ir::module_to_string(&self.module).as_bytes(),
                self.options.as_bytes(),
            ] {
                // Length-prefixed: no two lists of parts hash alike by
                // concatenation.
                hasher.update((part.len() as u64).to_le_bytes());
                hasher.update(part);
            }
            hasher
                .finalize()
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect()
        })
    }

    /// The addresses of the program-scope variables by `GlobalId` (0 for
    /// `local` ones), allocating and initializing them on first use.
    pub(crate) fn global_addresses(&self) -> Vec<u64> {
        let mut memory = self
            .globals_memory
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let blocks = memory.get_or_insert_with(|| {
            let blocks: Vec<Buffer<u64>> = self
                .module
                .globals
                .values()
                .map(|g| {
                    let words = if g.space == ir::AddrSpace::Local {
                        0
                    } else {
                        (g.size as usize).div_ceil(8)
                    };
                    let b = Buffer::<u64>::zeroed(words.max(1));
                    if let Some(init) = &g.init {
                        let mut bytes = vec![0u8; words.max(1) * 8];
                        bytes[..init.len()].copy_from_slice(init);
                        let words: Vec<u64> = bytes
                            .chunks_exact(8)
                            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
                            .collect();
                        b.write(&words);
                    }
                    b
                })
                .collect();
            // Relocations: addresses of other variables inside initial values.
            let addrs: Vec<u64> = blocks.iter().map(|b| b.storage.id() as u64).collect();
            for (g, block) in self.module.globals.values().zip(&blocks) {
                if g.relocs.is_empty() {
                    continue;
                }
                let mut bytes = block.read_bytes();
                for r in &g.relocs {
                    let target = addrs[cranelift_entity::EntityRef::index(r.target)]
                        .wrapping_add(r.addend as u64);
                    bytes[r.offset as usize..r.offset as usize + 8]
                        .copy_from_slice(&target.to_le_bytes());
                }
                let words: Vec<u64> = bytes
                    .chunks_exact(8)
                    .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
                    .collect();
                block.write(&words);
            }
            blocks
        });
        self.module
            .globals
            .values()
            .zip(blocks.iter())
            .map(|(g, b)| {
                if g.space == ir::AddrSpace::Local {
                    0
                } else {
                    b.storage.id() as u64
                }
            })
            .collect()
    }
}

impl Program {
    /// Builds OpenCL C source with `clBuildProgram`-style options.
    pub fn build(ctx: &Context, source: &str, options: &str) -> Result<Program, BuildError> {
        Program::build_source(ctx, &Source::from_string("program.cl", source), options)
    }

    /// Builds an OpenCL C file (its directory is on the include path), or
    /// a SPIR-V module: a file named `*.spv` or starting with SPIR-V's
    /// magic number.
    pub fn from_file(
        ctx: &Context,
        path: &std::path::Path,
        options: &str,
    ) -> Result<Program, BuildError> {
        let read_error = |e: std::io::Error| BuildError::Read {
            path: path.to_path_buf(),
            message: e.to_string(),
        };
        let mut head = [0u8; 4];
        let magic = {
            use std::io::Read;
            let mut file = std::fs::File::open(path).map_err(read_error)?;
            file.read(&mut head).map_err(read_error)? == 4 && is_spirv_magic(head)
        };
        if magic || path.extension().is_some_and(|e| e == "spv") {
            let bytes = std::fs::read(path).map_err(read_error)?;
            let name = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            return Program::build_spirv(ctx, &name, &bytes, &[], options);
        }
        Program::build_source(ctx, &Source::from_file(path)?, options)
    }

    /// Builds a SPIR-V module (SPIR-V 1.0 to 1.2, the OpenCL environment:
    /// what `clCreateProgramWithIL` takes) with `clBuildProgram`-style
    /// options; of those, the optimization options apply.
    pub fn from_spirv(ctx: &Context, spirv: &[u8], options: &str) -> Result<Program, BuildError> {
        Program::build_spirv(ctx, "program.spv", spirv, &[], options)
    }

    /// Builds a SPIR-V module as [`Program::from_spirv`] does, with its
    /// specialization constants (by `SpecId`) set to the given values
    /// (their bytes in host order; a `bool` is one byte), and `name`
    /// naming it in messages.
    pub fn build_spirv(
        ctx: &Context,
        name: &str,
        spirv: &[u8],
        spec_constants: &[(u32, Vec<u8>)],
        options: &str,
    ) -> Result<Program, BuildError> {
        let flags = ctx.toolchain.build_flags(options)?;
        let built = ctx.toolchain.build_spirv(spirv, spec_constants, options)?;
        Ok(Program::from_built(ctx, built, name, options, flags))
    }

    /// Builds an OpenCL C source (with its include directory) with
    /// `clBuildProgram`-style options.
    pub fn build_source(
        ctx: &Context,
        source: &Source,
        options: &str,
    ) -> Result<Program, BuildError> {
        let flags = ctx.toolchain.build_flags(options)?;
        let built = ctx.toolchain.build(source, options)?;
        Ok(Program::from_built_source(
            ctx,
            built,
            &source.name,
            Some(source.text.clone()),
            options,
            flags,
        ))
    }

    /// Links separately compiled objects (what the toolchain compiled for
    /// `clCompileProgram`) into a program, with `clLinkProgram`-style
    /// options (and the `-cl-std=` the objects were compiled with, which
    /// decides whether work-groups must be uniform).
    pub fn link(ctx: &Context, objects: &[&str], options: &str) -> Result<Program, BuildError> {
        let flags = ctx.toolchain.build_flags(options)?;
        let built = ctx.toolchain.link(objects, options)?;
        Ok(Program::from_built(
            ctx,
            built,
            "program.cl",
            options,
            flags,
        ))
    }

    /// A program from its Lockstep IR text (what [`Program::ir_text`]
    /// printed), built with `options`: how the OpenCL platform loads a
    /// program binary without its source.
    pub fn from_ir(
        ctx: &Context,
        ir_text: &str,
        options: &str,
        log: &str,
    ) -> Result<Program, BinaryError> {
        let module = ir::parse_module(ir_text).map_err(|e| BinaryError::Parse(e.to_string()))?;
        ir::limits::check_module(&module).map_err(BinaryError::TooLarge)?;
        ir::verify_module(&module).map_err(|e| BinaryError::Verify(e.to_string()))?;
        let flags = ctx
            .toolchain
            .build_flags(options)
            .map_err(|e| BinaryError::Options(e.to_string()))?;
        let built = Built {
            module,
            log: log.to_string(),
        };
        Ok(Program::from_built(
            ctx,
            built,
            "program.cl",
            options,
            flags,
        ))
    }

    /// The program's Lockstep IR as text ([`Program::from_ir`] reads it back).
    pub fn ir_text(&self) -> String {
        ir::module_to_string(&self.inner.module)
    }

    /// The build options the program was built with.
    pub fn options(&self) -> &str {
        &self.inner.options
    }

    fn from_built(
        ctx: &Context,
        built: Built,
        source_name: &str,
        options: &str,
        flags: BuildFlags,
    ) -> Program {
        Program::from_built_source(ctx, built, source_name, None, options, flags)
    }

    fn from_built_source(
        ctx: &Context,
        built: Built,
        source_name: &str,
        source_text: Option<String>,
        options: &str,
        flags: BuildFlags,
    ) -> Program {
        Program {
            inner: Arc::new(ProgramInner {
                module: built.module,
                toolchain: ctx.toolchain.clone(),
                log: built.log,
                source_name: source_name.to_string(),
                source_text,
                options: options.to_string(),
                code_key: Default::default(),
                gang_widths: Default::default(),
                simd_cache: Default::default(),
                variant_trials: Default::default(),
                globals_memory: Default::default(),
                uniform_groups_required: flags.uniform_work_groups,
            }),
        }
    }

    /// The compiler's warnings (empty for a clean build).
    pub fn build_log(&self) -> &str {
        &self.inner.log
    }

    /// The kernels' names, in source order (not the invoke kernels of
    /// blocks, which run only when a kernel enqueues them).
    pub fn kernel_names(&self) -> Vec<String> {
        self.inner
            .module
            .kernels()
            .filter(|(_, f)| !f.kernel.as_ref().is_some_and(|k| k.enqueued_block))
            .map(|(_, f)| f.name.clone())
            .collect()
    }

    /// The program's Lockstep IR.
    pub fn module(&self) -> &ir::Module {
        &self.inner.module
    }

    /// A kernel of this program, with no arguments set yet.
    pub fn kernel(&self, name: &str) -> Result<Kernel, LaunchError> {
        Kernel::new(self.inner.clone(), name)
    }
}
