//! Shared virtual memory (OpenCL 2.0 SVM): `clSVMAlloc`, `clSVMFree` and
//! the SVM commands (free, memcpy, fill, map, unmap, migrate).
//!
//! The device is the host CPU, so host and kernels share one address
//! space and one memory: an SVM allocation is host memory whose address
//! kernels use as it is, a pointer stored in it means the same to both,
//! and any host pointer is one a kernel can follow (fine-grained system
//! SVM). Coarse- and fine-grained buffers are therefore the same memory;
//! what differs is only what the application must do before touching it
//! (map and unmap a coarse-grained one), so map and unmap, like migration,
//! are commands that order the queue and move nothing. Kernel atomics are
//! the CPU's, so they are atomic with respect to the host's too (SVM
//! atomics).
//!
//! Each context keeps its allocations ([`Allocations`]), by start address:
//! a kernel argument that points into one is bound with the allocation's
//! extent (what the interpreter and checked mode need), and a buffer made
//! over SVM memory reports `CL_MEM_USES_SVM_POINTER`.

#![allow(non_snake_case)]

use std::collections::BTreeMap;
use std::ffi::c_void;
use std::sync::{Arc, Mutex};

use lockstep_runtime::{fill_bytes, Storage, BUFFER_ALIGN};

use crate::cl::*;
use crate::context::Context;
use crate::handle::{status, Object, SendPtr};
use crate::memory::{check_map_flags, ACCESS_FLAGS};
use crate::queue::{self, enqueue, wait_list, Enqueue};

/// What the device supports (`CL_DEVICE_SVM_CAPABILITIES`).
pub const CAPABILITIES: cl_bitfield = CL_DEVICE_SVM_COARSE_GRAIN_BUFFER
    | CL_DEVICE_SVM_FINE_GRAIN_BUFFER
    | CL_DEVICE_SVM_FINE_GRAIN_SYSTEM
    | CL_DEVICE_SVM_ATOMICS;

/// One `clSVMAlloc` allocation.
struct Allocation {
    storage: Arc<Storage>,
}

/// A context's SVM allocations, by start address.
#[derive(Default)]
pub struct Allocations(Mutex<BTreeMap<usize, Allocation>>);

impl Allocations {
    /// The allocation `ptr` points into (or just past), as (start, bytes).
    pub fn find(&self, ptr: usize) -> Option<(usize, usize)> {
        let map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let (&start, a) = map.range(..=ptr).next_back()?;
        (ptr <= start + a.storage.len()).then_some((start, a.storage.len()))
    }

    fn insert(&self, storage: Arc<Storage>) -> *mut c_void {
        let ptr = storage.as_ptr();
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(ptr as usize, Allocation { storage });
        ptr as *mut c_void
    }

    /// Frees the allocation that starts at `ptr` (nothing if none does).
    fn free(&self, ptr: *mut c_void) {
        let freed = self
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&(ptr as usize));
        // Dropped outside the lock.
        drop(freed);
    }
}

/// Whether `[ptr, ptr + size)` is memory a kernel may use through an SVM
/// pointer: inside one allocation, or outside all (system memory).
fn in_svm(context: &Context, ptr: usize, size: usize) -> bool {
    match context.svm.find(ptr) {
        Some((start, len)) => ptr.checked_add(size).is_some_and(|end| end <= start + len),
        None => true,
    }
}

pub unsafe extern "C" fn clSVMAlloc(
    context: cl_context,
    flags: cl_mem_flags,
    size: usize,
    alignment: cl_uint,
) -> *mut c_void {
    let Ok(c) = crate::context::get(context) else {
        return std::ptr::null_mut();
    };
    let known = ACCESS_FLAGS | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
    let bad_flags = flags & !known != 0
        || (flags & ACCESS_FLAGS).count_ones() > 1
        || (flags & CL_MEM_SVM_ATOMICS != 0 && flags & CL_MEM_SVM_FINE_GRAIN_BUFFER == 0);
    // Every allocation is aligned for the widest OpenCL C type; larger
    // alignments are not ones the API allows.
    let bad_alignment =
        !(alignment == 0 || alignment.is_power_of_two()) || alignment as usize > BUFFER_ALIGN;
    if bad_flags
        || bad_alignment
        || size == 0
        || size as u64 > crate::platform::max_mem_alloc_size()
    {
        return std::ptr::null_mut();
    }
    match Storage::try_zeroed(size) {
        Ok(storage) => c.svm.insert(storage),
        Err(_) => std::ptr::null_mut(),
    }
}

pub unsafe extern "C" fn clSVMFree(context: cl_context, svm_pointer: *mut c_void) {
    if let Ok(c) = crate::context::get(context) {
        c.svm.free(svm_pointer);
    }
}

pub type SvmFreeCallback = unsafe extern "C" fn(
    queue: cl_command_queue,
    num_svm_pointers: cl_uint,
    svm_pointers: *mut *mut c_void,
    user_data: *mut c_void,
);

/// The queue of an SVM command and its wait list, validated.
type QueueAndWait = (Arc<Object<queue::Queue>>, Vec<Arc<Object<queue::Event>>>);

unsafe fn queue_and_wait(
    queue: cl_command_queue,
    num: cl_uint,
    list: *const cl_event,
) -> Result<QueueAndWait, cl_int> {
    let q = queue::get(queue)?;
    let wait = wait_list(&q.context, num, list)?;
    Ok((q, wait))
}

/// An enqueue of an SVM command (it uses no memory object).
fn command<'a>(
    q: &'a Arc<Object<queue::Queue>>,
    command_type: cl_command_type,
    wait: Vec<Arc<Object<queue::Event>>>,
    event: *mut cl_event,
    blocking: bool,
) -> Enqueue<'a> {
    Enqueue {
        queue: q,
        command_type,
        wait,
        event_out: event,
        blocking,
        uses: Vec::new(),
    }
}

pub unsafe extern "C" fn clEnqueueSVMFree(
    queue: cl_command_queue,
    num_svm_pointers: cl_uint,
    svm_pointers: *mut *mut c_void,
    pfn_free_func: Option<SvmFreeCallback>,
    user_data: *mut c_void,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| {
        let (q, wait) = queue_and_wait(queue, num, list)?;
        if (num_svm_pointers == 0) != svm_pointers.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // The application may reuse its array once this returns.
        let mut pointers: Vec<SendPtr> = if svm_pointers.is_null() {
            Vec::new()
        } else {
            std::slice::from_raw_parts(svm_pointers, num_svm_pointers as usize)
                .iter()
                .map(|&p| SendPtr(p as *mut u8))
                .collect()
        };
        if pointers.iter().any(|p| p.0.is_null()) {
            return Err(CL_INVALID_VALUE);
        }
        let context = q.context.clone();
        let user = SendPtr(user_data as *mut u8);
        let queue = SendPtr(queue as *mut u8);
        enqueue(
            command(&q, CL_COMMAND_SVM_FREE, wait, event, false),
            Box::new(move || {
                let (user, queue) = (user, queue);
                match pfn_free_func {
                    Some(f) => f(
                        queue.0 as cl_command_queue,
                        pointers.len() as cl_uint,
                        pointers.as_mut_ptr() as *mut *mut c_void,
                        user.0 as *mut c_void,
                    ),
                    None => {
                        for p in &pointers {
                            context.svm.free(p.0 as *mut c_void);
                        }
                    }
                }
                Ok(())
            }),
        )
    })
}

pub unsafe extern "C" fn clEnqueueSVMMemcpy(
    queue: cl_command_queue,
    blocking: cl_bool,
    dst_ptr: *mut c_void,
    src_ptr: *const c_void,
    size: usize,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| {
        let (q, wait) = queue_and_wait(queue, num, list)?;
        if dst_ptr.is_null() || src_ptr.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let (d, s) = (dst_ptr as usize, src_ptr as usize);
        if d.checked_add(size).is_none() || s.checked_add(size).is_none() {
            return Err(CL_INVALID_VALUE);
        }
        if d < s + size && s < d + size {
            return Err(CL_MEM_COPY_OVERLAP);
        }
        let (dst, src) = (SendPtr(dst_ptr as *mut u8), SendPtr(src_ptr as *mut u8));
        enqueue(
            command(&q, CL_COMMAND_SVM_MEMCPY, wait, event, blocking != 0),
            Box::new(move || {
                let (dst, src) = (dst, src);
                // SAFETY: the application keeps both ranges valid until
                // the command completes; they do not overlap.
                unsafe { std::ptr::copy_nonoverlapping(src.0, dst.0, size) };
                Ok(())
            }),
        )
    })
}

pub unsafe extern "C" fn clEnqueueSVMMemFill(
    queue: cl_command_queue,
    svm_ptr: *mut c_void,
    pattern: *const c_void,
    pattern_size: usize,
    size: usize,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| {
        let (q, wait) = queue_and_wait(queue, num, list)?;
        if svm_ptr.is_null()
            || pattern.is_null()
            || !pattern_size.is_power_of_two()
            || pattern_size > 128
            || !(svm_ptr as usize).is_multiple_of(pattern_size)
            || !size.is_multiple_of(pattern_size)
            || !in_svm(&q.context, svm_ptr as usize, size)
        {
            return Err(CL_INVALID_VALUE);
        }
        let pattern = std::slice::from_raw_parts(pattern as *const u8, pattern_size).to_vec();
        let dst = SendPtr(svm_ptr as *mut u8);
        enqueue(
            command(&q, CL_COMMAND_SVM_MEMFILL, wait, event, false),
            Box::new(move || {
                let dst = dst;
                // SAFETY: the application keeps the range valid until the
                // command completes; `size` is whole patterns.
                let bytes = unsafe { std::slice::from_raw_parts_mut(dst.0, size) };
                fill_bytes(bytes, &pattern);
                Ok(())
            }),
        )
    })
}

pub unsafe extern "C" fn clEnqueueSVMMap(
    queue: cl_command_queue,
    blocking: cl_bool,
    map_flags: cl_map_flags,
    svm_ptr: *mut c_void,
    size: usize,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| {
        let (q, wait) = queue_and_wait(queue, num, list)?;
        if svm_ptr.is_null() || size == 0 || !in_svm(&q.context, svm_ptr as usize, size) {
            return Err(CL_INVALID_VALUE);
        }
        check_map_flags(map_flags)?;
        // The host already sees the memory: the map only orders the queue.
        enqueue(
            command(&q, CL_COMMAND_SVM_MAP, wait, event, blocking != 0),
            Box::new(|| Ok(())),
        )
    })
}

pub unsafe extern "C" fn clEnqueueSVMUnmap(
    queue: cl_command_queue,
    svm_ptr: *mut c_void,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| {
        let (q, wait) = queue_and_wait(queue, num, list)?;
        if svm_ptr.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        enqueue(
            command(&q, CL_COMMAND_SVM_UNMAP, wait, event, false),
            Box::new(|| Ok(())),
        )
    })
}

pub unsafe extern "C" fn clEnqueueSVMMigrateMem(
    queue: cl_command_queue,
    num_svm_pointers: cl_uint,
    svm_pointers: *const *const c_void,
    sizes: *const usize,
    flags: cl_mem_migration_flags,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| {
        let (q, wait) = queue_and_wait(queue, num, list)?;
        if num_svm_pointers == 0
            || svm_pointers.is_null()
            || flags & !(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED) != 0
        {
            return Err(CL_INVALID_VALUE);
        }
        let n = num_svm_pointers as usize;
        let pointers = std::slice::from_raw_parts(svm_pointers, n);
        for (i, &p) in pointers.iter().enumerate() {
            let size = if sizes.is_null() { 0 } else { *sizes.add(i) };
            if p.is_null() || !in_svm(&q.context, p as usize, size) {
                return Err(CL_INVALID_VALUE);
            }
        }
        // One memory: nothing to move.
        enqueue(
            command(&q, CL_COMMAND_SVM_MIGRATE_MEM, wait, event, false),
            Box::new(|| Ok(())),
        )
    })
}
