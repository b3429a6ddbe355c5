//! Pipe objects (OpenCL 2.0): `clCreatePipe` and `clGetPipeInfo`.
//!
//! A pipe is a memory object whose storage is a `lockstep_runtime::Pipe`'s:
//! a header and a ring of packets that only kernels touch, through the
//! pipe builtins (`crates/frontend/builtins/pipes.cl`). The host cannot
//! read, write, copy, fill or map a pipe (buffer and image commands give
//! `CL_INVALID_MEM_OBJECT`); it binds pipes to kernels' pipe arguments,
//! where buffers are refused, as pipes are for buffer arguments (the
//! `kernel` module).

#![allow(non_snake_case)]

use std::ffi::c_void;
use std::sync::atomic::AtomicUsize;
use std::sync::Mutex;

use lockstep_runtime::Pipe;

use crate::cl::*;
use crate::handle::{creator, status, Retained, SendPtr};
use crate::info::Info;
use crate::memory::{self, Mem};

/// The largest packet `clCreatePipe` accepts (`CL_DEVICE_PIPE_MAX_PACKET_SIZE`;
/// the spec's minimum is 1024).
pub const MAX_PACKET_SIZE: cl_uint = 64 << 10;

/// Pipe arguments a kernel may take (`CL_DEVICE_MAX_PIPE_ARGS`, the spec's
/// minimum); kernels with more build and run as well.
pub const MAX_PIPE_ARGS: cl_uint = 16;

/// Reservations a work-item may hold on one pipe at once
/// (`CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS`). Reservations take no
/// resources of their own: a pipe holds as many as it has packets (each
/// reserves at least one), so this is a count the CTS can test in a
/// reasonable time rather than a limit.
pub const MAX_ACTIVE_RESERVATIONS: cl_uint = 1 << 16;

/// What a memory object that is a pipe knows besides its storage.
pub struct PipeMem {
    pub pipe: Pipe,
    /// The properties given to `clCreatePipe`, terminator included (empty
    /// for NULL), for `CL_PIPE_PROPERTIES`.
    properties: Vec<cl_pipe_properties>,
}

pub unsafe extern "C" fn clCreatePipe(
    context: cl_context,
    flags: cl_mem_flags,
    packet_size: cl_uint,
    max_packets: cl_uint,
    properties: *const cl_pipe_properties,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    creator(errcode_ret, || {
        let context = crate::context::get(context)?;
        if flags & !(CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS) != 0 {
            return Err(CL_INVALID_VALUE);
        }
        let flags = if flags == 0 {
            CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS
        } else {
            flags
        };
        // No pipe properties exist: NULL or an empty list.
        let properties = match properties.as_ref() {
            None => Vec::new(),
            Some(0) => vec![0],
            Some(_) => return Err(CL_INVALID_VALUE),
        };
        if packet_size == 0 || packet_size > MAX_PACKET_SIZE || max_packets == 0 {
            return Err(CL_INVALID_PIPE_SIZE);
        }
        let size = Pipe::storage_size(packet_size, max_packets)
            .map_err(|_| CL_MEM_OBJECT_ALLOCATION_FAILURE)?;
        if size as u64 > crate::platform::max_mem_alloc_size() {
            return Err(CL_MEM_OBJECT_ALLOCATION_FAILURE);
        }
        let pipe =
            Pipe::new(packet_size, max_packets).map_err(|_| CL_MEM_OBJECT_ALLOCATION_FAILURE)?;
        Ok(memory::new_mem(Mem {
            context: Retained::new(&context),
            flags,
            size: pipe.storage().len(),
            storage: pipe.storage().clone(),
            host_ptr: SendPtr(std::ptr::null_mut()),
            uses_svm: false,
            parent: None,
            origin: 0,
            properties: Vec::new(),
            mapped: Mutex::new(Vec::new()),
            destructors: Mutex::new(Vec::new()),
            handle: AtomicUsize::new(0),
            image: None,
            pipe: Some(PipeMem { pipe, properties }),
        }))
    })
}

pub unsafe extern "C" fn clGetPipeInfo(
    pipe: cl_mem,
    param_name: cl_pipe_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    status(|| {
        let m = memory::get(pipe)?;
        let p = m.pipe.as_ref().ok_or(CL_INVALID_MEM_OBJECT)?;
        let info = match param_name {
            CL_PIPE_PACKET_SIZE => Info::from(p.pipe.packet_size()),
            CL_PIPE_MAX_PACKETS => Info::from(p.pipe.max_packets()),
            CL_PIPE_PROPERTIES => Info::list(&p.properties),
            _ => return Err(CL_INVALID_VALUE),
        };
        match info.write(size, value, size_ret) {
            CL_SUCCESS => Ok(()),
            e => Err(e),
        }
    })
}
