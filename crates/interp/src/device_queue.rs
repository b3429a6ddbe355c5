//! Device-side enqueue (OpenCL C 2.0 `enqueue_kernel`, device events and
//! markers): the model both engines run a launch's child kernels by.
//!
//! One [`DeviceWork`] serves one launch from the host. It knows the device
//! queues the host created ([`DeviceQueues`]), holds the device events in a
//! bounded pool, and records the commands work-items enqueue
//! ([`DeviceWork::call`] carries out one work-item's
//! [`DeviceOp`](lockstep_ir::DeviceOp)). When the launch's own work-items
//! have run, the engine asks for the next command that may run
//! ([`DeviceWork::next`]: one whose wait list is complete, the most recently
//! enqueued first, which keeps few commands pending in deep nests), runs
//! it, and reports it done ([`DeviceWork::finish`]), until none is left.
//!
//! So every child kernel runs after the kernel that enqueued it has
//! finished. That is what `CLK_ENQUEUE_FLAGS_WAIT_KERNEL` asks for, and a
//! legal schedule for `CLK_ENQUEUE_FLAGS_NO_WAIT` and
//! `CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP`, which only allow a child to start
//! sooner (OpenCL gives a parent no way to wait for its child). A kernel
//! command's event completes once the command and everything it enqueued,
//! transitively, are complete; so does the launch itself for the host.
//!
//! Queues are out of order (device queues must be): commands are ordered
//! only by their wait lists. Each queue holds at most its size in bytes of
//! commands not yet started: [`COMMAND_BYTES`] for each, plus its block
//! literal, local sizes and wait list; an enqueue that does not fit gets
//! `CLK_DEVICE_QUEUE_FULL`; kernels nest at most [`MAX_NESTING`] deep
//! (`CLK_OUT_OF_RESOURCES` below that). Events are handles `slot + 1 | generation << 32`
//! (never 0 or `CLK_NULL_EVENT`); a released event's slot is reused once
//! its command is complete and no command waits for it, under a new
//! generation, so a stale handle is not a valid event.
//!
//! Engines differ in how they address memory ([`DeviceMemory`]: the
//! interpreter's tagged addresses, the SIMD engine's host pointers) and in
//! how they run a child ([`ChildLaunch`]); the rest is here.

use std::collections::HashMap;
use std::time::Instant;

use cranelift_entity::EntityRef;
use lockstep_ir::{AddrSpace, DeviceOp, FuncId, Module, Type};

/// OpenCL C's values for device enqueue (`opencl-c-base.h`).
pub mod clk {
    pub const SUCCESS: i32 = 0;
    pub const ENQUEUE_FAILURE: i32 = -101;
    pub const INVALID_QUEUE: i32 = -102;
    pub const INVALID_NDRANGE: i32 = -160;
    pub const INVALID_EVENT_WAIT_LIST: i32 = -57;
    pub const DEVICE_QUEUE_FULL: i32 = -161;
    pub const INVALID_ARG_SIZE: i32 = -51;
    pub const EVENT_ALLOCATION_FAILURE: i32 = -100;
    pub const OUT_OF_RESOURCES: i32 = -5;
    /// `CLK_NULL_EVENT`: all ones.
    pub const NULL_EVENT: u64 = u64::MAX;
    pub const ENQUEUE_FLAGS_NO_WAIT: u32 = 0;
    pub const ENQUEUE_FLAGS_WAIT_KERNEL: u32 = 1;
    pub const ENQUEUE_FLAGS_WAIT_WORK_GROUP: u32 = 2;
    pub const PROFILING_COMMAND_EXEC_TIME: u32 = 1;
    /// Event states (`CL_COMPLETE` ... `CL_QUEUED`).
    pub const COMPLETE: i32 = 0;
    pub const SUBMITTED: i32 = 2;
    pub const QUEUED: i32 = 3;
    /// The status of a command whose wait list holds a failed event
    /// (`CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST`).
    pub const ERROR_FOR_EVENTS_IN_WAIT_LIST: i32 = -14;
}

/// Bytes one command takes of its queue besides its block literal, local
/// sizes and wait list.
pub const COMMAND_BYTES: u64 = 128;

/// The size of clang's `ndrange_t`: `i32 work_dim`, then three `i64`
/// global offsets, global sizes and local sizes at bytes 8, 32 and 56.
pub const NDRANGE_BYTES: u64 = 80;

/// The smallest block literal: its size and alignment (`i32` each), then
/// its invoke function.
pub const BLOCK_HEADER_BYTES: u32 = 16;

/// How deep kernels may nest: a kernel this many enqueues below the host's
/// launch gets `CLK_OUT_OF_RESOURCES` for its enqueues. Each level keeps
/// its command until its children complete, so without a bound a kernel
/// that enqueues itself forever would take memory forever.
pub const MAX_NESTING: u32 = 1024;

/// A device queue the host created (an on-device command queue).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceQueue {
    /// What kernels hold as the `queue_t` (nonzero).
    pub handle: u64,
    /// `CL_QUEUE_SIZE`, in bytes.
    pub size: u32,
    /// `CL_QUEUE_PROFILING_ENABLE`.
    pub profiling: bool,
}

/// The device queues a launch's work-items may enqueue to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeviceQueues {
    pub queues: Vec<DeviceQueue>,
    /// The default device queue's handle (`get_default_queue`), 0 if none.
    pub default: u64,
    /// The most device events in use at once (`CL_DEVICE_MAX_ON_DEVICE_EVENTS`).
    pub max_events: u32,
}

/// What the device answers about the kernels a launch may enqueue.
pub trait DevicePlatform: Send + Sync {
    /// The subgroup size (gang width) `kernel` runs at.
    fn sub_group_size(&self, kernel: FuncId) -> u32;
    /// The work-group size a launch of `kernel` over `global` (`dims`
    /// dimensions) gets when it names none.
    fn default_local_size(&self, kernel: FuncId, global: [u64; 3], dims: u32) -> [u64; 3];
    /// The largest work-group (`CL_DEVICE_MAX_WORK_GROUP_SIZE`).
    fn max_work_group_size(&self) -> u64;
    /// The largest work-group in each dimension (`CL_DEVICE_MAX_WORK_ITEM_SIZES`).
    fn max_work_item_sizes(&self) -> [u64; 3];
    /// Bytes of `__local` memory a work-group may use (`CL_DEVICE_LOCAL_MEM_SIZE`).
    fn max_local_mem(&self) -> u64;
    /// Whether local sizes must divide global sizes (`-cl-uniform-work-group-size`).
    fn uniform_groups(&self) -> bool;
}

/// Memory as an engine addresses it.
pub trait DeviceMemory {
    /// Why an access failed.
    type Error;
    /// `len` bytes at `addr`.
    fn read(&mut self, addr: u64, len: u64) -> Result<Vec<u8>, Self::Error>;
    /// Writes `bytes` at `addr`.
    fn write(&mut self, addr: u64, bytes: &[u8]) -> Result<(), Self::Error>;
}

/// A child kernel to run: what [`DeviceWork::next`] hands the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChildLaunch {
    /// Which command it is (for [`DeviceWork::finish`]).
    pub command: usize,
    pub kernel: FuncId,
    pub work_dim: u32,
    pub global_offset: [u64; 3],
    pub global_size: [u64; 3],
    /// The work-group size, chosen by the platform when the ndrange named
    /// none.
    pub local_size: [u64; 3],
    /// The block literal, the kernel's first argument (a generic pointer
    /// to memory the engine keeps for the launch).
    pub block: Vec<u8>,
    /// The bytes of each `__local` argument after it.
    pub local_sizes: Vec<u64>,
}

/// An `ndrange_t` as read from memory.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct NdRange {
    work_dim: u32,
    offset: [u64; 3],
    global: [u64; 3],
    /// `None` when the ndrange names no local size.
    local: Option<[u64; 3]>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum EventKind {
    User,
    /// A kernel command's.
    Kernel,
    /// A marker's.
    Marker,
}

#[derive(Clone, Debug)]
struct Event {
    generation: u32,
    live: bool,
    kind: EventKind,
    /// References the kernels hold (`retain_event`, `release_event`).
    refs: u32,
    /// Commands not started yet that wait for it.
    waiters: u32,
    /// `CL_QUEUED` ... `CL_COMPLETE`, or an error (negative).
    status: i32,
    /// A kernel command's start, end (its own work-items) and completion
    /// (with everything it enqueued), in ns since the launch began.
    times: [u64; 3],
    /// Where `capture_event_profiling_info` wants the times.
    captures: Vec<u64>,
}

impl Event {
    fn is_done(&self) -> bool {
        self.status <= clk::COMPLETE
    }
}

#[derive(Clone, Debug)]
enum Body {
    Kernel {
        kernel: FuncId,
        range: NdRange,
        block: Vec<u8>,
        local_sizes: Vec<u64>,
    },
    Marker,
}

#[derive(Clone, Debug)]
enum Stage {
    /// Enqueued, not started.
    Waiting,
    /// Its work-items are running.
    Running,
    /// Its work-items have run; commands it enqueued have not all completed.
    Ended,
}

#[derive(Clone, Debug)]
struct Command {
    seq: u64,
    queue: u64,
    /// Bytes it takes of its queue until it starts.
    cost: u64,
    wait: Vec<usize>,
    event: Option<usize>,
    /// The command whose work-item enqueued it (`None`: the host's launch).
    parent: Option<usize>,
    /// Commands it enqueued that have not completed.
    children: u32,
    /// Enqueues between the host's launch and it (its children's: 1).
    depth: u32,
    stage: Stage,
    body: Body,
}

/// The device queues, events and enqueued commands of one launch from the
/// host; see the module documentation.
pub struct DeviceWork {
    queues: DeviceQueues,
    platform: Box<dyn DevicePlatform>,
    events: Vec<Event>,
    free_events: Vec<usize>,
    live_events: u32,
    commands: Vec<Option<Command>>,
    free_commands: Vec<usize>,
    /// Commands not started, by slot.
    waiting: Vec<usize>,
    /// Bytes of commands not started, per queue handle.
    queue_use: HashMap<u64, u64>,
    /// The command whose work-items run now (`None`: the host's launch).
    current: Option<usize>,
    seq: u64,
    epoch: Instant,
    /// Kernel commands run so far.
    launched: u64,
}

impl std::fmt::Debug for DeviceWork {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceWork")
            .field("queues", &self.queues)
            .field("waiting", &self.waiting.len())
            .field("live_events", &self.live_events)
            .finish()
    }
}

/// The result of an operation that failed with a `CLK_*` code.
fn code(c: i32) -> u64 {
    c as u32 as u64
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

impl DeviceWork {
    /// The device work of a launch that may enqueue to `queues`, on a
    /// device `platform` describes.
    pub fn new(queues: DeviceQueues, platform: Box<dyn DevicePlatform>) -> DeviceWork {
        DeviceWork {
            queues,
            platform,
            events: Vec::new(),
            free_events: Vec::new(),
            live_events: 0,
            commands: Vec::new(),
            free_commands: Vec::new(),
            waiting: Vec::new(),
            queue_use: HashMap::new(),
            current: None,
            seq: 0,
            epoch: Instant::now(),
            launched: 0,
        }
    }

    /// The platform the launch runs on.
    pub fn platform(&self) -> &dyn DevicePlatform {
        &*self.platform
    }

    /// Commands enqueued and not started: after [`DeviceWork::next`] gave
    /// `None`, those wait for events that never complete (a user event
    /// nobody set).
    pub fn waiting(&self) -> usize {
        self.waiting.len()
    }

    /// Child kernels run so far.
    pub fn launched(&self) -> u64 {
        self.launched
    }

    fn now(&self) -> u64 {
        (self.epoch.elapsed().as_nanos() as u64).max(1)
    }

    // ---- Events ----------------------------------------------------------

    fn handle(&self, slot: usize) -> u64 {
        (slot as u64 + 1) | (self.events[slot].generation as u64) << 32
    }

    /// The live event a handle names.
    fn event_slot(&self, handle: u64) -> Option<usize> {
        let low = handle & 0xffff_ffff;
        let slot = (low as usize).checked_sub(1)?;
        let e = self.events.get(slot)?;
        (e.live && e.generation as u64 == handle >> 32).then_some(slot)
    }

    fn new_event(&mut self, kind: EventKind, status: i32) -> Option<usize> {
        if self.live_events >= self.queues.max_events {
            return None;
        }
        let event = Event {
            generation: 0,
            live: true,
            kind,
            refs: 1,
            waiters: 0,
            status,
            times: [0; 3],
            captures: Vec::new(),
        };
        let slot = match self.free_events.pop() {
            Some(slot) => {
                // Generations stay below 2^31: no handle is all ones.
                let generation = (self.events[slot].generation + 1) & 0x7fff_ffff;
                self.events[slot] = Event {
                    generation,
                    ..event
                };
                slot
            }
            None => {
                self.events.push(event);
                self.events.len() - 1
            }
        };
        self.live_events += 1;
        Some(slot)
    }

    /// Frees an event nobody can use any more: no reference, done, and no
    /// command waiting for it.
    fn maybe_free(&mut self, slot: usize) {
        let e = &mut self.events[slot];
        if e.live && e.refs == 0 && e.waiters == 0 && e.is_done() {
            e.live = false;
            e.captures.clear();
            self.free_events.push(slot);
            self.live_events -= 1;
        }
    }

    /// Sets an event's status; when it completes, writes the profiling
    /// captures.
    fn set_event_status<M: DeviceMemory>(
        &mut self,
        slot: usize,
        status: i32,
        mem: &mut M,
    ) -> Result<(), M::Error> {
        let e = &mut self.events[slot];
        e.status = status;
        let captures = std::mem::take(&mut e.captures);
        if status == clk::COMPLETE {
            for addr in captures {
                self.write_profile(slot, addr, mem)?;
            }
        }
        self.maybe_free(slot);
        Ok(())
    }

    /// `CLK_PROFILING_COMMAND_EXEC_TIME` of a completed kernel command's
    /// event: end − start and complete − start, in ns.
    fn write_profile<M: DeviceMemory>(
        &self,
        slot: usize,
        addr: u64,
        mem: &mut M,
    ) -> Result<(), M::Error> {
        let [start, end, complete] = self.events[slot].times;
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&end.saturating_sub(start).to_le_bytes());
        bytes[8..].copy_from_slice(&complete.saturating_sub(start).to_le_bytes());
        mem.write(addr, &bytes)
    }

    // ---- Operations ------------------------------------------------------

    /// Carries out one work-item's device enqueue operation `op` (naming
    /// `kernel` of `module`) with the bits of its operands; gives the
    /// result's bits (0 for an operation without one). Memory the operands
    /// point to is read and written through `mem`; its faults are the
    /// only errors (a bad operand is a `CLK_*` code, as OpenCL says).
    pub fn call<M: DeviceMemory>(
        &mut self,
        module: &Module,
        op: DeviceOp,
        kernel: Option<FuncId>,
        args: &[u64],
        mem: &mut M,
    ) -> Result<u64, M::Error> {
        let arg = |i: usize| args.get(i).copied().unwrap_or(0);
        Ok(match op {
            DeviceOp::EnqueueKernel => {
                let Some(kernel) = kernel else {
                    return Ok(code(clk::ENQUEUE_FAILURE));
                };
                let r = self.enqueue_kernel(module, kernel, args, mem)?;
                code(r)
            }
            DeviceOp::EnqueueMarker => {
                let r = self.enqueue_marker(arg(0), arg(1) as u32, arg(2), arg(3), mem)?;
                code(r)
            }
            DeviceOp::GetDefaultQueue => self.queues.default,
            DeviceOp::CreateUserEvent => match self.new_event(EventKind::User, clk::SUBMITTED) {
                Some(slot) => self.handle(slot),
                None => clk::NULL_EVENT,
            },
            DeviceOp::RetainEvent => {
                if let Some(slot) = self.event_slot(arg(0)) {
                    self.events[slot].refs = self.events[slot].refs.saturating_add(1);
                }
                0
            }
            DeviceOp::ReleaseEvent => {
                if let Some(slot) = self.event_slot(arg(0)) {
                    let e = &mut self.events[slot];
                    e.refs = e.refs.saturating_sub(1);
                    self.maybe_free(slot);
                }
                0
            }
            DeviceOp::SetUserEventStatus => {
                let status = arg(1) as u32 as i32;
                if let Some(slot) = self.event_slot(arg(0)) {
                    let e = &self.events[slot];
                    // Once, to CL_COMPLETE or an error.
                    if matches!(e.kind, EventKind::User) && !e.is_done() && status <= clk::COMPLETE
                    {
                        self.set_event_status(slot, status, mem)?;
                    }
                }
                0
            }
            DeviceOp::IsValidEvent => self.event_slot(arg(0)).is_some() as u64,
            DeviceOp::CaptureEventProfilingInfo => {
                let (handle, name, addr) = (arg(0), arg(1) as u32, arg(2));
                if let Some(slot) = self.event_slot(handle) {
                    let e = &self.events[slot];
                    if name == clk::PROFILING_COMMAND_EXEC_TIME
                        && e.kind == EventKind::Kernel
                        && addr != 0
                    {
                        if e.status == clk::COMPLETE {
                            self.write_profile(slot, addr, mem)?;
                        } else if !e.is_done() {
                            self.events[slot].captures.push(addr);
                        }
                    }
                }
                0
            }
            DeviceOp::KernelWorkGroupSize => kernel.map_or(0, |k| self.work_group_size(module, k)),
            DeviceOp::KernelPreferredWorkGroupSizeMultiple => {
                kernel.map_or(0, |k| self.platform.sub_group_size(k) as u64)
            }
            DeviceOp::KernelSubGroupCount | DeviceOp::KernelMaxSubGroupSize => {
                let Some(k) = kernel else { return Ok(0) };
                let Some(range) = self.read_ndrange(arg(0), mem)? else {
                    return Ok(0);
                };
                let local = range.local.unwrap_or_else(|| {
                    self.platform
                        .default_local_size(k, range.global, range.work_dim)
                });
                let items: u64 = local.iter().product();
                let width = self.platform.sub_group_size(k).max(1) as u64;
                if op == DeviceOp::KernelSubGroupCount {
                    items.div_ceil(width)
                } else {
                    items.min(width)
                }
            }
        })
    }

    /// `CL_KERNEL_WORK_GROUP_SIZE` of a kernel: its required one, else the
    /// device's largest.
    fn work_group_size(&self, module: &Module, kernel: FuncId) -> u64 {
        let required = module
            .functions
            .get(kernel)
            .and_then(|f| f.kernel.as_ref())
            .and_then(|info| info.reqd_work_group_size);
        match required {
            Some(r) => r.iter().map(|&x| x as u64).product(),
            None => self.platform.max_work_group_size(),
        }
    }

    /// The queue a handle names, if the launch may use it.
    fn queue(&self, handle: u64) -> Option<&DeviceQueue> {
        self.queues.queues.iter().find(|q| q.handle == handle)
    }

    /// Reads and checks a wait list: its events' slots, or
    /// `CLK_INVALID_EVENT_WAIT_LIST`.
    fn wait_list<M: DeviceMemory>(
        &mut self,
        count: u32,
        list: u64,
        mem: &mut M,
    ) -> Result<Result<Vec<usize>, i32>, M::Error> {
        if (count == 0) != (list == 0) || count > self.queues.max_events {
            return Ok(Err(clk::INVALID_EVENT_WAIT_LIST));
        }
        if count == 0 {
            return Ok(Ok(Vec::new()));
        }
        let bytes = mem.read(list, count as u64 * 8)?;
        let mut slots = Vec::with_capacity(count as usize);
        for i in 0..count as usize {
            match self.event_slot(u64_at(&bytes, 8 * i)) {
                Some(slot) => slots.push(slot),
                None => return Ok(Err(clk::INVALID_EVENT_WAIT_LIST)),
            }
        }
        Ok(Ok(slots))
    }

    /// Reads an `ndrange_t`; `None` if it is not a valid one for this
    /// device.
    fn read_ndrange<M: DeviceMemory>(
        &self,
        addr: u64,
        mem: &mut M,
    ) -> Result<Option<NdRange>, M::Error> {
        if addr == 0 {
            return Ok(None);
        }
        let b = mem.read(addr, NDRANGE_BYTES)?;
        let work_dim = u32::from_le_bytes(b[..4].try_into().expect("4 bytes"));
        if !(1..=3).contains(&work_dim) {
            return Ok(None);
        }
        let dims = work_dim as usize;
        let mut range = NdRange {
            work_dim,
            offset: [0; 3],
            global: [1; 3],
            local: None,
        };
        let mut local = [1u64; 3];
        for d in 0..dims {
            range.offset[d] = u64_at(&b, 8 + 8 * d);
            range.global[d] = u64_at(&b, 32 + 8 * d);
            local[d] = u64_at(&b, 56 + 8 * d);
        }
        let total = range.global.iter().try_fold(1u64, |a, &g| a.checked_mul(g));
        if range.global.contains(&0)
            || total.is_none()
            || (0..dims).any(|d| range.global[d].checked_add(range.offset[d]).is_none())
        {
            return Ok(None);
        }
        let named = local[..dims].iter().filter(|&&l| l != 0).count();
        if named == 0 {
            return Ok(Some(range));
        }
        let max = self.platform.max_work_item_sizes();
        let items = local.iter().try_fold(1u64, |a, &l| a.checked_mul(l));
        if named < dims
            || (0..dims).any(|d| local[d] > max[d])
            || items.is_none_or(|n| n > self.platform.max_work_group_size())
            || (self.platform.uniform_groups()
                && (0..dims).any(|d| !range.global[d].is_multiple_of(local[d])))
        {
            return Ok(None);
        }
        range.local = Some(local);
        Ok(Some(range))
    }

    /// The depth of the command whose work-items run now (0: the host's
    /// launch).
    fn current_depth(&self) -> u32 {
        self.current
            .and_then(|c| self.commands[c].as_ref())
            .map_or(0, |c| c.depth)
    }

    /// Takes `cost` bytes of queue `queue`: false if they do not fit.
    fn reserve(&mut self, queue: u64, cost: u64) -> bool {
        let size = self.queue(queue).map_or(0, |q| q.size as u64);
        let used = self.queue_use.entry(queue).or_insert(0);
        if used.saturating_add(cost) > size {
            return false;
        }
        *used += cost;
        true
    }

    fn unreserve(&mut self, queue: u64, cost: u64) {
        if let Some(used) = self.queue_use.get_mut(&queue) {
            *used = used.saturating_sub(cost);
        }
    }

    fn enqueue_kernel<M: DeviceMemory>(
        &mut self,
        module: &Module,
        kernel: FuncId,
        args: &[u64],
        mem: &mut M,
    ) -> Result<i32, M::Error> {
        let [queue, flags, ndrange, num_events, events, event_ret, block, num_sizes, sizes] =
            std::array::from_fn(|i| args.get(i).copied().unwrap_or(0));
        if self.queue(queue).is_none() {
            return Ok(clk::INVALID_QUEUE);
        }
        if self.current_depth() >= MAX_NESTING {
            return Ok(clk::OUT_OF_RESOURCES);
        }
        if !matches!(
            flags as u32,
            clk::ENQUEUE_FLAGS_NO_WAIT
                | clk::ENQUEUE_FLAGS_WAIT_KERNEL
                | clk::ENQUEUE_FLAGS_WAIT_WORK_GROUP
        ) {
            return Ok(clk::ENQUEUE_FAILURE);
        }
        // The kernel: a block's invoke kernel, whose parameters after the
        // block literal are `__local` pointers, one per size.
        let Some(f) = module.functions.get(kernel).filter(|f| f.is_kernel()) else {
            return Ok(clk::ENQUEUE_FAILURE);
        };
        let params = &f.signature.params;
        let locals_ok = params.first().is_some_and(|t| t.is_ptr())
            && params[1..]
                .iter()
                .all(|&t| t == Type::Ptr(AddrSpace::Local));
        if !locals_ok || params.len() - 1 != num_sizes as u32 as usize {
            return Ok(clk::ENQUEUE_FAILURE);
        }
        let wait = match self.wait_list(num_events as u32, events, mem)? {
            Ok(w) => w,
            Err(c) => return Ok(c),
        };
        let Some(range) = self.read_ndrange(ndrange, mem)? else {
            return Ok(clk::INVALID_NDRANGE);
        };
        let num_sizes = num_sizes as u32 as u64;
        let local_sizes: Vec<u64> = if num_sizes == 0 {
            Vec::new()
        } else {
            if sizes == 0 {
                return Ok(clk::INVALID_ARG_SIZE);
            }
            let bytes = mem.read(sizes, num_sizes * 8)?;
            (0..num_sizes as usize)
                .map(|i| u64_at(&bytes, 8 * i))
                .collect()
        };
        if local_sizes.contains(&0) {
            return Ok(clk::INVALID_ARG_SIZE);
        }
        let static_local = module
            .globals
            .values()
            .filter(|g| g.space == AddrSpace::Local)
            .fold(0u64, |a, g| a.saturating_add(g.size));
        let local_total = local_sizes
            .iter()
            .fold(static_local, |a, &s| a.saturating_add(s));
        if local_total > self.platform.max_local_mem() {
            return Ok(clk::OUT_OF_RESOURCES);
        }
        // The block literal: its size is its first field.
        if block == 0 {
            return Ok(clk::ENQUEUE_FAILURE);
        }
        let header = mem.read(block, 4)?;
        let block_size = u32::from_le_bytes(header[..4].try_into().expect("4 bytes"));
        if block_size < BLOCK_HEADER_BYTES {
            return Ok(clk::ENQUEUE_FAILURE);
        }
        let queue_size = self.queue(queue).map_or(0, |q| q.size as u64);
        let cost = COMMAND_BYTES + block_size as u64 + 8 * (num_sizes + wait.len() as u64);
        if cost > queue_size {
            return Ok(clk::DEVICE_QUEUE_FULL);
        }
        let block_bytes = mem.read(block, block_size as u64)?;
        if !self.reserve(queue, cost) {
            return Ok(clk::DEVICE_QUEUE_FULL);
        }
        let body = Body::Kernel {
            kernel,
            range,
            block: block_bytes,
            local_sizes,
        };
        self.add_command(queue, cost, wait, event_ret, body, mem)
    }

    fn enqueue_marker<M: DeviceMemory>(
        &mut self,
        queue: u64,
        num_events: u32,
        events: u64,
        event_ret: u64,
        mem: &mut M,
    ) -> Result<i32, M::Error> {
        if self.queue(queue).is_none() {
            return Ok(clk::INVALID_QUEUE);
        }
        if num_events == 0 || events == 0 {
            return Ok(clk::INVALID_EVENT_WAIT_LIST);
        }
        let wait = match self.wait_list(num_events, events, mem)? {
            Ok(w) => w,
            Err(c) => return Ok(c),
        };
        // Without an event to give, a marker is a no-op.
        if event_ret == 0 {
            return Ok(clk::SUCCESS);
        }
        let cost = COMMAND_BYTES + 8 * wait.len() as u64;
        if !self.reserve(queue, cost) {
            return Ok(clk::DEVICE_QUEUE_FULL);
        }
        self.add_command(queue, cost, wait, event_ret, Body::Marker, mem)
    }

    /// Records an enqueued command (its queue bytes reserved), with an
    /// event written to `event_ret` unless that is null.
    fn add_command<M: DeviceMemory>(
        &mut self,
        queue: u64,
        cost: u64,
        wait: Vec<usize>,
        event_ret: u64,
        body: Body,
        mem: &mut M,
    ) -> Result<i32, M::Error> {
        let slot = match self.free_commands.pop() {
            Some(slot) => slot,
            None => {
                self.commands.push(None);
                self.commands.len() - 1
            }
        };
        let kind = match body {
            Body::Kernel { .. } => EventKind::Kernel,
            Body::Marker => EventKind::Marker,
        };
        let event = if event_ret == 0 {
            None
        } else {
            match self.new_event(kind, clk::QUEUED) {
                Some(e) => Some(e),
                None => {
                    self.free_commands.push(slot);
                    self.unreserve(queue, cost);
                    return Ok(clk::EVENT_ALLOCATION_FAILURE);
                }
            }
        };
        if let Some(e) = event {
            let handle = self.handle(e);
            if let Err(fault) = mem.write(event_ret, &handle.to_le_bytes()) {
                self.events[e].refs = 0;
                self.events[e].status = clk::COMPLETE;
                self.maybe_free(e);
                self.free_commands.push(slot);
                self.unreserve(queue, cost);
                return Err(fault);
            }
        }
        for &w in &wait {
            self.events[w].waiters += 1;
        }
        if let Some(parent) = self.current {
            if let Some(p) = self.commands[parent].as_mut() {
                p.children += 1;
            }
        }
        self.seq += 1;
        let depth = self.current_depth() + 1;
        self.commands[slot] = Some(Command {
            seq: self.seq,
            queue,
            cost,
            wait,
            event,
            parent: self.current,
            children: 0,
            depth,
            stage: Stage::Waiting,
            body,
        });
        self.waiting.push(slot);
        Ok(clk::SUCCESS)
    }

    // ---- Running commands --------------------------------------------------

    /// The next child kernel to run: of the commands whose wait lists are
    /// complete, the most recently enqueued. Markers, and commands whose
    /// wait list holds a failed event, complete (or fail) on the way.
    /// `None` when no command may run: all have run, or those left wait
    /// for events that are not complete ([`DeviceWork::waiting`]).
    pub fn next<M: DeviceMemory>(&mut self, mem: &mut M) -> Result<Option<ChildLaunch>, M::Error> {
        loop {
            let ready = self
                .waiting
                .iter()
                .enumerate()
                .filter(|(_, &slot)| {
                    let c = self.commands[slot].as_ref().expect("a waiting command");
                    c.wait.iter().all(|&e| self.events[e].is_done())
                })
                .max_by_key(|(_, &slot)| self.commands[slot].as_ref().map_or(0, |c| c.seq))
                .map(|(i, _)| i);
            let Some(i) = ready else {
                return Ok(None);
            };
            let slot = self.waiting.swap_remove(i);
            let (queue, cost, wait) = {
                let c = self.commands[slot].as_mut().expect("a waiting command");
                (c.queue, c.cost, std::mem::take(&mut c.wait))
            };
            self.unreserve(queue, cost);
            let failed = wait.iter().any(|&e| self.events[e].status < 0);
            for &e in &wait {
                self.events[e].waiters -= 1;
                self.maybe_free(e);
            }
            if failed {
                self.complete(slot, clk::ERROR_FOR_EVENTS_IN_WAIT_LIST, mem)?;
                continue;
            }
            let now = self.now();
            let c = self.commands[slot].as_mut().expect("a started command");
            if let Some(e) = c.event {
                self.events[e].times[0] = now;
            }
            let Body::Kernel {
                kernel,
                range,
                block,
                local_sizes,
            } = &mut c.body
            else {
                self.complete(slot, clk::COMPLETE, mem)?;
                continue;
            };
            c.stage = Stage::Running;
            let local_size = range.local.unwrap_or_else(|| {
                self.platform
                    .default_local_size(*kernel, range.global, range.work_dim)
            });
            let launch = ChildLaunch {
                command: slot,
                kernel: *kernel,
                work_dim: range.work_dim,
                global_offset: range.offset,
                global_size: range.global,
                local_size,
                block: std::mem::take(block),
                local_sizes: std::mem::take(local_sizes),
            };
            self.current = Some(slot);
            self.launched += 1;
            return Ok(Some(launch));
        }
    }

    /// The work-items of `command` (from [`DeviceWork::next`]) have run:
    /// it completes once what it enqueued has.
    pub fn finish<M: DeviceMemory>(&mut self, command: usize, mem: &mut M) -> Result<(), M::Error> {
        self.current = None;
        let now = self.now();
        let Some(c) = self.commands.get_mut(command).and_then(|c| c.as_mut()) else {
            return Ok(());
        };
        c.stage = Stage::Ended;
        if let Some(e) = c.event {
            self.events[e].times[1] = now;
        }
        if c.children == 0 {
            self.complete(command, clk::COMPLETE, mem)?;
        }
        Ok(())
    }

    /// A command is done (complete, or failed with `status`): its event
    /// takes the status, and a parent whose work-items have run and whose
    /// last child this was completes too.
    fn complete<M: DeviceMemory>(
        &mut self,
        mut command: usize,
        mut status: i32,
        mem: &mut M,
    ) -> Result<(), M::Error> {
        loop {
            let Some(c) = self.commands[command].take() else {
                return Ok(());
            };
            self.free_commands.push(command);
            if let Some(e) = c.event {
                let now = self.now();
                let times = &mut self.events[e].times;
                if times[1] == 0 {
                    times[1] = now;
                }
                times[2] = now;
                if times[0] == 0 {
                    times[0] = now;
                }
                self.set_event_status(e, status, mem)?;
            }
            let Some(parent) = c.parent else {
                return Ok(());
            };
            let Some(p) = self.commands[parent].as_mut() else {
                return Ok(());
            };
            p.children -= 1;
            if p.children > 0 || !matches!(p.stage, Stage::Ended) {
                return Ok(());
            }
            command = parent;
            status = clk::COMPLETE;
        }
    }
}

/// The device of a launch run by the interpreter alone: no device queues,
/// subgroups of [`crate::DEFAULT_SUB_GROUP_SIZE`] (or the given width),
/// and the runtime's limits.
#[derive(Clone, Debug)]
pub struct PlainPlatform {
    pub sub_group_size: u32,
    pub uniform_groups: bool,
}

impl DevicePlatform for PlainPlatform {
    fn sub_group_size(&self, _kernel: FuncId) -> u32 {
        self.sub_group_size
    }

    fn default_local_size(&self, _kernel: FuncId, global: [u64; 3], dims: u32) -> [u64; 3] {
        let mut local = [1u64; 3];
        local[0] = (1..=global[0].min(64))
            .rev()
            .find(|l| global[0].is_multiple_of(*l))
            .unwrap_or(1);
        let _ = dims;
        local
    }

    fn max_work_group_size(&self) -> u64 {
        4096
    }

    fn max_work_item_sizes(&self) -> [u64; 3] {
        [4096; 3]
    }

    fn max_local_mem(&self) -> u64 {
        256 * 1024
    }

    fn uniform_groups(&self) -> bool {
        self.uniform_groups
    }
}

/// Which kernels a kernel may enqueue (directly): those its device
/// enqueue operations name.
pub fn enqueued_kernels(module: &Module, kernel: FuncId) -> Vec<FuncId> {
    let mut out = Vec::new();
    if let Some(f) = module.functions.get(kernel) {
        for (_, inst) in f.insts_in_layout() {
            let data = match &f.insts[inst] {
                lockstep_ir::InstData::Predicated { inst, .. } => &**inst,
                d => d,
            };
            if let lockstep_ir::InstData::DeviceEnqueue {
                op: DeviceOp::EnqueueKernel,
                kernel: Some(k),
                ..
            } = data
            {
                if !out.contains(k) {
                    out.push(*k);
                }
            }
        }
    }
    out.sort_by_key(|k| k.index());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Flat test memory: address `a` is byte `a` (0 is null).
    struct Flat(Vec<u8>);

    impl DeviceMemory for Flat {
        type Error = String;

        fn read(&mut self, addr: u64, len: u64) -> Result<Vec<u8>, String> {
            let (a, n) = (addr as usize, len as usize);
            if addr == 0 || a + n > self.0.len() {
                return Err(format!("read of {len} at {addr}"));
            }
            Ok(self.0[a..a + n].to_vec())
        }

        fn write(&mut self, addr: u64, bytes: &[u8]) -> Result<(), String> {
            let a = addr as usize;
            if addr == 0 || a + bytes.len() > self.0.len() {
                return Err(format!("write of {} at {addr}", bytes.len()));
            }
            self.0[a..a + bytes.len()].copy_from_slice(bytes);
            Ok(())
        }
    }

    impl Flat {
        fn u64(&self, addr: u64) -> u64 {
            u64_at(&self.0, addr as usize)
        }

        fn put_u64(&mut self, addr: u64, v: u64) {
            self.write(addr, &v.to_le_bytes()).unwrap();
        }
    }

    // Memory layout of the tests.
    const NDRANGE: u64 = 8;
    const BLOCK: u64 = 96;
    const EVENTS: u64 = 160;
    const EVENT_RET: u64 = 200;
    const SIZES: u64 = 216;
    const PROFILE: u64 = 240;
    const QUEUE: u64 = 0x1000;

    fn module() -> Module {
        lockstep_ir::parse_module(
            "kernel @child(ptr.generic) {
    arg 0 \"\" \"\" none none
    enqueued_block
block0(v0: ptr.generic):
    return
}
kernel @child_local(ptr.generic, ptr.local) {
    arg 0 \"\" \"\" none none
    arg 1 \"\" \"\" none none
    enqueued_block
block0(v0: ptr.generic, v1: ptr.local):
    return
}
",
        )
        .unwrap()
    }

    fn work(queue_size: u32, max_events: u32) -> (DeviceWork, Flat) {
        let queues = DeviceQueues {
            queues: vec![DeviceQueue {
                handle: QUEUE,
                size: queue_size,
                profiling: true,
            }],
            default: QUEUE,
            max_events,
        };
        let platform = PlainPlatform {
            sub_group_size: 8,
            uniform_groups: false,
        };
        let mut mem = Flat(vec![0; 512]);
        // ndrange_1D(64, 16); a 24-byte block literal.
        mem.write(NDRANGE, &1u32.to_le_bytes()).unwrap();
        for d in 0..3 {
            mem.put_u64(NDRANGE + 32 + 8 * d, if d == 0 { 64 } else { 1 });
            mem.put_u64(NDRANGE + 56 + 8 * d, if d == 0 { 16 } else { 1 });
        }
        mem.write(BLOCK, &24u32.to_le_bytes()).unwrap();
        mem.write(BLOCK + 16, &[7; 8]).unwrap();
        (DeviceWork::new(queues, Box::new(platform)), mem)
    }

    fn kernel(m: &Module, name: &str) -> Option<FuncId> {
        m.function_by_name(name)
    }

    /// `enqueue_kernel @child` waiting for `events` (at EVENTS), its
    /// event to EVENT_RET when `want_event`.
    fn enqueue(
        w: &mut DeviceWork,
        m: &Module,
        mem: &mut Flat,
        events: &[u64],
        want_event: bool,
    ) -> i32 {
        for (i, &e) in events.iter().enumerate() {
            mem.put_u64(EVENTS + 8 * i as u64, e);
        }
        let list = if events.is_empty() { 0 } else { EVENTS };
        let ret = if want_event { EVENT_RET } else { 0 };
        let args = [
            QUEUE,
            0,
            NDRANGE,
            events.len() as u64,
            list,
            ret,
            BLOCK,
            0,
            0,
        ];
        w.call(m, DeviceOp::EnqueueKernel, kernel(m, "child"), &args, mem)
            .unwrap() as u32 as i32
    }

    fn op(w: &mut DeviceWork, m: &Module, mem: &mut Flat, op: DeviceOp, args: &[u64]) -> u64 {
        w.call(m, op, None, args, mem).unwrap()
    }

    #[test]
    fn a_child_waits_for_its_user_event_and_carries_its_block_and_range() {
        let m = module();
        let (mut w, mut mem) = work(64 * 1024, 1024);
        let user = op(&mut w, &m, &mut mem, DeviceOp::CreateUserEvent, &[]);
        assert_eq!(op(&mut w, &m, &mut mem, DeviceOp::IsValidEvent, &[user]), 1);
        assert_eq!(enqueue(&mut w, &m, &mut mem, &[user], true), clk::SUCCESS);
        let e = mem.u64(EVENT_RET);
        assert!(e != 0 && e != clk::NULL_EVENT && e != user);
        assert_eq!(w.next(&mut mem).unwrap(), None, "waits for the user event");
        assert_eq!(w.waiting(), 1);
        op(
            &mut w,
            &m,
            &mut mem,
            DeviceOp::SetUserEventStatus,
            &[user, 0],
        );
        let child = w.next(&mut mem).unwrap().expect("ready");
        assert_eq!(child.kernel, kernel(&m, "child").unwrap());
        assert_eq!(child.work_dim, 1);
        assert_eq!(child.global_size, [64, 1, 1]);
        assert_eq!(child.local_size, [16, 1, 1]);
        assert_eq!(child.block.len(), 24);
        assert_eq!(child.block[16..24], [7; 8]);
        w.finish(child.command, &mut mem).unwrap();
        assert_eq!(w.next(&mut mem).unwrap(), None);
        assert_eq!(w.waiting(), 0);
        assert_eq!(w.launched(), 1);
    }

    #[test]
    fn an_event_completes_with_the_kernels_its_command_enqueued() {
        let m = module();
        let (mut w, mut mem) = work(64 * 1024, 1024);
        assert_eq!(enqueue(&mut w, &m, &mut mem, &[], true), clk::SUCCESS);
        let parent_event = mem.u64(EVENT_RET);
        // A command that waits for the parent's event.
        assert_eq!(enqueue(&mut w, &m, &mut mem, &[parent_event], false), 0);
        let parent = w.next(&mut mem).unwrap().expect("the parent runs first");
        // Its work-items enqueue a grandchild.
        assert_eq!(enqueue(&mut w, &m, &mut mem, &[], false), clk::SUCCESS);
        // The profiling capture waits for the completion.
        op(
            &mut w,
            &m,
            &mut mem,
            DeviceOp::CaptureEventProfilingInfo,
            &[parent_event, 1, PROFILE],
        );
        w.finish(parent.command, &mut mem).unwrap();
        assert_eq!(mem.u64(PROFILE), 0, "not complete before its child");
        let grandchild = w.next(&mut mem).unwrap().expect("the grandchild");
        w.finish(grandchild.command, &mut mem).unwrap();
        let (exec, complete) = (mem.u64(PROFILE), mem.u64(PROFILE + 8));
        assert!(exec > 0 && complete >= exec, "{exec} {complete}");
        let waiter = w.next(&mut mem).unwrap().expect("the waiting command");
        w.finish(waiter.command, &mut mem).unwrap();
        assert_eq!(w.next(&mut mem).unwrap(), None);
    }

    #[test]
    fn a_failed_user_event_fails_the_commands_that_wait_for_it() {
        let m = module();
        let (mut w, mut mem) = work(64 * 1024, 1024);
        let user = op(&mut w, &m, &mut mem, DeviceOp::CreateUserEvent, &[]);
        assert_eq!(enqueue(&mut w, &m, &mut mem, &[user], true), 0);
        let e = mem.u64(EVENT_RET);
        assert_eq!(enqueue(&mut w, &m, &mut mem, &[e], false), 0);
        op(
            &mut w,
            &m,
            &mut mem,
            DeviceOp::SetUserEventStatus,
            &[user, (-5i32) as u32 as u64],
        );
        assert_eq!(w.next(&mut mem).unwrap(), None, "neither runs");
        assert_eq!(w.waiting(), 0);
        assert_eq!(w.launched(), 0);
    }

    #[test]
    fn wait_lists_markers_and_ranges_are_checked() {
        let m = module();
        let (mut w, mut mem) = work(64 * 1024, 1024);
        let bad = clk::INVALID_EVENT_WAIT_LIST;
        assert_eq!(
            enqueue(&mut w, &m, &mut mem, &[clk::NULL_EVENT], false),
            bad
        );
        let args = [QUEUE, 0, NDRANGE, 1, 0, 0, BLOCK, 0, 0];
        let r = w.call(
            &m,
            DeviceOp::EnqueueKernel,
            kernel(&m, "child"),
            &args,
            &mut mem,
        );
        assert_eq!(r.unwrap() as i32, bad, "a count without a list");
        let marker = |w: &mut DeviceWork, mem: &mut Flat, n: u64, list: u64| {
            op(
                w,
                &m,
                mem,
                DeviceOp::EnqueueMarker,
                &[QUEUE, n, list, EVENT_RET],
            ) as i32
        };
        assert_eq!(
            marker(&mut w, &mut mem, 0, 0),
            bad,
            "a marker waits for something"
        );
        let args = [0, 0, NDRANGE, 0, 0, 0, BLOCK, 0, 0];
        let r = w.call(
            &m,
            DeviceOp::EnqueueKernel,
            kernel(&m, "child"),
            &args,
            &mut mem,
        );
        assert_eq!(r.unwrap() as i32, clk::INVALID_QUEUE);
        // A local size larger than the device's largest work-group.
        mem.put_u64(NDRANGE + 56, 8192);
        assert_eq!(
            enqueue(&mut w, &m, &mut mem, &[], false),
            clk::INVALID_NDRANGE
        );
        // A zero global size.
        mem.put_u64(NDRANGE + 56, 16);
        mem.put_u64(NDRANGE + 32, 0);
        assert_eq!(
            enqueue(&mut w, &m, &mut mem, &[], false),
            clk::INVALID_NDRANGE
        );
        mem.put_u64(NDRANGE + 32, 64);
        // A `__local` argument of 0 bytes.
        mem.put_u64(SIZES, 0);
        let args = [QUEUE, 0, NDRANGE, 0, 0, 0, BLOCK, 1, SIZES];
        let child_local = kernel(&m, "child_local");
        let r = w.call(&m, DeviceOp::EnqueueKernel, child_local, &args, &mut mem);
        assert_eq!(r.unwrap() as i32, clk::INVALID_ARG_SIZE);
        mem.put_u64(SIZES, 256);
        let r = w.call(&m, DeviceOp::EnqueueKernel, child_local, &args, &mut mem);
        assert_eq!(r.unwrap() as i32, clk::SUCCESS);
        let child = w.next(&mut mem).unwrap().unwrap();
        assert_eq!(child.local_sizes, vec![256]);
    }

    #[test]
    fn nesting_deeper_than_the_limit_is_out_of_resources() {
        let m = module();
        let (mut w, mut mem) = work(64 * 1024, 1024);
        assert_eq!(enqueue(&mut w, &m, &mut mem, &[], false), clk::SUCCESS);
        let mut depth = 1;
        loop {
            let child = w.next(&mut mem).unwrap().expect("the chain goes on");
            let r = enqueue(&mut w, &m, &mut mem, &[], false);
            w.finish(child.command, &mut mem).unwrap();
            if r != clk::SUCCESS {
                assert_eq!(r, clk::OUT_OF_RESOURCES);
                break;
            }
            depth += 1;
        }
        assert_eq!(depth, MAX_NESTING);
        assert_eq!(w.next(&mut mem).unwrap(), None);
        assert!(
            w.commands.iter().all(Option::is_none),
            "every command completed"
        );
    }

    #[test]
    fn a_full_queue_and_an_exhausted_event_pool_are_reported() {
        let m = module();
        // Room for two commands of 24-byte blocks.
        let (mut w, mut mem) = work(2 * (COMMAND_BYTES as u32 + 24), 2);
        assert_eq!(enqueue(&mut w, &m, &mut mem, &[], false), clk::SUCCESS);
        assert_eq!(enqueue(&mut w, &m, &mut mem, &[], false), clk::SUCCESS);
        assert_eq!(
            enqueue(&mut w, &m, &mut mem, &[], false),
            clk::DEVICE_QUEUE_FULL
        );
        // Started commands leave the queue.
        let a = w.next(&mut mem).unwrap().unwrap();
        w.finish(a.command, &mut mem).unwrap();
        assert_eq!(enqueue(&mut w, &m, &mut mem, &[], true), clk::SUCCESS);
        let u = op(&mut w, &m, &mut mem, DeviceOp::CreateUserEvent, &[]);
        assert_ne!(u, clk::NULL_EVENT);
        let none = op(&mut w, &m, &mut mem, DeviceOp::CreateUserEvent, &[]);
        assert_eq!(none, clk::NULL_EVENT, "two events at most");
        assert_eq!(op(&mut w, &m, &mut mem, DeviceOp::IsValidEvent, &[none]), 0);
        // A released user event that is done frees its slot; its handle
        // is no longer valid.
        op(&mut w, &m, &mut mem, DeviceOp::SetUserEventStatus, &[u, 0]);
        op(&mut w, &m, &mut mem, DeviceOp::ReleaseEvent, &[u]);
        assert_eq!(op(&mut w, &m, &mut mem, DeviceOp::IsValidEvent, &[u]), 0);
        let again = op(&mut w, &m, &mut mem, DeviceOp::CreateUserEvent, &[]);
        assert_ne!(again, clk::NULL_EVENT);
        assert_ne!(again, u, "a reused slot has a new generation");
    }
}
