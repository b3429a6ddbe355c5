//! Entry points of features the device does not have:
//! pipes, and graphics/media sharing. Each returns the error the spec
//! gives for a device without the feature (the pipe capabilities are all
//! false), never a crash.

#![allow(non_snake_case)]

use std::ffi::c_void;

use crate::cl::*;
use crate::handle::creator;

/// Status-returning entry points of absent features.
pub unsafe extern "C" fn unsupported() -> cl_int {
    CL_INVALID_OPERATION
}

/// Pointer-returning entry points of sharing extensions Lockstep does not
/// offer (the loader only calls them for a platform that lists them).
pub unsafe extern "C" fn null() -> *mut c_void {
    std::ptr::null_mut()
}

/// Creation of an object of an absent feature: the context is checked,
/// then CL_INVALID_OPERATION.
unsafe fn absent(context: cl_context, errcode_ret: *mut cl_int) -> cl_mem {
    creator(errcode_ret, || {
        crate::context::get(context)?;
        Err(CL_INVALID_OPERATION)
    })
}

pub unsafe extern "C" fn clCreatePipe(
    context: cl_context,
    _flags: cl_mem_flags,
    _packet_size: cl_uint,
    _max_packets: cl_uint,
    _properties: *const isize,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    // No device of the context supports pipes.
    absent(context, errcode_ret)
}

/// No memory object is a pipe (`clCreatePipe` makes none), so every
/// handle, buffer or not, is `CL_INVALID_MEM_OBJECT`.
pub unsafe extern "C" fn clGetPipeInfo(
    _pipe: cl_mem,
    _param_name: cl_uint,
    _size: usize,
    _value: *mut c_void,
    _size_ret: *mut usize,
) -> cl_int {
    CL_INVALID_MEM_OBJECT
}
