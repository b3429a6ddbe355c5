//! Command queues and events: how enqueued commands run.
//!
//! Execution model: an enqueue returns at once and its command runs on a
//! background thread ([`lockstep_runtime::executor`]), so the application
//! goes on while the device works. Each queue has at most one thread
//! running its commands at a time (its *runner*): an executor job started
//! when a command becomes ready and no runner is active, which runs ready
//! commands until none is left. In-order queues run their commands in the
//! order they were enqueued, each once its wait list is complete;
//! out-of-order queues (`CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE`) run any
//! command whose wait list is complete, where a marker or barrier without a
//! wait list waits for every command enqueued before it and every command
//! after a barrier waits for the barrier. Kernels run their work-groups on
//! the runtime's worker pool, which the runner waits on.
//!
//! A command whose wait list holds an incomplete event registers its queue
//! with that event, which runs the queue again when it completes (or
//! fails): user events (`clSetUserEventStatus`) and commands of other
//! queues gate commands this way. A failed dependency (negative status)
//! fails the command with `CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST`
//! without running it.
//!
//! A thread about to wait for a queue (a blocking read, write or map,
//! `clFinish`, `clWaitForEvents`) runs the queue's ready commands itself
//! when no runner is active, also when an executor job was started but has
//! not begun (the job then finds the work taken): a blocking call after a
//! kernel costs no thread switch. Pending commands keep what they use alive: their events
//! (which hold the context), the memory objects they read or write, and
//! the queue itself (a running queue is held by its runner, a waiting one
//! by the events it waits for), so releasing a queue, a buffer or a context
//! with work pending is safe. Releasing a queue's last reference waits for
//! the commands that can run now (as `clFinish` would, but not for user
//! events that may never complete).
//!
//! Events record profiling times (queued at the enqueue, submitted and
//! started when the command is taken to run, ended when it has run, in ns
//! of a monotonic clock; a kernel that enqueued kernels on the device ended
//! when its own work-items had run, and is complete when those have too) and call their callbacks, once each, when they
//! reach (or pass) the status registered for.

#![allow(non_snake_case)]

use std::collections::VecDeque;
use std::ffi::c_void;
use std::sync::{Arc, Condvar, Mutex, OnceLock, Weak};
use std::time::Instant;

use crate::cl::*;
use crate::context::Context;
use crate::device::Device;
use crate::handle::{self, creator, status, ClType, Kind, Object, Retained};
use crate::info::Info;
use crate::memory::Mem;
use lockstep_runtime::device_queues;

/// The profiling clock's start (its first use).
fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// Nanoseconds on the profiling clock (monotonic, from the first use).
pub fn now_ns() -> u64 {
    // Start at 1 so that no timestamp is zero.
    epoch().elapsed().as_nanos() as u64 + 1
}

/// An instant on the profiling clock.
fn ns_at(t: Instant) -> u64 {
    t.saturating_duration_since(epoch()).as_nanos() as u64 + 1
}

/// The resolution of [`now_ns`]'s clock in ns (`Instant` reads
/// `CLOCK_MONOTONIC`), at least 1: what `CL_PLATFORM_HOST_TIMER_RESOLUTION`
/// and `CL_DEVICE_PROFILING_TIMER_RESOLUTION` report, the device and host
/// timers being the same clock.
pub fn clock_resolution_ns() -> u64 {
    let mut res = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `res` is a valid timespec to write.
    let ok = unsafe { libc::clock_getres(libc::CLOCK_MONOTONIC, &mut res) } == 0;
    if !ok {
        return 1;
    }
    (res.tv_sec as u64 * 1_000_000_000 + res.tv_nsec as u64).max(1)
}

pub struct Queue {
    pub context: Retained<Context>,
    /// The device its commands run on (one of the context's).
    device: Retained<Device>,
    pub properties: cl_command_queue_properties,
    /// The property list as given (`CL_QUEUE_PROPERTIES_ARRAY`).
    properties_array: Vec<cl_queue_properties>,
    /// A device queue's size in bytes (`CL_QUEUE_SIZE`); `None` for a host
    /// queue.
    device_queue_size: Option<u32>,
    state: Mutex<QueueState>,
    /// Signalled when the runner stops.
    stopped: Condvar,
}

struct QueueState {
    /// Commands not taken to run yet, in enqueue order.
    pending: VecDeque<Command>,
    /// A thread (an executor job, or an application thread about to wait)
    /// is running this queue's commands.
    running: bool,
    /// An executor job has been started to run them and has not begun.
    scheduled: bool,
    /// The runner's thread, while there is one.
    runner: Option<std::thread::ThreadId>,
    /// Events of the commands enqueued and not seen done, oldest first:
    /// what `clFinish` and markers without a wait list wait for.
    in_flight: VecDeque<Arc<Object<Event>>>,
    /// When `in_flight` is that long, its done events are dropped (it
    /// doubles so that pruning costs little per enqueue).
    prune_at: usize,
    /// Out-of-order queues: the last barrier, which later commands wait for.
    barrier: Option<Arc<Object<Event>>>,
}

/// `in_flight`'s first pruning length.
const PRUNE_AT: usize = 256;

impl ClType for Queue {
    const KIND: Kind = Kind::Queue;
    const INVALID: cl_int = CL_INVALID_COMMAND_QUEUE;
}

impl Queue {
    /// The device its commands run on.
    pub fn device(&self) -> &Arc<Object<Device>> {
        &self.device
    }

    /// The runtime context its kernels are launched in: the context's,
    /// on at most as many worker threads as the queue's device has compute
    /// units (a sub-device's share).
    pub fn runtime(&self) -> lockstep_runtime::Context {
        let mut runtime = self.context.runtime.clone();
        let threads = runtime.threads();
        if self.device.threads(threads) != threads {
            runtime.set_threads(self.device.threads(threads));
        }
        if let Some(queues) = self.context.device_queues(&self.device) {
            runtime.set_device_queues(queues.clone());
        }
        runtime
    }

    /// Whether this is a device queue (`CL_QUEUE_ON_DEVICE`): kernels
    /// enqueue to it, the host does not.
    pub fn on_device(&self) -> bool {
        self.device_queue_size.is_some()
    }
}

/// What a command does when it runs; an error becomes its event's status.
pub type Work = Box<dyn FnOnce() -> Result<(), cl_int> + Send>;

struct Command {
    event: Arc<Object<Event>>,
    wait: Vec<Arc<Object<Event>>>,
    work: Work,
    /// The memory objects the command uses: kept until it has run, so that
    /// their destructor callbacks (which may free a `USE_HOST_PTR`
    /// region) come after it.
    uses: Vec<Arc<Object<Mem>>>,
    /// A kernel's work sets when its own work-items had run, if it
    /// enqueued kernels that ran after them (`CL_PROFILING_COMMAND_END`,
    /// before `COMPLETE`).
    ended: Option<Arc<OnceLock<Instant>>>,
}

impl Command {
    fn is_ready(&self) -> bool {
        self.wait.iter().all(|e| e.is_done())
    }
}

pub type EventCallback = unsafe extern "C" fn(event: cl_event, status: cl_int, user: *mut c_void);

pub struct Event {
    pub context: Retained<Context>,
    /// The queue of a command's event (weak: events outlive queues).
    queue: Option<Weak<Object<Queue>>>,
    queue_handle: cl_command_queue,
    pub command_type: cl_command_type,
    profiling: bool,
    state: Mutex<EventState>,
    done: Condvar,
}

// SAFETY: `queue_handle` is only reported back, never dereferenced.
unsafe impl Send for Event {}
unsafe impl Sync for Event {}

struct EventState {
    /// CL_QUEUED … CL_COMPLETE, or a negative error.
    status: cl_int,
    /// Queued, submitted, started, ended, complete (a kernel's children
    /// too: its command ended when its own work-items had run).
    times: [u64; 5],
    callbacks: Vec<(cl_int, EventCallback, usize)>,
    /// Queues with a command waiting for this event: run again when it is
    /// done (and held until then).
    waiters: Vec<Arc<Object<Queue>>>,
}

impl ClType for Event {
    const KIND: Kind = Kind::Event;
    const INVALID: cl_int = CL_INVALID_EVENT;
}

impl Event {
    fn lock(&self) -> std::sync::MutexGuard<'_, EventState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn status(&self) -> cl_int {
        self.lock().status
    }

    /// Complete, or failed.
    fn is_done(&self) -> bool {
        self.status() <= CL_COMPLETE as cl_int
    }

    /// Blocks until the event is complete (or failed); its status.
    pub fn wait(&self) -> cl_int {
        let mut state = self.lock();
        while state.status > CL_COMPLETE as cl_int {
            state = self.done.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        state.status
    }

    /// Runs `queue` again when this event is done; false if it is done
    /// already.
    fn add_waiter(&self, queue: &Arc<Object<Queue>>) -> bool {
        let mut state = self.lock();
        if state.status <= CL_COMPLETE as cl_int {
            return false;
        }
        if !state.waiters.iter().any(|q| Arc::ptr_eq(q, queue)) {
            state.waiters.push(queue.clone());
        }
        true
    }
}

impl Object<Event> {
    /// Moves the event to `status` (recording the time); once it is done,
    /// runs the queues waiting for it; then calls the callbacks registered
    /// for `status` (and for earlier states it skipped).
    /// False (and nothing changes) if the event was done already.
    fn set_status(self: &Arc<Self>, status: cl_int) -> bool {
        let (due, waiters) = {
            let mut state = self.lock();
            if state.status <= CL_COMPLETE as cl_int {
                return false;
            }
            let now = now_ns();
            match status {
                s if s == CL_SUBMITTED as cl_int => state.times[1] = now,
                s if s == CL_RUNNING as cl_int => state.times[2] = now,
                _ => {
                    for t in 1..5 {
                        if state.times[t] == 0 {
                            state.times[t] = now;
                        }
                    }
                }
            }
            state.status = status;
            let (due, keep): (Vec<_>, Vec<_>) = std::mem::take(&mut state.callbacks)
                .into_iter()
                .partition(|(when, _, _)| status <= *when);
            state.callbacks = keep;
            let waiters = if status <= CL_COMPLETE as cl_int {
                std::mem::take(&mut state.waiters)
            } else {
                Vec::new()
            };
            (due, waiters)
        };
        if status <= CL_COMPLETE as cl_int {
            self.done.notify_all();
        }
        for q in waiters {
            q.kick();
        }
        let handle = handle::handle(self);
        for (_, f, user) in due {
            // SAFETY: a C callback the application registered.
            unsafe { f(handle, status, user as *mut c_void) };
        }
        true
    }
}

impl Queue {
    fn lock(&self) -> std::sync::MutexGuard<'_, QueueState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn out_of_order(&self) -> bool {
        self.properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE != 0
    }

    /// Where in `pending` the next command to run is, if one may run now:
    /// the first (in order), or the first whose wait list is done (out of
    /// order).
    fn next_ready(&self, state: &QueueState) -> Option<usize> {
        if self.out_of_order() {
            state.pending.iter().position(Command::is_ready)
        } else {
            state.pending.front().filter(|c| c.is_ready()).map(|_| 0)
        }
    }
}

impl Object<Queue> {
    /// Starts a runner on the executor if a command may run and no runner
    /// is active or about to start.
    fn kick(self: &Arc<Self>) {
        {
            let mut state = self.lock();
            if state.running || state.scheduled || self.next_ready(&state).is_none() {
                return;
            }
            state.scheduled = true;
        }
        let queue = self.clone();
        lockstep_runtime::executor::spawn(move || {
            {
                let mut state = queue.lock();
                state.scheduled = false;
                if state.running {
                    // A waiting application thread took over.
                    return;
                }
                state.running = true;
            }
            queue.drain(usize::MAX)
        });
    }

    /// Runs up to `budget` ready commands on this thread, unless a runner
    /// is active: a thread about to wait for the queue's commands runs them
    /// itself rather than wait for an executor thread to wake up and run
    /// them (two thread switches per blocking call otherwise).
    fn help(self: &Arc<Self>, budget: usize) {
        {
            let mut state = self.lock();
            if state.running {
                return;
            }
            state.running = true;
        }
        self.drain(budget);
    }

    /// As the queue's runner (`running` set by the caller): runs ready
    /// commands until none is ready or `budget` have run, then stops (and
    /// with ready commands left, starts a runner on the executor).
    fn drain(self: &Arc<Self>, mut budget: usize) {
        self.lock().runner = Some(std::thread::current().id());
        loop {
            let command = {
                let mut state = self.lock();
                match self.next_ready(&state).filter(|_| budget > 0) {
                    Some(i) => state.pending.remove(i).expect("a ready command"),
                    None => {
                        state.running = false;
                        state.runner = None;
                        let more = self.next_ready(&state).is_some();
                        drop(state);
                        self.stopped.notify_all();
                        if more {
                            self.kick();
                        }
                        return;
                    }
                }
            };
            budget -= 1;
            execute(command);
        }
    }

    /// Blocks until every command enqueued so far has run (running them
    /// here if no runner is active).
    pub fn finish(self: &Arc<Self>) {
        let (events, budget) = {
            let state = self.lock();
            let events: Vec<_> = state.in_flight.iter().cloned().collect();
            (events, state.pending.len())
        };
        self.help(budget);
        for e in events {
            e.wait();
        }
    }

    /// Blocks until no command of the queue may run now: each has run, or
    /// waits for an event not done. At once on the runner's own thread (a
    /// callback releasing the queue).
    fn quiesce(&self) {
        let me = std::thread::current().id();
        let mut state = self.lock();
        while (state.running || state.scheduled) && state.runner != Some(me) {
            state = self.stopped.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// Runs a command taken from its queue (on the queue's runner).
fn execute(command: Command) {
    let Command {
        event,
        wait,
        work,
        uses,
        ended,
    } = command;
    let status = if wait.iter().any(|e| e.status() < 0) {
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
    } else {
        event.set_status(CL_SUBMITTED as cl_int);
        event.set_status(CL_RUNNING as cl_int);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))
            .unwrap_or(Err(CL_OUT_OF_HOST_MEMORY));
        if let Some(&at) = ended.as_ref().and_then(|e| e.get()) {
            event.lock().times[3] = ns_at(at);
        }
        match result {
            Ok(()) => CL_COMPLETE as cl_int,
            Err(code) => code.min(-1),
        }
    };
    // The command's hold on its memory objects ends before its event says
    // so: an application that waits for the event and then releases an
    // object must see it destroyed (its destructor callback called) then,
    // not whenever this thread gets to it.
    drop(uses);
    event.set_status(status);
}

/// The events of a wait list, validated: `CL_INVALID_EVENT_WAIT_LIST` for a
/// malformed list or a bad handle, `CL_INVALID_CONTEXT` for another
/// context's event.
pub unsafe fn wait_list(
    context: &Arc<Object<Context>>,
    num: cl_uint,
    list: *const cl_event,
) -> Result<Vec<Arc<Object<Event>>>, cl_int> {
    let events = handle::get_list::<Event>(num, list, CL_INVALID_EVENT_WAIT_LIST)
        .map_err(|_| CL_INVALID_EVENT_WAIT_LIST)?;
    if events.iter().any(|e| !Arc::ptr_eq(&e.context, context)) {
        return Err(CL_INVALID_CONTEXT);
    }
    Ok(events)
}

/// What a command enqueue needs to know besides its work.
pub struct Enqueue<'a> {
    pub queue: &'a Arc<Object<Queue>>,
    pub command_type: cl_command_type,
    pub wait: Vec<Arc<Object<Event>>>,
    /// Where the application wants the event (may be NULL).
    pub event_out: *mut cl_event,
    /// Return only once the command is complete.
    pub blocking: bool,
    /// The memory objects the command uses (kept alive until it has run).
    pub uses: Vec<Arc<Object<Mem>>>,
}

/// Enqueues `work` to run once its wait list (and, in order, every
/// earlier command) is done. A non-blocking enqueue returns at once; a
/// blocking one returns when the command is complete, or its error.
pub unsafe fn enqueue(e: Enqueue<'_>, work: Work) -> Result<(), cl_int> {
    enqueue_command(e, work, None)
}

/// Enqueues a kernel as [`enqueue`] does; its work sets `ended` when the
/// kernel's own work-items had run, before the kernels they enqueued.
pub unsafe fn enqueue_kernel(
    e: Enqueue<'_>,
    work: Work,
    ended: Arc<OnceLock<Instant>>,
) -> Result<(), cl_int> {
    enqueue_command(e, work, Some(ended))
}

unsafe fn enqueue_command(
    e: Enqueue<'_>,
    work: Work,
    ended: Option<Arc<OnceLock<Instant>>>,
) -> Result<(), cl_int> {
    let queue = e.queue;
    let event = new_event(&queue.context, Some(queue), e.command_type);
    let mut wait = e.wait;
    let budget = {
        let mut state = queue.lock();
        while state.in_flight.front().is_some_and(|e| e.is_done()) {
            state.in_flight.pop_front();
        }
        if state.in_flight.len() >= state.prune_at {
            state.in_flight.retain(|e| !e.is_done());
            state.prune_at = PRUNE_AT.max(2 * state.in_flight.len());
        }
        if queue.out_of_order() {
            let marker = matches!(e.command_type, CL_COMMAND_MARKER | CL_COMMAND_BARRIER);
            if marker && wait.is_empty() {
                wait.extend(state.in_flight.iter().cloned());
            }
            if let Some(barrier) = &state.barrier {
                wait.push(barrier.clone());
            }
            if e.command_type == CL_COMMAND_BARRIER {
                state.barrier = Some(event.clone());
            }
        }
        // Events already done need no waiting for.
        wait.retain(|dep| dep.add_waiter(queue) || dep.status() < 0);
        state.in_flight.push_back(event.clone());
        state.pending.push_back(Command {
            event: event.clone(),
            wait,
            work,
            uses: e.uses,
            ended,
        });
        state.pending.len()
    };
    if e.blocking {
        // Run it here if no runner is active: no thread switch for the
        // application that waits anyway.
        queue.help(budget);
        let status = event.wait();
        if status < 0 {
            event.release();
            return Err(status);
        }
    } else {
        queue.kick();
    }
    if e.event_out.is_null() {
        event.release();
    } else {
        *e.event_out = handle::handle(&event);
    }
    Ok(())
}

fn new_event(
    context: &Arc<Object<Context>>,
    queue: Option<&Arc<Object<Queue>>>,
    command_type: cl_command_type,
) -> Arc<Object<Event>> {
    let profiling = queue.is_some_and(|q| q.properties & CL_QUEUE_PROFILING_ENABLE != 0);
    handle::create(Event {
        context: Retained::new(context),
        queue: queue.map(Arc::downgrade),
        queue_handle: queue.map_or(std::ptr::null_mut(), handle::handle),
        command_type,
        profiling,
        state: Mutex::new(EventState {
            status: if queue.is_some() {
                CL_QUEUED as cl_int
            } else {
                CL_SUBMITTED as cl_int
            },
            times: [now_ns(), 0, 0, 0, 0],
            callbacks: Vec::new(),
            waiters: Vec::new(),
        }),
        done: Condvar::new(),
    })
}

/// The host queue behind a handle: a device queue takes no commands from
/// the host (`CL_INVALID_COMMAND_QUEUE`, as for an invalid handle).
pub fn get(queue: cl_command_queue) -> Result<Arc<Object<Queue>>, cl_int> {
    let q = handle::get::<Queue>(queue)?;
    if q.on_device() {
        return Err(CL_INVALID_COMMAND_QUEUE);
    }
    Ok(q)
}

/// The queue behind a handle, host or device queue.
pub fn get_any(queue: cl_command_queue) -> Result<Arc<Object<Queue>>, cl_int> {
    handle::get::<Queue>(queue)
}

/// Creates a host queue, or with `CL_QUEUE_ON_DEVICE` a device queue of
/// `size` bytes (the preferred size when `None`), registered with its
/// device's device queues (the default one with
/// `CL_QUEUE_ON_DEVICE_DEFAULT`, which gives the existing default device
/// queue, retained, if there is one).
fn create_queue(
    context: cl_context,
    device: cl_device_id,
    properties: cl_command_queue_properties,
    properties_array: Vec<cl_queue_properties>,
    size: Option<cl_queue_properties>,
) -> Result<cl_command_queue, cl_int> {
    let context = crate::context::get(context)?;
    let device = context.device(device)?;
    // Bits no version defines, an on-device queue that is not out of
    // order, a default one that is not on the device, or a size for a host
    // queue, are not valid.
    let supported = CL_QUEUE_PROFILING_ENABLE
        | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE
        | CL_QUEUE_ON_DEVICE
        | CL_QUEUE_ON_DEVICE_DEFAULT;
    let on_device = properties & CL_QUEUE_ON_DEVICE != 0;
    if properties & !supported != 0
        || (on_device && properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE == 0)
        || (!on_device && properties & CL_QUEUE_ON_DEVICE_DEFAULT != 0)
        || (!on_device && size.is_some())
    {
        return Err(CL_INVALID_VALUE);
    }
    let device_queue_size = if on_device {
        let size = size.unwrap_or(device_queues::QUEUE_ON_DEVICE_PREFERRED_SIZE as u64);
        if size == 0 || size > device_queues::QUEUE_ON_DEVICE_MAX_SIZE as u64 {
            return Err(CL_INVALID_VALUE);
        }
        Some(size as u32)
    } else {
        None
    };
    let registry = context
        .device_queues(&device)
        .ok_or(CL_INVALID_DEVICE)?
        .clone();
    if properties & CL_QUEUE_ON_DEVICE_DEFAULT != 0 {
        // One default device queue per device of a context.
        if let Some(existing) = registry.default_queue() {
            if let Ok(q) = get_any(existing as cl_command_queue) {
                q.retain();
                return Ok(handle::handle(&q));
            }
        }
    }
    let queue = handle::create(Queue {
        context: Retained::new(&context),
        device: Retained::new(&device),
        properties,
        properties_array,
        device_queue_size,
        state: Mutex::new(QueueState {
            pending: VecDeque::new(),
            running: false,
            scheduled: false,
            runner: None,
            in_flight: VecDeque::new(),
            prune_at: PRUNE_AT,
            barrier: None,
        }),
        stopped: Condvar::new(),
    });
    if let Some(size) = device_queue_size {
        let h = handle::handle(&queue) as u64;
        let profiling = properties & CL_QUEUE_PROFILING_ENABLE != 0;
        let default = properties & CL_QUEUE_ON_DEVICE_DEFAULT != 0;
        match registry.add(h, size, profiling, default) {
            Ok(()) => {}
            // Another thread made the default device queue meanwhile.
            Err(device_queues::DeviceQueueError::DefaultExists) => {
                queue.release();
                let existing = registry.default_queue().ok_or(CL_OUT_OF_RESOURCES)?;
                let q = get_any(existing as cl_command_queue)?;
                q.retain();
                return Ok(handle::handle(&q));
            }
            // More device queues than CL_DEVICE_MAX_ON_DEVICE_QUEUES.
            Err(_) => {
                queue.release();
                return Err(CL_OUT_OF_RESOURCES);
            }
        }
    }
    Ok(handle::handle(&queue))
}

pub unsafe extern "C" fn clCreateCommandQueue(
    context: cl_context,
    device: cl_device_id,
    properties: cl_command_queue_properties,
    errcode_ret: *mut cl_int,
) -> cl_command_queue {
    creator(errcode_ret, || {
        // The OpenCL 1.x call makes host queues: its properties are
        // CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE and CL_QUEUE_PROFILING_ENABLE.
        if properties & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT) != 0 {
            crate::context::get(context)?.device(device)?;
            return Err(CL_INVALID_VALUE);
        }
        create_queue(context, device, properties, Vec::new(), None)
    })
}

pub unsafe extern "C" fn clCreateCommandQueueWithProperties(
    context: cl_context,
    device: cl_device_id,
    properties: *const cl_queue_properties,
    errcode_ret: *mut cl_int,
) -> cl_command_queue {
    creator(errcode_ret, || {
        let mut flags = 0;
        let mut size = None;
        let mut array = Vec::new();
        if !properties.is_null() {
            let mut p = properties;
            while *p != 0 {
                let (name, value) = (*p, *p.add(1));
                match name {
                    n if n == CL_QUEUE_PROPERTIES as cl_queue_properties => flags = value,
                    n if n == CL_QUEUE_SIZE as cl_queue_properties => size = Some(value),
                    _ => return Err(CL_INVALID_VALUE),
                }
                array.extend([name, value]);
                p = p.add(2);
            }
            array.push(0);
        }
        create_queue(context, device, flags, array, size)
    })
}

pub unsafe extern "C" fn clRetainCommandQueue(queue: cl_command_queue) -> cl_int {
    status(|| {
        get_any(queue)?.retain();
        Ok(())
    })
}

pub unsafe extern "C" fn clReleaseCommandQueue(queue: cl_command_queue) -> cl_int {
    status(|| {
        let q = get_any(queue)?;
        // A device queue's last release takes it out of its device's
        // device queues (as the default one too).
        if q.ref_count() == 1 && q.on_device() {
            if let Some(queues) = q.context.device_queues(&q.device) {
                queues.remove(queue as u64);
            }
        }
        // Commands are submitted as they are enqueued (the implicit flush).
        // Before the last reference goes, what can run runs (the
        // application may exit next); commands waiting for events keep the
        // queue alive until they have run.
        if q.ref_count() == 1 {
            q.quiesce();
        }
        q.release();
        Ok(())
    })
}

pub unsafe extern "C" fn clGetCommandQueueInfo(
    queue: cl_command_queue,
    param_name: cl_command_queue_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    status(|| {
        let q = get_any(queue)?;
        let info = match param_name {
            CL_QUEUE_CONTEXT => Info::ptr(handle::handle(&q.context)),
            CL_QUEUE_DEVICE => Info::ptr(handle::handle(&q.device)),
            CL_QUEUE_REFERENCE_COUNT => Info::from(q.ref_count()),
            CL_QUEUE_PROPERTIES => Info::from(q.properties),
            CL_QUEUE_PROPERTIES_ARRAY => Info::list(&q.properties_array),
            // Only device queues have a size.
            CL_QUEUE_SIZE => Info::from(q.device_queue_size.ok_or(CL_INVALID_COMMAND_QUEUE)?),
            CL_QUEUE_DEVICE_DEFAULT => {
                let default = q
                    .context
                    .device_queues(&q.device)
                    .and_then(|d| d.default_queue())
                    .unwrap_or(0);
                Info::ptr(default as *const c_void)
            }
            _ => return Err(CL_INVALID_VALUE),
        };
        match info.write(size, value, size_ret) {
            CL_SUCCESS => Ok(()),
            e => Err(e),
        }
    })
}

/// Makes a device queue of `device` the default one (the device's default
/// device queue is replaceable: `CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT`).
pub unsafe extern "C" fn clSetDefaultDeviceCommandQueue(
    context: cl_context,
    device: cl_device_id,
    command_queue: cl_command_queue,
) -> cl_int {
    status(|| {
        let context = crate::context::get(context)?;
        let device = context.device(device)?;
        let q = get_any(command_queue)?;
        if !q.on_device() || !Arc::ptr_eq(&q.context, &context) || !Arc::ptr_eq(q.device(), &device)
        {
            return Err(CL_INVALID_COMMAND_QUEUE);
        }
        let queues = context.device_queues(&device).ok_or(CL_INVALID_DEVICE)?;
        if !queues.set_default(command_queue as u64) {
            return Err(CL_INVALID_COMMAND_QUEUE);
        }
        Ok(())
    })
}

pub unsafe extern "C" fn clSetCommandQueueProperty(
    queue: cl_command_queue,
    _properties: cl_command_queue_properties,
    _enable: cl_bool,
    _old: *mut cl_command_queue_properties,
) -> cl_int {
    status(|| {
        get(queue)?;
        Err(CL_INVALID_OPERATION)
    })
}

pub unsafe extern "C" fn clFlush(queue: cl_command_queue) -> cl_int {
    status(|| {
        // Every command is submitted when it is enqueued.
        get(queue)?;
        Ok(())
    })
}

pub unsafe extern "C" fn clFinish(queue: cl_command_queue) -> cl_int {
    status(|| {
        get(queue)?.finish();
        Ok(())
    })
}

/// Markers and barriers: commands that do nothing once their wait list (or,
/// with none, every earlier command) is done; see [`enqueue`] for what a
/// barrier does in an out-of-order queue.
unsafe fn marker(
    queue: cl_command_queue,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
    command_type: cl_command_type,
) -> Result<(), cl_int> {
    let q = get(queue)?;
    let wait = wait_list(&q.context, num, list)?;
    enqueue(
        Enqueue {
            queue: &q,
            command_type,
            wait,
            event_out: event,
            blocking: false,
            uses: Vec::new(),
        },
        Box::new(|| Ok(())),
    )
}

pub unsafe extern "C" fn clEnqueueMarkerWithWaitList(
    queue: cl_command_queue,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| marker(queue, num, list, event, CL_COMMAND_MARKER))
}

pub unsafe extern "C" fn clEnqueueBarrierWithWaitList(
    queue: cl_command_queue,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| marker(queue, num, list, event, CL_COMMAND_BARRIER))
}

pub unsafe extern "C" fn clEnqueueMarker(queue: cl_command_queue, event: *mut cl_event) -> cl_int {
    status(|| {
        if event.is_null() {
            get(queue)?;
            return Err(CL_INVALID_VALUE);
        }
        marker(queue, 0, std::ptr::null(), event, CL_COMMAND_MARKER)
    })
}

pub unsafe extern "C" fn clEnqueueBarrier(queue: cl_command_queue) -> cl_int {
    status(|| {
        marker(
            queue,
            0,
            std::ptr::null(),
            std::ptr::null_mut(),
            CL_COMMAND_BARRIER,
        )
    })
}

pub unsafe extern "C" fn clEnqueueWaitForEvents(
    queue: cl_command_queue,
    num: cl_uint,
    list: *const cl_event,
) -> cl_int {
    status(|| {
        if num == 0 || list.is_null() {
            get(queue)?;
            return Err(CL_INVALID_VALUE);
        }
        marker(queue, num, list, std::ptr::null_mut(), CL_COMMAND_BARRIER)
    })
}

pub unsafe extern "C" fn clWaitForEvents(num: cl_uint, list: *const cl_event) -> cl_int {
    status(|| {
        if num == 0 || list.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let events = handle::get_list::<Event>(num, list, CL_INVALID_EVENT)?;
        if events
            .iter()
            .any(|e| !Arc::ptr_eq(&e.context, &events[0].context))
        {
            return Err(CL_INVALID_CONTEXT);
        }
        let mut failed = false;
        for e in &events {
            if let Some(q) = e.queue.as_ref().and_then(Weak::upgrade) {
                // Run the queue here if no runner is active.
                let budget = q.lock().pending.len();
                q.help(budget);
            }
            failed |= e.wait() < 0;
        }
        if failed {
            Err(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        } else {
            Ok(())
        }
    })
}

pub unsafe extern "C" fn clGetEventInfo(
    event: cl_event,
    param_name: cl_event_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    status(|| {
        let e = handle::get::<Event>(event)?;
        let info = match param_name {
            CL_EVENT_COMMAND_QUEUE => Info::ptr(e.queue_handle),
            CL_EVENT_CONTEXT => Info::ptr(handle::handle(&e.context)),
            CL_EVENT_COMMAND_TYPE => Info::from(e.command_type),
            CL_EVENT_COMMAND_EXECUTION_STATUS => Info::from(e.status()),
            CL_EVENT_REFERENCE_COUNT => Info::from(e.ref_count()),
            _ => return Err(CL_INVALID_VALUE),
        };
        match info.write(size, value, size_ret) {
            CL_SUCCESS => Ok(()),
            e => Err(e),
        }
    })
}

pub unsafe extern "C" fn clGetEventProfilingInfo(
    event: cl_event,
    param_name: cl_profiling_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    status(|| {
        let e = handle::get::<Event>(event)?;
        let state = e.state.lock().unwrap_or_else(|p| p.into_inner());
        if !e.profiling || state.status != CL_COMPLETE as cl_int {
            return Err(CL_PROFILING_INFO_NOT_AVAILABLE);
        }
        let t = state.times;
        let info = match param_name {
            CL_PROFILING_COMMAND_QUEUED => Info::from(t[0]),
            CL_PROFILING_COMMAND_SUBMIT => Info::from(t[1]),
            CL_PROFILING_COMMAND_START => Info::from(t[2]),
            CL_PROFILING_COMMAND_END => Info::from(t[3]),
            CL_PROFILING_COMMAND_COMPLETE => Info::from(t[4]),
            _ => return Err(CL_INVALID_VALUE),
        };
        match info.write(size, value, size_ret) {
            CL_SUCCESS => Ok(()),
            e => Err(e),
        }
    })
}

pub unsafe extern "C" fn clRetainEvent(event: cl_event) -> cl_int {
    status(|| {
        handle::get::<Event>(event)?.retain();
        Ok(())
    })
}

pub unsafe extern "C" fn clReleaseEvent(event: cl_event) -> cl_int {
    status(|| {
        handle::get::<Event>(event)?.release();
        Ok(())
    })
}

pub unsafe extern "C" fn clCreateUserEvent(
    context: cl_context,
    errcode_ret: *mut cl_int,
) -> cl_event {
    creator(errcode_ret, || {
        let c = crate::context::get(context)?;
        Ok(handle::handle(&new_event(&c, None, CL_COMMAND_USER)))
    })
}

pub unsafe extern "C" fn clSetUserEventStatus(event: cl_event, execution_status: cl_int) -> cl_int {
    status(|| {
        let e = handle::get::<Event>(event)?;
        if e.command_type != CL_COMMAND_USER {
            return Err(CL_INVALID_EVENT);
        }
        if execution_status > CL_COMPLETE as cl_int {
            return Err(CL_INVALID_VALUE);
        }
        // Only once: a second call (or a racing one) changes nothing.
        if !e.set_status(execution_status) {
            return Err(CL_INVALID_OPERATION);
        }
        Ok(())
    })
}

pub unsafe extern "C" fn clSetEventCallback(
    event: cl_event,
    callback_type: cl_int,
    pfn_notify: Option<EventCallback>,
    user_data: *mut c_void,
) -> cl_int {
    status(|| {
        let e = handle::get::<Event>(event)?;
        let f = pfn_notify.ok_or(CL_INVALID_VALUE)?;
        if ![CL_COMPLETE, CL_RUNNING, CL_SUBMITTED].contains(&(callback_type as cl_uint)) {
            return Err(CL_INVALID_VALUE);
        }
        let now = {
            let mut state = e.state.lock().unwrap_or_else(|p| p.into_inner());
            if state.status <= callback_type {
                Some(state.status)
            } else {
                state.callbacks.push((callback_type, f, user_data as usize));
                None
            }
        };
        if let Some(s) = now {
            // Already there: call it now (a negative status is reported as is).
            f(event, if s < 0 { s } else { callback_type }, user_data);
        }
        Ok(())
    })
}
