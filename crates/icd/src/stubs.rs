//! Entry points of features the device does not have: graphics/media
//! sharing. Each returns the error the spec gives for a device without the
//! feature, never a crash.

use std::ffi::c_void;

use crate::cl::*;

/// Status-returning entry points of absent features.
pub unsafe extern "C" fn unsupported() -> cl_int {
    CL_INVALID_OPERATION
}

/// Pointer-returning entry points of sharing extensions Lockstep does not
/// offer (the loader only calls them for a platform that lists them).
pub unsafe extern "C" fn null() -> *mut c_void {
    std::ptr::null_mut()
}
