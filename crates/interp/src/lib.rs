//! The reference interpreter: runs Lockstep IR one work-item at a time with
//! exact OpenCL semantics; the oracle the SIMD engine is tested against.
//!
//! # Use
//!
//! ```
//! use lockstep_interp::{run_kernel, KernelArg, NdRange, Options};
//!
//! let module = lockstep_ir::parse_module(r#"
//! kernel @fill(ptr.global, i32) {
//! block0(v0: ptr.global, v1: i32):
//!     v2: i64 = global_id 0
//!     v3: i64 = iconst 4
//!     v4: i64 = imul v2, v3
//!     v5: ptr.global = ptradd v0, v4
//!     store v1, v5, align 4
//!     return
//! }
//! "#).unwrap();
//! let kernel = module.function_by_name("fill").unwrap();
//! let mut out = vec![0u8; 16];
//! let mut args = [KernelArg::Buffer(&mut out), KernelArg::Scalar(7i32.to_le_bytes().to_vec())];
//! run_kernel(&module, kernel, &mut args, &NdRange::new_1d(4, 2), &Options::default()).unwrap();
//! assert_eq!(out[12..16], 7i32.to_le_bytes());
//! ```
//!
//! # Model
//!
//! * **Memory** ([`memory`]): tagged 64-bit addresses (region in the high
//!   24 bits, offset in the low 40); every access is bounds-checked, in
//!   checked and unchecked mode, and an out-of-bounds access is an
//!   [`InterpError`] naming the region, offset, size, instruction, source
//!   location and work-item. Writes to `__constant` memory are errors.
//! * **Scheduling**: work-groups run one after another in linear order;
//!   inside a group, each work-item runs until it reaches a barrier or
//!   returns, then the next; when all are at the same barrier (same call
//!   stack) they all continue. Anything else is barrier divergence: an
//!   error, or in checked mode a diagnostic, after which the work-items
//!   that wait (at whichever barrier) all continue, as in Oclgrind.
//!   Calls use a call stack per work-item, so barriers in helpers work.
//! * **Subgroups**: a subgroup is W consecutive work-items by local linear
//!   id ([`Options::sub_group_size`]). A subgroup collective (`sub_group
//!   OP`) stops a work-item like a barrier scoped to its subgroup; when
//!   every work-item of the subgroup has stopped, the ones that reach the
//!   same collective together (as lanes of a gang would: same
//!   instruction, same loop iterations) take part in it, the first such
//!   place in the gang's schedule first (see the `converge` module), with
//!   the order of operations of the gang operation it becomes (see the
//!   `collective` module).
//! * **Gang-level IR** (a kernel with `gang W`, the `linearize` pass's
//!   output): each work-group runs as gangs of W consecutive work-items in
//!   lockstep, one program counter per gang, gang operations across its
//!   lanes, predicated operations in the lanes of their mask; a value the
//!   IR calls uniform must agree in every lane (else an
//!   [`InterpError::InvalidIr`] names it). See the `exec::gang` module.
//! * **Values** ([`arith`], [`convert`]): integers wrap, shift amounts are
//!   taken modulo the width, division by zero and `MIN / -1` give 0; float
//!   conversions honour every rounding mode exactly; float-to-int always
//!   saturates (NaN gives 0), which is what `.sat` asks for and a valid
//!   choice for the unspecified unsaturated case. Atomics run sequentially
//!   and return the old value.
//! * **Checked mode** ([`Options::checked`]): data races on `__local` and
//!   `__global` memory within a barrier interval (and on `__global` memory
//!   between work-groups) are reported as [`Diagnostic`]s (see the `check`
//!   module); so are uses of uninitialized values (from `undef` or from
//!   unwritten `__private` and `__local` memory, tracked bit by bit through
//!   registers and memory; see the `uninit` module) where a branch, an
//!   address, a store to `__global` memory or a builtin observes them, and
//!   barrier divergence (the launch goes on); so are accesses
//!   out of bounds of their object in any address space (which are then
//!   skipped, a load giving 0, instead of stopping the launch), misaligned
//!   accesses, writes to read-only and reads of write-only buffers
//!   ([`Options::read_only_args`]), integer division by zero, and misused
//!   async copies (see the `async_copies` module).
//! * **printf** ([`printf`]) output is collected in execution order.
//! * **Device enqueue** ([`device_queue`]): the kernels work-items enqueue
//!   run in the same launch and memory after the launch's own work-items
//!   (each after the kernel that enqueued it and its wait list), their
//!   block literals copied to regions of their own.
//!
//! Program-scope variables are created fresh for each launch (their
//! values do not persist from one launch to the next, but the kernels a
//! launch enqueues share them), and `__local` memory
//! is zeroed for each work-group (checked mode reports reads before writes).

pub mod arith;
mod async_copies;
mod check;
pub mod collective;
mod converge;
pub mod convert;
mod decode;
pub mod device_queue;
mod error;
mod exec;
pub mod memory;
pub mod printf;
mod uninit;

pub use error::{AccessKind, Diagnostic, DiagnosticKind, InterpError, Site, WorkItemId};
pub use exec::id_ranges;

use lockstep_ir::{FuncId, Module};

/// The index space of a launch.
///
/// `local_size` need not divide `global_size`: the last group in each
/// dimension is then smaller (OpenCL 2.0 non-uniform work-groups), and
/// `enqueued_local_size` stays the requested size. Dimensions from
/// `work_dim` on are ignored (they have size 1 and offset 0).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct NdRange {
    pub work_dim: u32,
    pub global_size: [u64; 3],
    pub local_size: [u64; 3],
    pub global_offset: [u64; 3],
}

impl NdRange {
    /// A one-dimensional range without offset.
    pub fn new_1d(global: u64, local: u64) -> NdRange {
        NdRange {
            work_dim: 1,
            global_size: [global, 1, 1],
            local_size: [local, 1, 1],
            global_offset: [0; 3],
        }
    }
}

/// One kernel argument, in parameter order.
#[derive(Debug)]
pub enum KernelArg<'a> {
    /// A `__global` or `__constant` buffer the runtime owns; the kernel
    /// reads and writes it in place.
    Buffer(&'a mut [u8]),
    /// A NULL buffer pointer.
    Null,
    /// A `__local` pointer argument: its size in bytes, per work-group.
    Local(usize),
    /// The little-endian bytes of a by-value scalar of the parameter's type.
    Scalar(Vec<u8>),
    /// The bytes of a struct passed by value: the parameter is a
    /// `ptr.private` to a per-work-item copy.
    ByVal(Vec<u8>),
    /// The memory of an earlier [`KernelArg::Buffer`] argument (by index):
    /// one buffer (or pipe) given to two parameters.
    SameAs(usize),
}

/// How to run.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Report data races, uses of uninitialized values and the other
    /// findings of [`DiagnosticKind`] as diagnostics (several times
    /// slower).
    pub checked: bool,
    /// Stop with [`InterpError::StepLimit`] after this many instructions
    /// (over the whole launch): a guard against infinite loops in tests.
    pub max_steps: Option<u64>,
    /// The subgroup size W of scalar IR: the gang width the SIMD engine
    /// runs the kernel at (4, 8, 16 or 32; [`DEFAULT_SUB_GROUP_SIZE`] when
    /// `None`). Gang-level IR uses its own gang width.
    pub sub_group_size: Option<u32>,
    /// Checked mode: the buffer arguments (bit `i`: argument `i`, for the
    /// first 64) the kernel must not write (`CL_MEM_READ_ONLY`, `const`)...
    pub read_only_args: u64,
    /// ... and those it must not read (`CL_MEM_WRITE_ONLY`).
    pub write_only_args: u64,
}

/// The subgroup size when [`Options::sub_group_size`] does not say.
pub const DEFAULT_SUB_GROUP_SIZE: u32 = 8;

/// What a successful launch produced besides its memory effects.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Everything the kernel printed, in execution order.
    pub printf_output: String,
    /// When the kernel's own work-items had all run (the kernels they
    /// enqueued ran after).
    pub kernel_ended: Option<std::time::Instant>,
    /// How many kernels the launch enqueued, transitively.
    pub enqueued: u64,
    /// Checked-mode findings (empty unless `Options::checked`), each
    /// reported once per instruction (or instruction pair, for races).
    pub diagnostics: Vec<Diagnostic>,
}

/// Runs `kernel` of `module` over `range` with `args`.
///
/// Buffers are modified in place. Errors stop the launch at the first
/// fault (memory already written stays written); the interpreter never
/// panics on account of the kernel, its arguments or the range.
pub fn run_kernel(
    module: &Module,
    kernel: FuncId,
    args: &mut [KernelArg],
    range: &NdRange,
    opts: &Options,
) -> Result<Report, InterpError> {
    let platform = device_queue::PlainPlatform {
        sub_group_size: opts.sub_group_size.unwrap_or(DEFAULT_SUB_GROUP_SIZE),
        uniform_groups: false,
    };
    let device = device_queue::DeviceWork::new(Default::default(), Box::new(platform));
    exec::launch(module, kernel, args, range, opts, device)
}

/// Runs `kernel` as [`run_kernel`] does, with the device queues and
/// platform of `device`: the kernels its work-items enqueue
/// (`enqueue_kernel`) run in the same launch, in the same memory, after
/// its own work-items (see [`device_queue`]).
pub fn run_kernel_with_device(
    module: &Module,
    kernel: FuncId,
    args: &mut [KernelArg],
    range: &NdRange,
    opts: &Options,
    device: device_queue::DeviceWork,
) -> Result<Report, InterpError> {
    exec::launch(module, kernel, args, range, opts, device)
}
