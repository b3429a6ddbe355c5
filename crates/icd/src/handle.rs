//! OpenCL objects behind handles: the layout the ICD loader needs, handle
//! validation, reference counting, and the guards every entry point runs in.
//!
//! Every object is an [`Object<T>`] in an `Arc`: the dispatch-table pointer
//! comes first (the loader reads it through any handle), then a per-kind
//! magic number and the API reference count. A handle is the `Arc`'s raw
//! pointer, recorded in a registry of live handles; an entry point turns a
//! handle back into an `Arc` only if the registry holds it with the right
//! kind, so stale, foreign or garbage handles give `CL_INVALID_*` instead of
//! a crash (the pointer is never dereferenced before that check).
//!
//! The API count (`clRetain*`/`clRelease*`) is separate from the `Arc`'s:
//! when it reaches zero the handle leaves the registry, while objects that
//! still use it internally (a kernel its program, a queued command its
//! buffers) keep the memory alive until they are done.

use std::collections::HashMap;
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use crate::cl::*;
use crate::dispatch::{dispatch_table, Dispatch};

/// The kinds of OpenCL objects, each with its magic number.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u64)]
pub enum Kind {
    Platform = 0x4c53_504c_4154_0001,
    Device = 0x4c53_4445_5649_0002,
    Context = 0x4c53_4354_5854_0003,
    Queue = 0x4c53_5155_4555_0004,
    Mem = 0x4c53_4d45_4d4f_0005,
    Program = 0x4c53_5052_4f47_0006,
    Kernel = 0x4c53_4b45_524e_0007,
    Event = 0x4c53_4556_4e54_0008,
    Sampler = 0x4c53_534d_504c_0009,
}

/// An object type: its kind and the error an invalid handle of it gives.
pub trait ClType: Send + Sync + Sized + 'static {
    const KIND: Kind;
    const INVALID: cl_int;
}

/// The memory behind a handle. `repr(C)`: the loader reads `dispatch`.
#[repr(C)]
pub struct Object<T> {
    dispatch: *const Dispatch,
    magic: u64,
    refs: AtomicU32,
    pub inner: T,
}

// SAFETY: `dispatch` points to the immutable static table.
unsafe impl<T: Send> Send for Object<T> {}
unsafe impl<T: Sync> Sync for Object<T> {}

impl<T> std::ops::Deref for Object<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.inner
    }
}

/// Live handles and their kinds.
fn registry() -> MutexGuard<'static, HashMap<usize, Kind>> {
    static LIVE: OnceLock<Mutex<HashMap<usize, Kind>>> = OnceLock::new();
    LIVE.get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// A new object with an API reference count of one, and its handle.
pub fn create<T: ClType>(inner: T) -> Arc<Object<T>> {
    let object = Arc::new(Object {
        dispatch: dispatch_table(),
        magic: T::KIND as u64,
        refs: AtomicU32::new(1),
        inner,
    });
    // The registry's reference: released when the API count reaches zero.
    let raw = Arc::into_raw(object.clone());
    registry().insert(raw as usize, T::KIND);
    object
}

/// The handle of an object (valid while its API count is above zero).
pub fn handle<T>(object: &Arc<Object<T>>) -> *mut c_void {
    Arc::as_ptr(object) as *mut c_void
}

/// The object behind `handle`, if it is a live handle of kind `T`.
pub fn get<T: ClType>(handle: *mut c_void) -> Result<Arc<Object<T>>, cl_int> {
    if handle.is_null() {
        return Err(T::INVALID);
    }
    let live = registry();
    if live.get(&(handle as usize)) != Some(&T::KIND) {
        return Err(T::INVALID);
    }
    let ptr = handle as *const Object<T>;
    // SAFETY: the registry holds a strong reference to this live object of
    // type `T`; we take another one while the registry is locked.
    unsafe {
        debug_assert_eq!((*ptr).magic, T::KIND as u64);
        Arc::increment_strong_count(ptr);
        Ok(Arc::from_raw(ptr))
    }
}

/// Handles of a list (`num` entries at `list`), each validated.
///
/// # Safety
/// `list` must point to `num` handles when it is not NULL.
pub unsafe fn get_list<T: ClType>(
    num: cl_uint,
    list: *const *mut c_void,
    invalid_list: cl_int,
) -> Result<Vec<Arc<Object<T>>>, cl_int> {
    match (num, list.is_null()) {
        (0, true) => Ok(Vec::new()),
        (0, false) | (_, true) => Err(invalid_list),
        (n, false) => std::slice::from_raw_parts(list, n as usize)
            .iter()
            .map(|&h| get::<T>(h))
            .collect(),
    }
}

impl<T: ClType> Object<T> {
    /// The API reference count.
    pub fn ref_count(&self) -> cl_uint {
        self.refs.load(Ordering::SeqCst)
    }

    pub fn retain(&self) {
        self.refs.fetch_add(1, Ordering::SeqCst);
    }

    /// Drops one API reference; at zero the handle dies and the registry's
    /// reference is dropped (outside the registry's lock, since dropping
    /// may run callbacks that call the API).
    pub fn release(self: &Arc<Self>) {
        let raw = Arc::as_ptr(self);
        let last = {
            let mut live = registry();
            let before = self.refs.fetch_sub(1, Ordering::SeqCst);
            if before == 1 {
                live.remove(&(raw as usize));
                true
            } else {
                if before == 0 {
                    // Never below zero: a release raced another to zero.
                    self.refs.store(0, Ordering::SeqCst);
                }
                false
            }
        };
        if last {
            // SAFETY: the registry's strong reference, taken in `create`.
            drop(unsafe { Arc::from_raw(raw) });
        }
    }
}

/// A reference one object holds to another (a kernel to its program, a
/// buffer to its context): an implicit retain of the API count, as the
/// spec asks, so the handle stays valid (and counted) while it is used.
pub struct Retained<T: ClType>(Arc<Object<T>>);

impl<T: ClType> Retained<T> {
    pub fn new(object: &Arc<Object<T>>) -> Retained<T> {
        object.retain();
        Retained(object.clone())
    }
}

impl<T: ClType> Clone for Retained<T> {
    fn clone(&self) -> Self {
        Retained::new(&self.0)
    }
}

impl<T: ClType> std::ops::Deref for Retained<T> {
    type Target = Arc<Object<T>>;
    fn deref(&self) -> &Arc<Object<T>> {
        &self.0
    }
}

impl<T: ClType> Drop for Retained<T> {
    fn drop(&mut self) {
        self.0.release();
    }
}

/// Runs an entry point returning a status, turning panics into
/// `CL_OUT_OF_HOST_MEMORY` (no panic crosses the C boundary).
pub fn status(f: impl FnOnce() -> Result<(), cl_int>) -> cl_int {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => CL_SUCCESS,
        Ok(Err(code)) => code,
        Err(_) => CL_OUT_OF_HOST_MEMORY,
    }
}

/// Runs an entry point that creates an object: the handle, or NULL with
/// the error in `errcode_ret`.
///
/// # Safety
/// `errcode_ret` must be NULL or valid for a write.
pub unsafe fn creator(
    errcode_ret: *mut cl_int,
    f: impl FnOnce() -> Result<*mut c_void, cl_int>,
) -> *mut c_void {
    let (handle, code) = match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(h)) => (h, CL_SUCCESS),
        Ok(Err(code)) => (std::ptr::null_mut(), code),
        Err(_) => (std::ptr::null_mut(), CL_OUT_OF_HOST_MEMORY),
    };
    if !errcode_ret.is_null() {
        *errcode_ret = code;
    }
    handle
}

/// A raw pointer that may cross threads inside a queued command (the API
/// makes the caller keep it valid until the command completes).
#[derive(Copy, Clone, Debug)]
pub struct SendPtr(pub *mut u8);

// SAFETY: see the type's documentation.
unsafe impl Send for SendPtr {}
unsafe impl Sync for SendPtr {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::Context;
    use crate::memory::Mem;

    #[test]
    fn garbage_null_and_foreign_handles_are_rejected_without_a_dereference() {
        let garbage = 0xdead_beef_usize as *mut c_void;
        assert_eq!(get::<Mem>(garbage).err(), Some(CL_INVALID_MEM_OBJECT));
        assert_eq!(
            get::<Context>(std::ptr::null_mut()).err(),
            Some(CL_INVALID_CONTEXT)
        );
        // A live handle of another kind.
        let platform = crate::platform::platform_handle();
        assert_eq!(get::<Mem>(platform).err(), Some(CL_INVALID_MEM_OBJECT));
        // SAFETY: entry points accept any pointer value as a handle.
        unsafe {
            assert_eq!(
                crate::memory::clReleaseMemObject(garbage),
                CL_INVALID_MEM_OBJECT
            );
            assert_eq!(crate::queue::clFinish(platform), CL_INVALID_COMMAND_QUEUE);
        }
    }

    #[test]
    fn a_released_handle_is_invalid_but_internal_references_keep_the_memory() {
        let mut err = 0;
        let device = crate::device::root_handle();
        // SAFETY: valid arguments for these entry points.
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
            let c = get::<Context>(ctx).unwrap();
            assert_eq!(c.ref_count(), 1);
            let held = Retained::new(&c);
            assert_eq!(c.ref_count(), 2);
            assert_eq!(crate::context::clReleaseContext(ctx), CL_SUCCESS);
            assert!(get::<Context>(ctx).is_ok(), "still retained internally");
            drop(held);
            assert_eq!(get::<Context>(ctx).err(), Some(CL_INVALID_CONTEXT));
            assert_eq!(crate::context::clReleaseContext(ctx), CL_INVALID_CONTEXT);
            // `c` still owns the memory: reading it is fine.
            assert_eq!(c.ref_count(), 0);
        }
    }
}
