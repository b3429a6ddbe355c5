//! Device queues: the on-device command queues kernels enqueue child
//! kernels to (OpenCL C 2.0 `enqueue_kernel`), and the device's limits for
//! them.
//!
//! A context holds a [`DeviceQueues`] registry (shared by its clones): the
//! host creates queues in it (the OpenCL platform with the handles of its
//! `CL_QUEUE_ON_DEVICE` queues, in a registry of its own for each device
//! of each of its contexts) and chooses the default one, which
//! `get_default_queue` gives; a Rust API context starts with a default
//! device queue of the preferred size. Each launch takes a snapshot and runs the
//! kernels its work-items enqueue after its own work-items, on all cores,
//! following [`lockstep_interp::device_queue`] (the model both engines
//! share): the launch returns once every kernel it enqueued, transitively,
//! has completed.

use std::sync::{Arc, Mutex};

use lockstep_interp::device_queue::{self as model, DevicePlatform};
use lockstep_ir::FuncId;

use crate::{Context, Kernel, ProgramInner, MAX_LOCAL_MEM_SIZE, MAX_WORK_GROUP_SIZE};

/// The most device queues a context may have per device besides its
/// default device queue (`CL_DEVICE_MAX_ON_DEVICE_QUEUES`). The default
/// one is apart: there is at most one, and the CTS (`device_queue`)
/// creates this many others while it exists.
pub const MAX_ON_DEVICE_QUEUES: u32 = 4;

/// The most device events a launch may have in use at once
/// (`CL_DEVICE_MAX_ON_DEVICE_EVENTS`; OpenCL asks for at least 1024).
pub const MAX_ON_DEVICE_EVENTS: u32 = 16384;

/// A device queue's size when the host names none
/// (`CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE`), in bytes.
pub const QUEUE_ON_DEVICE_PREFERRED_SIZE: u32 = 256 * 1024;

/// The largest device queue (`CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE`), in bytes.
pub const QUEUE_ON_DEVICE_MAX_SIZE: u32 = 16 * 1024 * 1024;

/// Why a device queue cannot be created.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeviceQueueError {
    #[error("a device queue of {size} bytes is larger than the device's maximum of {max}")]
    TooLarge { size: u32, max: u32 },
    #[error("a device queue of 0 bytes holds no command")]
    Empty,
    #[error(
        "the context has {max} device queues besides the default one already, the device's maximum"
    )]
    TooMany { max: u32 },
    #[error("there is a default device queue already")]
    DefaultExists,
    #[error("the handle {0:#x} is 0 or names a device queue already")]
    BadHandle(u64),
}

#[derive(Debug, Default)]
struct Registry {
    queues: Vec<model::DeviceQueue>,
    default: u64,
    /// The next handle [`DeviceQueues::create`] gives.
    next: u64,
}

/// The device queues of a context (see the module documentation); clones
/// share the registry.
#[derive(Clone, Debug, Default)]
pub struct DeviceQueues {
    registry: Arc<Mutex<Registry>>,
}

impl DeviceQueues {
    /// No device queues (the OpenCL platform's start: the application
    /// creates them).
    pub fn new() -> DeviceQueues {
        DeviceQueues::default()
    }

    /// A default device queue of the preferred size and no other (what a
    /// new [`Context`] has).
    pub fn with_default() -> DeviceQueues {
        let queues = DeviceQueues::new();
        queues
            .ensure_default()
            .expect("an empty registry takes a default queue");
        queues
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Registry> {
        self.registry.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds a device queue under `handle` (what kernels hold as its
    /// `queue_t`; the OpenCL platform gives its `cl_command_queue`), of
    /// `size` bytes, with profiling or not; the default device queue if
    /// `default` (it must have none: [`DeviceQueues::set_default`] replaces
    /// one).
    pub fn add(
        &self,
        handle: u64,
        size: u32,
        profiling: bool,
        default: bool,
    ) -> Result<(), DeviceQueueError> {
        if size > QUEUE_ON_DEVICE_MAX_SIZE {
            return Err(DeviceQueueError::TooLarge {
                size,
                max: QUEUE_ON_DEVICE_MAX_SIZE,
            });
        }
        if size == 0 {
            return Err(DeviceQueueError::Empty);
        }
        let mut r = self.lock();
        if default && r.default != 0 {
            return Err(DeviceQueueError::DefaultExists);
        }
        let others = r.queues.iter().filter(|q| q.handle != r.default).count();
        if !default && others >= MAX_ON_DEVICE_QUEUES as usize {
            return Err(DeviceQueueError::TooMany {
                max: MAX_ON_DEVICE_QUEUES,
            });
        }
        if handle == 0 || r.queues.iter().any(|q| q.handle == handle) {
            return Err(DeviceQueueError::BadHandle(handle));
        }
        r.queues.push(model::DeviceQueue {
            handle,
            size,
            profiling,
        });
        if default {
            r.default = handle;
        }
        Ok(())
    }

    /// Creates a device queue of `size` bytes (the default one if
    /// `default`) and gives its handle.
    pub fn create(
        &self,
        size: u32,
        profiling: bool,
        default: bool,
    ) -> Result<u64, DeviceQueueError> {
        let handle = {
            let mut r = self.lock();
            // Handles the registry makes are small numbers; the OpenCL
            // platform's are addresses, far above.
            loop {
                r.next += 1;
                let h = r.next;
                if !r.queues.iter().any(|q| q.handle == h) {
                    break h;
                }
            }
        };
        self.add(handle, size, profiling, default)?;
        Ok(handle)
    }

    /// Removes a device queue (the default one too, leaving none).
    pub fn remove(&self, handle: u64) {
        let mut r = self.lock();
        r.queues.retain(|q| q.handle != handle);
        if r.default == handle {
            r.default = 0;
        }
    }

    /// Makes `handle` the default device queue; false if no queue has it.
    pub fn set_default(&self, handle: u64) -> bool {
        let mut r = self.lock();
        if !r.queues.iter().any(|q| q.handle == handle) {
            return false;
        }
        r.default = handle;
        true
    }

    /// The default device queue's handle, if there is one.
    pub fn default_queue(&self) -> Option<u64> {
        let h = self.lock().default;
        (h != 0).then_some(h)
    }

    /// Makes a default device queue of the preferred size if there is none
    /// (what a host program does before running kernels that enqueue);
    /// its handle.
    pub fn ensure_default(&self) -> Result<u64, DeviceQueueError> {
        if let Some(h) = self.default_queue() {
            return Ok(h);
        }
        self.create(QUEUE_ON_DEVICE_PREFERRED_SIZE, false, true)
    }

    /// How many device queues there are.
    pub fn len(&self) -> usize {
        self.lock().queues.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The queues as a launch sees them.
    pub(crate) fn snapshot(&self) -> model::DeviceQueues {
        let r = self.lock();
        model::DeviceQueues {
            queues: r.queues.clone(),
            default: r.default,
            max_events: MAX_ON_DEVICE_EVENTS,
        }
    }
}

/// What the runtime answers the device enqueue model about a program's
/// kernels: their widths and default local sizes as host launches get
/// them, and the device's limits.
pub(crate) struct RuntimePlatform {
    pub program: Arc<ProgramInner>,
    pub ctx: Context,
}

impl DevicePlatform for RuntimePlatform {
    fn sub_group_size(&self, kernel: FuncId) -> u32 {
        self.ctx
            .kernel_width(&Kernel::for_func(self.program.clone(), kernel))
    }

    fn default_local_size(&self, kernel: FuncId, global: [u64; 3], dims: u32) -> [u64; 3] {
        let k = Kernel::for_func(self.program.clone(), kernel);
        let width = self.ctx.kernel_width(&k);
        k.default_local_size(global, dims as usize, width)
    }

    fn max_work_group_size(&self) -> u64 {
        MAX_WORK_GROUP_SIZE
    }

    fn max_work_item_sizes(&self) -> [u64; 3] {
        [MAX_WORK_GROUP_SIZE; 3]
    }

    fn max_local_mem(&self) -> u64 {
        MAX_LOCAL_MEM_SIZE
    }

    fn uniform_groups(&self) -> bool {
        self.program.uniform_groups_required
    }
}

/// The device work of a launch of `kernel` in `ctx`: the context's device
/// queues as they are now.
pub(crate) fn device_work(ctx: &Context, kernel: &Kernel) -> model::DeviceWork {
    let platform = RuntimePlatform {
        program: kernel.program.clone(),
        ctx: ctx.clone(),
    };
    model::DeviceWork::new(ctx.device_queues().snapshot(), Box::new(platform))
}
