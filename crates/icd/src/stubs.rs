//! Entry points of features the device does not have: images, samplers,
//! pipes, SVM, and graphics/media sharing. Each returns the error the spec
//! gives for a device without the feature (`CL_DEVICE_IMAGE_SUPPORT` and
//! the pipe and SVM capabilities are all false), never a crash.

#![allow(non_snake_case)]

use std::ffi::c_void;

use crate::cl::*;
use crate::handle::{creator, status};

/// Status-returning entry points of absent features.
pub unsafe extern "C" fn unsupported() -> cl_int {
    CL_INVALID_OPERATION
}

/// Pointer-returning entry points of sharing extensions Lockstep does not
/// offer (the loader only calls them for a platform that lists them).
pub unsafe extern "C" fn null() -> *mut c_void {
    std::ptr::null_mut()
}

/// Image creation: no device of the context supports images.
unsafe fn no_images(context: cl_context, errcode_ret: *mut cl_int) -> cl_mem {
    creator(errcode_ret, || {
        crate::context::get(context)?;
        Err(CL_INVALID_OPERATION)
    })
}

pub unsafe extern "C" fn clCreateImage2D(
    context: cl_context,
    _flags: cl_mem_flags,
    _format: *const c_void,
    _width: usize,
    _height: usize,
    _row_pitch: usize,
    _host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    no_images(context, errcode_ret)
}

pub unsafe extern "C" fn clCreateImage3D(
    context: cl_context,
    _flags: cl_mem_flags,
    _format: *const c_void,
    _width: usize,
    _height: usize,
    _depth: usize,
    _row_pitch: usize,
    _slice_pitch: usize,
    _host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    no_images(context, errcode_ret)
}

pub unsafe extern "C" fn clCreateImage(
    context: cl_context,
    _flags: cl_mem_flags,
    _format: *const c_void,
    _desc: *const c_void,
    _host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    no_images(context, errcode_ret)
}

pub unsafe extern "C" fn clCreateImageWithProperties(
    context: cl_context,
    _properties: *const cl_mem_properties,
    _flags: cl_mem_flags,
    _format: *const c_void,
    _desc: *const c_void,
    _host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    no_images(context, errcode_ret)
}

/// No image formats: success with an empty list.
pub unsafe extern "C" fn clGetSupportedImageFormats(
    context: cl_context,
    _flags: cl_mem_flags,
    _image_type: cl_mem_object_type,
    _num_entries: cl_uint,
    _formats: *mut c_void,
    num_formats: *mut cl_uint,
) -> cl_int {
    status(|| {
        crate::context::get(context)?;
        if !num_formats.is_null() {
            *num_formats = 0;
        }
        Ok(())
    })
}

pub unsafe extern "C" fn clEnqueueMapImage(
    _queue: cl_command_queue,
    _image: cl_mem,
    _blocking: cl_bool,
    _flags: cl_map_flags,
    _origin: *const usize,
    _region: *const usize,
    _row_pitch: *mut usize,
    _slice_pitch: *mut usize,
    _num: cl_uint,
    _list: *const cl_event,
    _event: *mut cl_event,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    // There are no images, so no image handle is valid.
    creator(errcode_ret, || Err(CL_INVALID_MEM_OBJECT))
}

pub unsafe extern "C" fn clCreateSampler(
    context: cl_context,
    _normalized: cl_bool,
    _addressing: cl_uint,
    _filter: cl_uint,
    errcode_ret: *mut cl_int,
) -> cl_sampler {
    no_images(context, errcode_ret)
}

pub unsafe extern "C" fn clCreateSamplerWithProperties(
    context: cl_context,
    _properties: *const cl_properties,
    errcode_ret: *mut cl_int,
) -> cl_sampler {
    no_images(context, errcode_ret)
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
    no_images(context, errcode_ret)
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
