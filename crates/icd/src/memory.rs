//! Memory objects: buffers and sub-buffers, and the commands on them (read,
//! write, copy, fill, their rect variants, map and unmap).
//!
//! A buffer is a `lockstep_runtime::Storage`: host memory the kernels use in
//! place. `CL_MEM_USE_HOST_PTR` buffers are storage over the application's
//! own memory, so kernel writes land there directly and mapping returns
//! `host_ptr + offset` with nothing to copy (the application must align the
//! memory for the types its kernels access, as for any OpenCL pointer). A
//! sub-buffer is a range of its parent's storage, and an image created from
//! a buffer has its texels in the buffer's storage (the `image` module).
//! Mapping any buffer returns a pointer into its storage; unmapping only
//! ends the mapping. Pipes are memory objects too (the `pipe` module), on
//! which none of these commands work.

#![allow(non_snake_case)]

use std::ffi::c_void;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use lockstep_runtime::{Access, Storage};

use crate::cl::*;
use crate::context::Context;
use crate::handle::{self, creator, status, ClType, Kind, Object, Retained, SendPtr};
use crate::info::Info;
use crate::queue::{self, enqueue, wait_list, Enqueue};

pub type MemDestructor = unsafe extern "C" fn(memobj: cl_mem, user: *mut c_void);

pub struct Mem {
    pub context: Retained<Context>,
    pub flags: cl_mem_flags,
    pub size: usize,
    pub storage: Arc<Storage>,
    /// The application's pointer (`CL_MEM_USE_HOST_PTR`), else NULL.
    pub(crate) host_ptr: SendPtr,
    /// `host_ptr` points into an SVM allocation (`CL_MEM_USES_SVM_POINTER`).
    pub(crate) uses_svm: bool,
    /// The parent of a sub-buffer, and the sub-buffer's origin in it.
    pub(crate) parent: Option<Retained<Mem>>,
    pub(crate) origin: usize,
    pub(crate) properties: Vec<cl_mem_properties>,
    /// Pointers handed out by map and not unmapped yet.
    pub(crate) mapped: Mutex<Vec<usize>>,
    pub(crate) destructors: Mutex<Vec<(MemDestructor, usize)>>,
    /// The handle, for destructor callbacks.
    pub(crate) handle: AtomicUsize,
    /// An image's format, extents and layout (`storage` is the image's).
    pub(crate) image: Option<crate::image::ImageMem>,
    /// A pipe's packet size, capacity and properties (`storage` is the
    /// pipe's).
    pub(crate) pipe: Option<crate::pipe::PipeMem>,
}

impl ClType for Mem {
    const KIND: Kind = Kind::Mem;
    const INVALID: cl_int = CL_INVALID_MEM_OBJECT;
}

impl Drop for Mem {
    fn drop(&mut self) {
        let callbacks = std::mem::take(
            self.destructors
                .get_mut()
                .unwrap_or_else(|e| e.into_inner()),
        );
        let handle = self.handle.load(Ordering::SeqCst) as cl_mem;
        for (f, user) in callbacks.into_iter().rev() {
            // SAFETY: a C callback the application registered.
            unsafe { f(handle, user as *mut c_void) };
        }
    }
}

impl Mem {
    pub(crate) fn host_can_read(&self) -> bool {
        self.flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS) == 0
    }

    pub(crate) fn host_can_write(&self) -> bool {
        self.flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS) == 0
    }

    /// A buffer or sub-buffer (not an image or a pipe).
    pub(crate) fn is_buffer(&self) -> bool {
        self.image.is_none() && self.pipe.is_none()
    }
}

pub fn get(mem: cl_mem) -> Result<Arc<Object<Mem>>, cl_int> {
    handle::get::<Mem>(mem)
}

pub(crate) const ACCESS_FLAGS: cl_mem_flags =
    CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
const HOST_PTR_FLAGS: cl_mem_flags =
    CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
const HOST_ACCESS_FLAGS: cl_mem_flags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;

/// At most one flag of `group` may be set.
fn exclusive(flags: cl_mem_flags, group: cl_mem_flags) -> bool {
    (flags & group).count_ones() <= 1
}

pub(crate) fn check_flags(flags: cl_mem_flags) -> Result<(), cl_int> {
    let known = ACCESS_FLAGS | HOST_PTR_FLAGS | HOST_ACCESS_FLAGS | CL_MEM_KERNEL_READ_AND_WRITE;
    if flags & !known != 0
        || !exclusive(flags, ACCESS_FLAGS)
        || !exclusive(flags, HOST_ACCESS_FLAGS)
        || (flags & CL_MEM_USE_HOST_PTR != 0
            && flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0)
    {
        return Err(CL_INVALID_VALUE);
    }
    Ok(())
}

/// The flags of a memory object made from `parent`'s memory (a
/// sub-buffer, an image from a buffer) asked for with `flags`: no host
/// pointer flags and no access the parent forbids (CL_INVALID_VALUE); the
/// access and host access not given, and the host pointer flags, are the
/// parent's.
pub(crate) fn derived_flags(
    flags: cl_mem_flags,
    parent: cl_mem_flags,
) -> Result<cl_mem_flags, cl_int> {
    check_flags(flags)?;
    if flags & HOST_PTR_FLAGS != 0 {
        return Err(CL_INVALID_VALUE);
    }
    let pf = parent;
    if (pf & CL_MEM_WRITE_ONLY != 0 && flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY) != 0)
        || (pf & CL_MEM_READ_ONLY != 0 && flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY) != 0)
        || (pf & CL_MEM_HOST_WRITE_ONLY != 0 && flags & CL_MEM_HOST_READ_ONLY != 0)
        || (pf & CL_MEM_HOST_READ_ONLY != 0 && flags & CL_MEM_HOST_WRITE_ONLY != 0)
        || (pf & CL_MEM_HOST_NO_ACCESS != 0
            && flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY) != 0)
    {
        return Err(CL_INVALID_VALUE);
    }
    let mut derived = flags;
    if flags & ACCESS_FLAGS == 0 {
        derived |= pf & ACCESS_FLAGS;
    }
    if flags & HOST_ACCESS_FLAGS == 0 {
        derived |= pf & HOST_ACCESS_FLAGS;
    }
    Ok(derived | pf & HOST_PTR_FLAGS)
}

unsafe fn create_buffer(
    context: cl_context,
    properties: Vec<cl_mem_properties>,
    flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
) -> Result<cl_mem, cl_int> {
    let context = crate::context::get(context)?;
    check_flags(flags)?;
    if size == 0 || size as u64 > crate::platform::max_mem_alloc_size() {
        return Err(CL_INVALID_BUFFER_SIZE);
    }
    let wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
    if wants_ptr == host_ptr.is_null() {
        return Err(CL_INVALID_HOST_PTR);
    }
    let flags = if flags & ACCESS_FLAGS == 0 {
        flags | CL_MEM_READ_WRITE
    } else {
        flags
    };
    // A buffer over SVM memory must fit in its allocation.
    let svm = if flags & CL_MEM_USE_HOST_PTR != 0 {
        context.svm.find(host_ptr as usize)
    } else {
        None
    };
    if svm.is_some_and(|(start, len)| size > start + len - host_ptr as usize) {
        return Err(CL_INVALID_BUFFER_SIZE);
    }
    let storage = if flags & CL_MEM_USE_HOST_PTR != 0 {
        // SAFETY: the application keeps `host_ptr` valid for `size` bytes
        // while the buffer lives (the API's contract for USE_HOST_PTR).
        Storage::from_host_ptr(NonNull::new_unchecked(host_ptr as *mut u8), size)
    } else {
        // Zero pages from the OS, not written up front; a failure is
        // CL_MEM_OBJECT_ALLOCATION_FAILURE, not an abort.
        let storage = Storage::try_zeroed(size).map_err(|_| CL_MEM_OBJECT_ALLOCATION_FAILURE)?;
        if flags & CL_MEM_COPY_HOST_PTR != 0 {
            std::ptr::copy_nonoverlapping(host_ptr as *const u8, storage.as_ptr(), size);
        }
        storage
    };
    storage.set_kernel_access(kernel_access(flags));
    let host_ptr = if flags & CL_MEM_USE_HOST_PTR != 0 {
        host_ptr as *mut u8
    } else {
        std::ptr::null_mut()
    };
    Ok(new_mem(Mem {
        context: Retained::new(&context),
        flags,
        size,
        storage,
        host_ptr: SendPtr(host_ptr),
        uses_svm: svm.is_some(),
        parent: None,
        origin: 0,
        properties,
        mapped: Mutex::new(Vec::new()),
        destructors: Mutex::new(Vec::new()),
        handle: AtomicUsize::new(0),
        image: None,
        pipe: None,
    }))
}

/// How kernels may use a buffer of `flags`, as checked mode enforces it
/// (`LOCKSTEP_CHECK`): `CL_MEM_READ_ONLY` and `CL_MEM_WRITE_ONLY`.
fn kernel_access(flags: cl_mem_flags) -> u64 {
    use lockstep_ir::abi::arg_flags;
    let mut access = 0;
    if flags & CL_MEM_READ_ONLY != 0 {
        access |= arg_flags::READ_ONLY;
    }
    if flags & CL_MEM_WRITE_ONLY != 0 {
        access |= arg_flags::WRITE_ONLY;
    }
    access
}

pub(crate) fn new_mem(mem: Mem) -> cl_mem {
    let object = handle::create(mem);
    let h = handle::handle(&object);
    object.handle.store(h as usize, Ordering::SeqCst);
    h
}

pub unsafe extern "C" fn clCreateBuffer(
    context: cl_context,
    flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    creator(errcode_ret, || {
        create_buffer(context, Vec::new(), flags, size, host_ptr)
    })
}

pub unsafe extern "C" fn clCreateBufferWithProperties(
    context: cl_context,
    properties: *const cl_mem_properties,
    flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    creator(errcode_ret, || {
        let mut props = Vec::new();
        if !properties.is_null() {
            if *properties != 0 {
                // No buffer properties are supported.
                crate::context::get(context)?;
                return Err(CL_INVALID_PROPERTY);
            }
            props.push(0);
        }
        create_buffer(context, props, flags, size, host_ptr)
    })
}

pub unsafe extern "C" fn clCreateSubBuffer(
    buffer: cl_mem,
    flags: cl_mem_flags,
    create_type: cl_buffer_create_type,
    create_info: *const c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    creator(errcode_ret, || {
        let parent = get(buffer)?;
        if parent.parent.is_some() || !parent.is_buffer() {
            return Err(CL_INVALID_MEM_OBJECT);
        }
        let sub_flags = derived_flags(flags, parent.flags)?;
        if create_type != CL_BUFFER_CREATE_TYPE_REGION || create_info.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let region = *(create_info as *const cl_buffer_region);
        if region.size == 0 {
            return Err(CL_INVALID_BUFFER_SIZE);
        }
        if region
            .origin
            .checked_add(region.size)
            .is_none_or(|end| end > parent.size)
        {
            return Err(CL_INVALID_VALUE);
        }
        if !region.origin.is_multiple_of(lockstep_runtime::BUFFER_ALIGN) {
            return Err(CL_MISALIGNED_SUB_BUFFER_OFFSET);
        }
        let storage =
            Storage::range(&parent.storage, region.origin, region.size).ok_or(CL_INVALID_VALUE)?;
        storage.set_kernel_access(kernel_access(sub_flags));
        let host_ptr = if parent.host_ptr.0.is_null() {
            std::ptr::null_mut()
        } else {
            parent.host_ptr.0.add(region.origin)
        };
        Ok(new_mem(Mem {
            context: Retained::new(&parent.context),
            flags: sub_flags,
            size: region.size,
            storage,
            host_ptr: SendPtr(host_ptr),
            uses_svm: parent.uses_svm,
            parent: Some(Retained::new(&parent)),
            origin: region.origin,
            properties: Vec::new(),
            mapped: Mutex::new(Vec::new()),
            destructors: Mutex::new(Vec::new()),
            handle: AtomicUsize::new(0),
            image: None,
            pipe: None,
        }))
    })
}

pub unsafe extern "C" fn clRetainMemObject(mem: cl_mem) -> cl_int {
    status(|| {
        get(mem)?.retain();
        Ok(())
    })
}

pub unsafe extern "C" fn clReleaseMemObject(mem: cl_mem) -> cl_int {
    status(|| {
        get(mem)?.release();
        Ok(())
    })
}

pub unsafe extern "C" fn clSetMemObjectDestructorCallback(
    mem: cl_mem,
    pfn_notify: Option<MemDestructor>,
    user_data: *mut c_void,
) -> cl_int {
    status(|| {
        let m = get(mem)?;
        let f = pfn_notify.ok_or(CL_INVALID_VALUE)?;
        m.destructors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((f, user_data as usize));
        Ok(())
    })
}

pub unsafe extern "C" fn clGetMemObjectInfo(
    mem: cl_mem,
    param_name: cl_mem_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    status(|| {
        let m = get(mem)?;
        let info = match param_name {
            CL_MEM_TYPE => Info::from(match (&m.image, &m.pipe) {
                (Some(i), _) => i.image.desc().ty.to_cl(),
                (None, Some(_)) => CL_MEM_OBJECT_PIPE,
                (None, None) => CL_MEM_OBJECT_BUFFER,
            }),
            CL_MEM_FLAGS => Info::from(m.flags),
            CL_MEM_SIZE => Info::from(m.size),
            CL_MEM_HOST_PTR => Info::ptr(m.host_ptr.0 as *const c_void),
            CL_MEM_MAP_COUNT => {
                Info::from(m.mapped.lock().unwrap_or_else(|e| e.into_inner()).len() as cl_uint)
            }
            CL_MEM_REFERENCE_COUNT => Info::from(m.ref_count()),
            CL_MEM_CONTEXT => Info::ptr(handle::handle(&m.context)),
            CL_MEM_ASSOCIATED_MEMOBJECT => Info::ptr(
                m.parent
                    .as_ref()
                    .or(m.image.as_ref().and_then(|i| i.buffer.as_ref()))
                    .map_or(std::ptr::null_mut(), |p| handle::handle(p))
                    as *const c_void,
            ),
            CL_MEM_OFFSET => Info::from(m.origin),
            CL_MEM_USES_SVM_POINTER => Info::bool(m.uses_svm),
            CL_MEM_PROPERTIES => Info::list(&m.properties),
            _ => return Err(CL_INVALID_VALUE),
        };
        match info.write(size, value, size_ret) {
            CL_SUCCESS => Ok(()),
            e => Err(e),
        }
    })
}

type QueueAndMem = (Arc<Object<queue::Queue>>, Arc<Object<Mem>>);

/// The queue and a buffer of a command, checked to share a context (an
/// image or a pipe is CL_INVALID_MEM_OBJECT).
fn queue_and_mem(queue: cl_command_queue, mem: cl_mem) -> Result<QueueAndMem, cl_int> {
    let (q, m) = queue_and_object(queue, mem)?;
    if !m.is_buffer() {
        return Err(CL_INVALID_MEM_OBJECT);
    }
    Ok((q, m))
}

/// The queue and a memory object (buffer or image) of a command, checked to
/// share a context.
pub(crate) fn queue_and_object(
    queue: cl_command_queue,
    mem: cl_mem,
) -> Result<QueueAndMem, cl_int> {
    let q = queue::get(queue)?;
    let m = get(mem)?;
    if !Arc::ptr_eq(&q.context, &m.context) {
        return Err(CL_INVALID_CONTEXT);
    }
    Ok((q, m))
}

/// Map flags: known bits, and WRITE_INVALIDATE_REGION alone
/// (CL_INVALID_VALUE otherwise).
pub(crate) fn check_map_flags(map_flags: cl_map_flags) -> Result<(), cl_int> {
    let known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    if map_flags & !known != 0
        || (map_flags & CL_MAP_WRITE_INVALIDATE_REGION != 0
            && map_flags & (CL_MAP_READ | CL_MAP_WRITE) != 0)
    {
        return Err(CL_INVALID_VALUE);
    }
    Ok(())
}

pub(crate) fn in_bounds(offset: usize, size: usize, len: usize) -> bool {
    offset.checked_add(size).is_some_and(|end| end <= len)
}

pub unsafe extern "C" fn clEnqueueReadBuffer(
    queue: cl_command_queue,
    buffer: cl_mem,
    blocking: cl_bool,
    offset: usize,
    size: usize,
    ptr: *mut c_void,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| {
        let (q, m) = queue_and_mem(queue, buffer)?;
        let wait = wait_list(&q.context, num, list)?;
        if ptr.is_null() || size == 0 || !in_bounds(offset, size, m.size) {
            return Err(CL_INVALID_VALUE);
        }
        if !m.host_can_read() {
            return Err(CL_INVALID_OPERATION);
        }
        let dst = SendPtr(ptr as *mut u8);
        let storage = m.storage.clone();
        let e = Enqueue {
            queue: &q,
            command_type: CL_COMMAND_READ_BUFFER,
            wait,
            event_out: event,
            blocking: blocking != 0,
            uses: vec![m.clone()],
        };
        enqueue(
            e,
            Box::new(move || {
                let _guard = storage.read_lock();
                let dst = dst;
                // SAFETY: bounds checked; the application keeps `ptr` valid.
                unsafe { std::ptr::copy(storage.as_ptr().add(offset), dst.0, size) };
                Ok(())
            }),
        )
    })
}

pub unsafe extern "C" fn clEnqueueWriteBuffer(
    queue: cl_command_queue,
    buffer: cl_mem,
    blocking: cl_bool,
    offset: usize,
    size: usize,
    ptr: *const c_void,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| {
        let (q, m) = queue_and_mem(queue, buffer)?;
        let wait = wait_list(&q.context, num, list)?;
        if ptr.is_null() || size == 0 || !in_bounds(offset, size, m.size) {
            return Err(CL_INVALID_VALUE);
        }
        if !m.host_can_write() {
            return Err(CL_INVALID_OPERATION);
        }
        let src = SendPtr(ptr as *mut u8);
        let storage = m.storage.clone();
        let e = Enqueue {
            queue: &q,
            command_type: CL_COMMAND_WRITE_BUFFER,
            wait,
            event_out: event,
            blocking: blocking != 0,
            uses: vec![m.clone()],
        };
        enqueue(
            e,
            Box::new(move || {
                let _guard = storage.write_lock();
                let src = src;
                // SAFETY: bounds checked; the application keeps `ptr` valid.
                unsafe { std::ptr::copy(src.0, storage.as_ptr().add(offset), size) };
                Ok(())
            }),
        )
    })
}

/// True if two byte ranges of (possibly the same) storage overlap.
fn ranges_overlap(a: &Storage, a_off: usize, b: &Storage, b_off: usize, size: usize) -> bool {
    let a0 = a.as_ptr() as usize + a_off;
    let b0 = b.as_ptr() as usize + b_off;
    a0 < b0 + size && b0 < a0 + size
}

/// Copies `size` bytes between storages (locking each once, even when
/// they are the same).
fn copy_bytes(src: &Storage, src_off: usize, dst: &Storage, dst_off: usize, size: usize) {
    copy_rows(src, dst, std::iter::once((src_off, dst_off, size)));
}

/// Copies rows `(src offset, dst offset, bytes)` between storages, holding
/// both locks (taken in the global lock order, so that a copy A→B and one
/// B→A on other threads cannot deadlock).
pub(crate) fn copy_rows(
    src: &Storage,
    dst: &Storage,
    rows: impl Iterator<Item = (usize, usize, usize)>,
) {
    let _guards = lockstep_runtime::lock_all([(src, Access::Read), (dst, Access::Write)]);
    for (s, d, n) in rows {
        // SAFETY: offsets checked by the callers; `copy` allows overlap.
        unsafe { std::ptr::copy(src.as_ptr().add(s), dst.as_ptr().add(d), n) };
    }
}

pub unsafe extern "C" fn clEnqueueCopyBuffer(
    queue: cl_command_queue,
    src_buffer: cl_mem,
    dst_buffer: cl_mem,
    src_offset: usize,
    dst_offset: usize,
    size: usize,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| {
        let (q, src) = queue_and_mem(queue, src_buffer)?;
        let (_, dst) = queue_and_mem(queue, dst_buffer)?;
        let wait = wait_list(&q.context, num, list)?;
        if size == 0
            || !in_bounds(src_offset, size, src.size)
            || !in_bounds(dst_offset, size, dst.size)
        {
            return Err(CL_INVALID_VALUE);
        }
        if ranges_overlap(&src.storage, src_offset, &dst.storage, dst_offset, size) {
            return Err(CL_MEM_COPY_OVERLAP);
        }
        let (s, d) = (src.storage.clone(), dst.storage.clone());
        let e = Enqueue {
            queue: &q,
            command_type: CL_COMMAND_COPY_BUFFER,
            wait,
            event_out: event,
            blocking: false,
            uses: vec![src.clone(), dst.clone()],
        };
        enqueue(
            e,
            Box::new(move || {
                copy_bytes(&s, src_offset, &d, dst_offset, size);
                Ok(())
            }),
        )
    })
}

pub unsafe extern "C" fn clEnqueueFillBuffer(
    queue: cl_command_queue,
    buffer: cl_mem,
    pattern: *const c_void,
    pattern_size: usize,
    offset: usize,
    size: usize,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| {
        let (q, m) = queue_and_mem(queue, buffer)?;
        let wait = wait_list(&q.context, num, list)?;
        if pattern.is_null()
            || ![1, 2, 4, 8, 16, 32, 64, 128].contains(&pattern_size)
            || !offset.is_multiple_of(pattern_size)
            || !size.is_multiple_of(pattern_size)
            || !in_bounds(offset, size, m.size)
        {
            return Err(CL_INVALID_VALUE);
        }
        let pattern = std::slice::from_raw_parts(pattern as *const u8, pattern_size).to_vec();
        let storage = m.storage.clone();
        let e = Enqueue {
            queue: &q,
            command_type: CL_COMMAND_FILL_BUFFER,
            wait,
            event_out: event,
            blocking: false,
            uses: vec![m.clone()],
        };
        enqueue(
            e,
            Box::new(move || {
                // Bounds and the pattern's size checked above.
                storage.fill(offset..offset + size, &pattern);
                Ok(())
            }),
        )
    })
}

/// A 3D box of bytes in a linear memory: origin, region and pitches.
///
/// Built only by [`Rect::new`], which checks that every byte of the box,
/// computed without wrapping, lies below a limit; so `offset` and `end`
/// cannot overflow afterwards.
#[derive(Copy, Clone)]
struct Rect {
    origin: [usize; 3],
    row_pitch: usize,
    slice_pitch: usize,
}

impl Rect {
    /// Checks the pitches (0 means tightly packed) against `region` and
    /// that the box ends at or before `limit` bytes; CL_INVALID_VALUE
    /// otherwise (also when any of the arithmetic would overflow).
    unsafe fn new(
        origin: *const usize,
        region: [usize; 3],
        row_pitch: usize,
        slice_pitch: usize,
        limit: usize,
    ) -> Result<Rect, cl_int> {
        if origin.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let origin = [*origin, *origin.add(1), *origin.add(2)];
        Rect::checked(origin, region, row_pitch, slice_pitch, limit).ok_or(CL_INVALID_VALUE)
    }

    fn checked(
        origin: [usize; 3],
        region: [usize; 3],
        row_pitch: usize,
        slice_pitch: usize,
        limit: usize,
    ) -> Option<Rect> {
        if region.contains(&0) {
            return None;
        }
        let row_pitch = if row_pitch == 0 { region[0] } else { row_pitch };
        if row_pitch < region[0] {
            return None;
        }
        let min_slice = region[1].checked_mul(row_pitch)?;
        let slice_pitch = if slice_pitch == 0 {
            min_slice
        } else {
            slice_pitch
        };
        if slice_pitch < min_slice || slice_pitch % row_pitch != 0 {
            return None;
        }
        // The last byte: origin + (last row, last slice) + row length.
        let end = origin[1]
            .checked_add(region[1] - 1)?
            .checked_mul(row_pitch)?
            .checked_add(
                origin[2]
                    .checked_add(region[2] - 1)?
                    .checked_mul(slice_pitch)?,
            )?
            .checked_add(origin[0])?
            .checked_add(region[0])?;
        (end <= limit).then_some(Rect {
            origin,
            row_pitch,
            slice_pitch,
        })
    }

    /// The start of row `y` of slice `z` (inside the box, so no overflow).
    fn offset(&self, y: usize, z: usize) -> usize {
        self.origin[0]
            + (self.origin[1] + y) * self.row_pitch
            + (self.origin[2] + z) * self.slice_pitch
    }

    /// The rows of a copy from `self` to `to`: (src, dst, bytes).
    fn rows(
        self,
        to: Rect,
        region: [usize; 3],
    ) -> impl Iterator<Item = (usize, usize, usize)> + Clone {
        (0..region[2]).flat_map(move |z| {
            (0..region[1]).map(move |y| (self.offset(y, z), to.offset(y, z), region[0]))
        })
    }
}

pub(crate) unsafe fn read_region(region: *const usize) -> Result<[usize; 3], cl_int> {
    if region.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    let r = [*region, *region.add(1), *region.add(2)];
    if r.contains(&0) {
        return Err(CL_INVALID_VALUE);
    }
    Ok(r)
}

/// Reads or writes a rect between a buffer and host memory.
#[allow(clippy::too_many_arguments)]
unsafe fn host_rect(
    queue: cl_command_queue,
    buffer: cl_mem,
    blocking: cl_bool,
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    pitches: [usize; 4],
    ptr: *mut c_void,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
    write: bool,
) -> Result<(), cl_int> {
    let (q, m) = queue_and_mem(queue, buffer)?;
    let wait = wait_list(&q.context, num, list)?;
    let region = read_region(region)?;
    if ptr.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    let buf = Rect::new(buffer_origin, region, pitches[0], pitches[1], m.size)?;
    // The host memory is the application's; its box must still be
    // addressable without wrapping.
    let host = Rect::new(
        host_origin,
        region,
        pitches[2],
        pitches[3],
        isize::MAX as usize,
    )?;
    if (write && !m.host_can_write()) || (!write && !m.host_can_read()) {
        return Err(CL_INVALID_OPERATION);
    }
    let storage = m.storage.clone();
    let host_ptr = SendPtr(ptr as *mut u8);
    let e = Enqueue {
        queue: &q,
        command_type: if write {
            CL_COMMAND_WRITE_BUFFER_RECT
        } else {
            CL_COMMAND_READ_BUFFER_RECT
        },
        wait,
        event_out: event,
        blocking: blocking != 0,
        uses: vec![m.clone()],
    };
    enqueue(
        e,
        Box::new(move || {
            let host_ptr = host_ptr;
            let _guard = if write {
                Some(storage.write_lock())
            } else {
                None
            };
            let _read = (!write).then(|| storage.read_lock());
            for (b, h, n) in buf.rows(host, region) {
                // SAFETY: buffer bounds checked; the host rect is the
                // application's to keep valid.
                unsafe {
                    if write {
                        std::ptr::copy(host_ptr.0.add(h), storage.as_ptr().add(b), n);
                    } else {
                        std::ptr::copy(storage.as_ptr().add(b), host_ptr.0.add(h), n);
                    }
                }
            }
            Ok(())
        }),
    )
}

pub unsafe extern "C" fn clEnqueueReadBufferRect(
    queue: cl_command_queue,
    buffer: cl_mem,
    blocking: cl_bool,
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    buffer_row_pitch: usize,
    buffer_slice_pitch: usize,
    host_row_pitch: usize,
    host_slice_pitch: usize,
    ptr: *mut c_void,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| {
        host_rect(
            queue,
            buffer,
            blocking,
            buffer_origin,
            host_origin,
            region,
            [
                buffer_row_pitch,
                buffer_slice_pitch,
                host_row_pitch,
                host_slice_pitch,
            ],
            ptr,
            num,
            list,
            event,
            false,
        )
    })
}

pub unsafe extern "C" fn clEnqueueWriteBufferRect(
    queue: cl_command_queue,
    buffer: cl_mem,
    blocking: cl_bool,
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    buffer_row_pitch: usize,
    buffer_slice_pitch: usize,
    host_row_pitch: usize,
    host_slice_pitch: usize,
    ptr: *const c_void,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| {
        host_rect(
            queue,
            buffer,
            blocking,
            buffer_origin,
            host_origin,
            region,
            [
                buffer_row_pitch,
                buffer_slice_pitch,
                host_row_pitch,
                host_slice_pitch,
            ],
            ptr as *mut c_void,
            num,
            list,
            event,
            true,
        )
    })
}

pub unsafe extern "C" fn clEnqueueCopyBufferRect(
    queue: cl_command_queue,
    src_buffer: cl_mem,
    dst_buffer: cl_mem,
    src_origin: *const usize,
    dst_origin: *const usize,
    region: *const usize,
    src_row_pitch: usize,
    src_slice_pitch: usize,
    dst_row_pitch: usize,
    dst_slice_pitch: usize,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| {
        let (q, src) = queue_and_mem(queue, src_buffer)?;
        let (_, dst) = queue_and_mem(queue, dst_buffer)?;
        let wait = wait_list(&q.context, num, list)?;
        let region = read_region(region)?;
        let s = Rect::new(src_origin, region, src_row_pitch, src_slice_pitch, src.size)?;
        let d = Rect::new(dst_origin, region, dst_row_pitch, dst_slice_pitch, dst.size)?;
        let same = Arc::ptr_eq(&src.storage, &dst.storage);
        if same && (s.row_pitch != d.row_pitch || s.slice_pitch != d.slice_pitch) {
            return Err(CL_INVALID_VALUE);
        }
        // Overlap (only possible within one allocation: the same buffer, or
        // a parent and its sub-buffers): any source row against any
        // destination row.
        let (sb, db) = (src.storage.as_ptr() as usize, dst.storage.as_ptr() as usize);
        if sb < db + dst.size && db < sb + src.size {
            let rows = s.rows(d, region);
            let mut src_rows: Vec<(usize, usize)> =
                rows.clone().map(|r| (sb + r.0, sb + r.0 + r.2)).collect();
            let mut dst_rows: Vec<(usize, usize)> =
                rows.map(|r| (db + r.1, db + r.1 + r.2)).collect();
            src_rows.sort_unstable();
            dst_rows.sort_unstable();
            let (mut i, mut j) = (0, 0);
            while i < src_rows.len() && j < dst_rows.len() {
                let (a, b) = (src_rows[i], dst_rows[j]);
                if a.0 < b.1 && b.0 < a.1 {
                    return Err(CL_MEM_COPY_OVERLAP);
                }
                if a.1 <= b.1 {
                    i += 1;
                } else {
                    j += 1;
                }
            }
        }
        let (ss, ds) = (src.storage.clone(), dst.storage.clone());
        let e = Enqueue {
            queue: &q,
            command_type: CL_COMMAND_COPY_BUFFER_RECT,
            wait,
            event_out: event,
            blocking: false,
            uses: vec![src.clone(), dst.clone()],
        };
        enqueue(
            e,
            Box::new(move || {
                copy_rows(&ss, &ds, s.rows(d, region));
                Ok(())
            }),
        )
    })
}

pub unsafe extern "C" fn clEnqueueMapBuffer(
    queue: cl_command_queue,
    buffer: cl_mem,
    blocking: cl_bool,
    map_flags: cl_map_flags,
    offset: usize,
    size: usize,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    creator(errcode_ret, || {
        let (q, m) = queue_and_mem(queue, buffer)?;
        let wait = wait_list(&q.context, num, list)?;
        if size == 0 || !in_bounds(offset, size, m.size) {
            return Err(CL_INVALID_VALUE);
        }
        check_map_flags(map_flags)?;
        if (map_flags & CL_MAP_READ != 0 && !m.host_can_read())
            || (map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0
                && !m.host_can_write())
        {
            return Err(CL_INVALID_OPERATION);
        }
        // Storage is host memory (the application's own for USE_HOST_PTR):
        // the mapping is a pointer into it.
        let ptr = m.storage.as_ptr().add(offset);
        let e = Enqueue {
            queue: &q,
            command_type: CL_COMMAND_MAP_BUFFER,
            wait,
            event_out: event,
            blocking: blocking != 0,
            uses: vec![m.clone()],
        };
        enqueue(e, Box::new(|| Ok(())))?;
        m.mapped
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(ptr as usize);
        Ok(ptr as *mut c_void)
    })
}

pub unsafe extern "C" fn clEnqueueUnmapMemObject(
    queue: cl_command_queue,
    memobj: cl_mem,
    mapped_ptr: *mut c_void,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| {
        let (q, m) = queue_and_object(queue, memobj)?;
        let wait = wait_list(&q.context, num, list)?;
        {
            let mut mapped = m.mapped.lock().unwrap_or_else(|e| e.into_inner());
            let at = mapped
                .iter()
                .position(|&p| p == mapped_ptr as usize)
                .ok_or(CL_INVALID_VALUE)?;
            mapped.remove(at);
        }
        let e = Enqueue {
            queue: &q,
            command_type: CL_COMMAND_UNMAP_MEM_OBJECT,
            wait,
            event_out: event,
            blocking: false,
            uses: vec![m.clone()],
        };
        // A USE_HOST_PTR image was mapped as the application's memory:
        // what it wrote there goes back into the image.
        let write_back = m
            .image
            .as_ref()
            .filter(|_| !m.host_ptr.0.is_null())
            .map(|i| {
                (
                    i.image.clone(),
                    m.host_ptr,
                    i.host_row_pitch,
                    i.host_slice_pitch,
                )
            });
        enqueue(
            e,
            Box::new(move || {
                if let Some((image, host, rp, sp)) = write_back {
                    let host = host;
                    // SAFETY: USE_HOST_PTR memory holds the whole image.
                    unsafe { image.write_region([0; 3], image.desc().extent(), host.0, rp, sp) };
                }
                Ok(())
            }),
        )
    })
}

pub unsafe extern "C" fn clEnqueueMigrateMemObjects(
    queue: cl_command_queue,
    num_mem_objects: cl_uint,
    mem_objects: *const cl_mem,
    flags: cl_mem_migration_flags,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| {
        let q = queue::get(queue)?;
        let mems = handle::get_list::<Mem>(num_mem_objects, mem_objects, CL_INVALID_VALUE)?;
        if mems.is_empty()
            || flags & !(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED) != 0
        {
            return Err(CL_INVALID_VALUE);
        }
        if mems.iter().any(|m| !Arc::ptr_eq(&m.context, &q.context)) {
            return Err(CL_INVALID_CONTEXT);
        }
        let wait = wait_list(&q.context, num, list)?;
        let e = Enqueue {
            queue: &q,
            command_type: CL_COMMAND_MIGRATE_MEM_OBJECTS,
            wait,
            event_out: event,
            blocking: false,
            uses: mems.clone(),
        };
        // One memory: nothing to move.
        enqueue(e, Box::new(|| Ok(())))
    })
}
