//! Command queues and events: how enqueued commands run.
//!
//! Execution model: a command runs on the calling thread, inside the
//! `clEnqueue*` call, as soon as everything it waits for is complete — so
//! queues are in order (out-of-order queues are accepted and run in order
//! too) and most events are complete when the enqueue returns. A command
//! whose wait list holds an incomplete event (a user event, or a command
//! deferred behind one) is kept in its queue's pending list with every
//! command enqueued after it; `clSetUserEventStatus` runs whatever became
//! ready. A failed dependency (negative status) fails the command with
//! `CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST`.
//!
//! Events record profiling times (queued, submitted, started, ended, in ns
//! of a monotonic clock) and call their callbacks when they reach the
//! status registered for.

#![allow(non_snake_case)]

use std::collections::VecDeque;
use std::ffi::c_void;
use std::sync::{Arc, Condvar, Mutex, OnceLock, Weak};
use std::time::Instant;

use crate::cl::*;
use crate::context::Context;
use crate::handle::{self, creator, status, ClType, Kind, Object, Retained};
use crate::info::Info;
use crate::platform;

/// Nanoseconds on the profiling clock (monotonic, from the first use).
pub fn now_ns() -> u64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    // Start at 1 so that no timestamp is zero.
    EPOCH.get_or_init(Instant::now).elapsed().as_nanos() as u64 + 1
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
    pub properties: cl_command_queue_properties,
    /// The property list as given (`CL_QUEUE_PROPERTIES_ARRAY`).
    properties_array: Vec<cl_queue_properties>,
    state: Mutex<QueueState>,
    /// Signalled when the pending list empties.
    idle: Condvar,
}

#[derive(Default)]
struct QueueState {
    pending: VecDeque<Command>,
    /// A thread is running this queue's commands.
    running: bool,
}

impl ClType for Queue {
    const KIND: Kind = Kind::Queue;
    const INVALID: cl_int = CL_INVALID_COMMAND_QUEUE;
}

/// What a command does when it runs; an error becomes its event's status.
pub type Work = Box<dyn FnOnce() -> Result<(), cl_int> + Send>;

struct Command {
    event: Arc<Object<Event>>,
    wait: Vec<Arc<Object<Event>>>,
    work: Work,
}

pub type EventCallback = unsafe extern "C" fn(event: cl_event, status: cl_int, user: *mut c_void);

pub struct Event {
    pub context: Retained<Context>,
    /// The queue (a weak link: events outlive their queues' handles).
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
    /// Queued, submitted, started, ended.
    times: [u64; 4],
    callbacks: Vec<(cl_int, EventCallback, usize)>,
}

impl ClType for Event {
    const KIND: Kind = Kind::Event;
    const INVALID: cl_int = CL_INVALID_EVENT;
}

impl Event {
    pub fn status(&self) -> cl_int {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).status
    }

    fn is_done(&self) -> bool {
        self.status() <= CL_COMPLETE as cl_int
    }

    /// Blocks until the event is complete (or failed); its status.
    pub fn wait(&self) -> cl_int {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while state.status > CL_COMPLETE as cl_int {
            state = self.done.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        state.status
    }
}

impl Object<Event> {
    /// Moves the event to `status` (recording the time), then calls the
    /// callbacks registered for it (and for earlier states it skipped).
    fn set_status(self: &Arc<Self>, status: cl_int) {
        let due: Vec<(EventCallback, usize, cl_int)> = {
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            if state.status <= CL_COMPLETE as cl_int {
                return;
            }
            let now = now_ns();
            match status {
                s if s == CL_SUBMITTED as cl_int => state.times[1] = now,
                s if s == CL_RUNNING as cl_int => state.times[2] = now,
                _ => {
                    for t in 1..4 {
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
            due.into_iter().map(|(_, f, u)| (f, u, status)).collect()
        };
        if status <= CL_COMPLETE as cl_int {
            self.done.notify_all();
        }
        let handle = handle::handle(self);
        for (f, user, s) in due {
            // SAFETY: a C callback the application registered.
            unsafe { f(handle, s, user as *mut c_void) };
        }
    }
}

/// Every live queue, so that a user event's completion can run what waited.
fn all_queues() -> &'static Mutex<Vec<Weak<Object<Queue>>>> {
    static QUEUES: OnceLock<Mutex<Vec<Weak<Object<Queue>>>>> = OnceLock::new();
    QUEUES.get_or_init(Default::default)
}

impl Queue {
    /// Runs pending commands in order while each one's wait list is done.
    pub fn run_ready(&self) {
        {
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            if state.running {
                // The running thread picks up what is new.
                return;
            }
            state.running = true;
        }
        loop {
            let command = {
                let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
                let ready = state
                    .pending
                    .front()
                    .is_some_and(|c| c.wait.iter().all(|e| e.is_done()));
                if !ready {
                    state.running = false;
                    if state.pending.is_empty() {
                        self.idle.notify_all();
                    }
                    return;
                }
                state.pending.pop_front().expect("checked above")
            };
            let failed_dependency = command.wait.iter().any(|e| e.status() < 0);
            let event = command.event;
            if failed_dependency {
                event.set_status(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
                continue;
            }
            event.set_status(CL_SUBMITTED as cl_int);
            event.set_status(CL_RUNNING as cl_int);
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(command.work))
                .unwrap_or(Err(CL_OUT_OF_HOST_MEMORY));
            event.set_status(match result {
                Ok(()) => CL_COMPLETE as cl_int,
                Err(code) => code.min(-1),
            });
        }
    }

    /// True when no command is pending or running.
    fn is_idle(&self) -> bool {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.pending.is_empty() && !state.running
    }

    /// Blocks until every command enqueued so far has run.
    pub fn finish(&self) {
        self.run_ready();
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while !state.pending.is_empty() || state.running {
            state = self.idle.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// Released queues with commands still pending (waiting for user events).
fn draining() -> &'static Mutex<Vec<Arc<Object<Queue>>>> {
    static DRAINING: OnceLock<Mutex<Vec<Arc<Object<Queue>>>>> = OnceLock::new();
    DRAINING.get_or_init(Default::default)
}

/// Runs what became ready on every queue (after a user event completed).
fn run_all_queues() {
    let queues: Vec<_> = {
        let mut all = all_queues().lock().unwrap_or_else(|e| e.into_inner());
        all.retain(|q| q.strong_count() > 0);
        all.iter().filter_map(Weak::upgrade).collect()
    };
    for q in queues {
        q.run_ready();
    }
    draining()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|q| !q.is_idle());
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
}

/// Enqueues `work`: runs it now if it can, else leaves it pending. A
/// command that ran now and failed returns its error (and no event).
pub unsafe fn enqueue(e: Enqueue<'_>, work: Work) -> Result<(), cl_int> {
    let queue = e.queue;
    let event = new_event(&queue.context, Some(queue), e.command_type);
    {
        let mut state = queue.state.lock().unwrap_or_else(|p| p.into_inner());
        state.pending.push_back(Command {
            event: event.clone(),
            wait: e.wait,
            work,
        });
    }
    queue.run_ready();
    if e.blocking {
        let status = event.wait();
        if status < 0 {
            event.release();
            return Err(status);
        }
    } else {
        let status = event.status();
        if status < 0 && status != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST {
            event.release();
            return Err(status);
        }
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
            times: [now_ns(), 0, 0, 0],
            callbacks: Vec::new(),
        }),
        done: Condvar::new(),
    })
}

/// The queue behind a handle.
pub fn get(queue: cl_command_queue) -> Result<Arc<Object<Queue>>, cl_int> {
    handle::get::<Queue>(queue)
}

fn create_queue(
    context: cl_context,
    device: cl_device_id,
    properties: cl_command_queue_properties,
    properties_array: Vec<cl_queue_properties>,
) -> Result<cl_command_queue, cl_int> {
    let context = crate::context::get(context)?;
    platform::check_device(device)?;
    // Bits no version defines, or an on-device queue that is not out of
    // order, or a default one that is not on the device, are not valid
    // (CL_INVALID_VALUE); a valid on-device queue is not supported
    // (CL_INVALID_QUEUE_PROPERTIES: CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES is 0).
    let supported = CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
    let defined = supported | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT;
    let on_device = properties & CL_QUEUE_ON_DEVICE != 0;
    if properties & !defined != 0
        || (on_device && properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE == 0)
        || (!on_device && properties & CL_QUEUE_ON_DEVICE_DEFAULT != 0)
    {
        return Err(CL_INVALID_VALUE);
    }
    if properties & !supported != 0 {
        return Err(CL_INVALID_QUEUE_PROPERTIES);
    }
    let queue = handle::create(Queue {
        context: Retained::new(&context),
        properties,
        properties_array,
        state: Mutex::new(QueueState::default()),
        idle: Condvar::new(),
    });
    {
        // Released queues leave dead entries: drop them here, so the list
        // stays as long as the live queues (it was pruned only when a user
        // event completed, and grew by one entry per queue ever created).
        let mut all = all_queues().lock().unwrap_or_else(|e| e.into_inner());
        all.retain(|q| q.strong_count() > 0);
        all.push(Arc::downgrade(&queue));
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
        create_queue(context, device, properties, Vec::new())
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
        let mut array = Vec::new();
        if !properties.is_null() {
            let mut p = properties;
            while *p != 0 {
                let (name, value) = (*p, *p.add(1));
                match name as cl_uint {
                    CL_QUEUE_PROPERTIES => flags = value,
                    CL_QUEUE_SIZE => return Err(CL_INVALID_QUEUE_PROPERTIES),
                    _ => return Err(CL_INVALID_VALUE),
                }
                array.extend([name, value]);
                p = p.add(2);
            }
            array.push(0);
        }
        create_queue(context, device, flags, array)
    })
}

pub unsafe extern "C" fn clRetainCommandQueue(queue: cl_command_queue) -> cl_int {
    status(|| {
        get(queue)?.retain();
        Ok(())
    })
}

pub unsafe extern "C" fn clReleaseCommandQueue(queue: cl_command_queue) -> cl_int {
    status(|| {
        let q = get(queue)?;
        // Releasing flushes the queue. Commands still waiting for a user
        // event keep it alive until they have run.
        q.run_ready();
        if q.ref_count() == 1 && !q.is_idle() {
            draining()
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(q.clone());
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
        let q = get(queue)?;
        let info = match param_name {
            CL_QUEUE_CONTEXT => Info::ptr(handle::handle(&q.context)),
            CL_QUEUE_DEVICE => Info::ptr(platform::device_handle()),
            CL_QUEUE_REFERENCE_COUNT => Info::from(q.ref_count()),
            CL_QUEUE_PROPERTIES => Info::from(q.properties),
            CL_QUEUE_PROPERTIES_ARRAY => Info::list(&q.properties_array),
            CL_QUEUE_SIZE => return Err(CL_INVALID_COMMAND_QUEUE),
            CL_QUEUE_DEVICE_DEFAULT => Info::ptr(std::ptr::null()),
            _ => return Err(CL_INVALID_VALUE),
        };
        match info.write(size, value, size_ret) {
            CL_SUCCESS => Ok(()),
            e => Err(e),
        }
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
        get(queue)?.run_ready();
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
/// with none, every earlier command — already done in an in-order queue) is.
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
                q.run_ready();
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
            CL_PROFILING_COMMAND_END | CL_PROFILING_COMMAND_COMPLETE => Info::from(t[3]),
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
        if e.is_done() {
            return Err(CL_INVALID_OPERATION);
        }
        e.set_status(execution_status);
        run_all_queues();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn released_queues_leave_no_entries_behind() {
        let device = platform::device_handle();
        let mut err = 0;
        // SAFETY: valid arguments; every object is released.
        unsafe {
            let ctx = crate::context::clCreateContext(
                std::ptr::null(),
                1,
                &device,
                None,
                std::ptr::null_mut(),
                &mut err,
            );
            assert_eq!(err, CL_SUCCESS);
            for _ in 0..1000 {
                let q = clCreateCommandQueue(ctx, device, 0, &mut err);
                assert_eq!(err, CL_SUCCESS);
                assert_eq!(clReleaseCommandQueue(q), CL_SUCCESS);
            }
            let entries = all_queues().lock().unwrap().len();
            assert!(entries <= 2, "{entries} queue entries after 1000 releases");
            crate::context::clReleaseContext(ctx);
        }
    }
}
