//! Contexts: `clCreateContext(FromType)`, their devices and properties,
//! queries and destructor callbacks.
//!
//! A context holds a reference to each of its devices (the root device,
//! sub-devices, or both): queues are made on them, programs built for them.

#![allow(non_snake_case)]

use std::ffi::{c_char, c_void};
use std::sync::{Arc, Mutex};

use crate::cl::*;
use crate::device::{self, Device};
use crate::handle::{self, creator, status, ClType, Kind, Object, Retained};
use crate::info::Info;
use crate::platform;

pub type ContextNotify = unsafe extern "C" fn(
    errinfo: *const c_char,
    private: *const c_void,
    cb: usize,
    user: *mut c_void,
);
pub type ContextDestructor = unsafe extern "C" fn(context: cl_context, user: *mut c_void);

pub struct Context {
    /// The properties as given (zero-terminated), for `CL_CONTEXT_PROPERTIES`.
    pub properties: Vec<cl_context_properties>,
    /// Its devices, each once, in the order given.
    devices: Vec<Retained<Device>>,
    /// The device queues of each device (in `devices`' order): what
    /// kernels launched on it may enqueue to.
    device_queues: Vec<lockstep_runtime::DeviceQueues>,
    destructors: Mutex<Vec<(ContextDestructor, usize)>>,
    /// The runtime context kernels run in.
    pub runtime: lockstep_runtime::Context,
    /// Its shared virtual memory allocations (`clSVMAlloc`).
    pub svm: crate::svm::Allocations,
}

impl ClType for Context {
    const KIND: Kind = Kind::Context;
    const INVALID: cl_int = CL_INVALID_CONTEXT;
}

impl Context {
    /// Its devices, each once.
    pub fn devices(&self) -> impl Iterator<Item = &Arc<Object<Device>>> {
        self.devices.iter().map(|d| &**d)
    }

    pub fn has_device(&self, d: &Arc<Object<Device>>) -> bool {
        self.devices().any(|c| Arc::ptr_eq(c, d))
    }

    /// The device behind `handle` if it is one of the context's; otherwise
    /// `CL_INVALID_DEVICE`.
    pub fn device(&self, handle: cl_device_id) -> Result<Arc<Object<Device>>, cl_int> {
        let d = device::get(handle)?;
        if self.has_device(&d) {
            Ok(d)
        } else {
            Err(CL_INVALID_DEVICE)
        }
    }

    /// The device queues of `d`, one of its devices.
    pub fn device_queues(
        &self,
        d: &Arc<Object<Device>>,
    ) -> Option<&lockstep_runtime::DeviceQueues> {
        self.devices()
            .position(|c| Arc::ptr_eq(c, d))
            .map(|i| &self.device_queues[i])
    }

    /// Its devices' handles.
    pub fn device_handles(&self) -> Vec<cl_device_id> {
        self.devices().map(handle::handle).collect()
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        let callbacks = std::mem::take(
            self.destructors
                .get_mut()
                .unwrap_or_else(|e| e.into_inner()),
        );
        // The spec gives the handle to the callback; it is no longer valid
        // for other calls, but identifies the context.
        let handle = self as *mut Context as cl_context;
        for (f, user) in callbacks.into_iter().rev() {
            // SAFETY: a C callback the application registered.
            unsafe { f(handle, user as *mut c_void) };
        }
    }
}

/// Reads a zero-terminated property list, checking the platform property.
unsafe fn read_properties(
    properties: *const cl_context_properties,
) -> Result<Vec<cl_context_properties>, cl_int> {
    let mut out = Vec::new();
    if properties.is_null() {
        return Ok(out);
    }
    let mut seen = Vec::new();
    let mut p = properties;
    loop {
        let name = *p;
        if name == 0 {
            out.push(0);
            return Ok(out);
        }
        let value = *p.add(1);
        if seen.contains(&name) {
            return Err(CL_INVALID_PROPERTY);
        }
        seen.push(name);
        // Compared whole: a name that only truncates to a property is none.
        let is = |property: cl_uint| name == property as cl_context_properties;
        if is(CL_CONTEXT_PLATFORM) {
            if value as cl_platform_id != platform::platform_handle() {
                return Err(CL_INVALID_PLATFORM);
            }
        } else if is(CL_CONTEXT_INTEROP_USER_SYNC) {
            // A cl_bool.
            if value != CL_TRUE as cl_context_properties
                && value != CL_FALSE as cl_context_properties
            {
                return Err(CL_INVALID_PROPERTY);
            }
        } else {
            return Err(CL_INVALID_PROPERTY);
        }
        out.push(name);
        out.push(value);
        p = p.add(2);
    }
}

fn new_context(
    properties: Vec<cl_context_properties>,
    devices: &[Arc<Object<Device>>],
) -> cl_context {
    let mut unique: Vec<Retained<Device>> = Vec::new();
    for d in devices {
        // The spec ignores duplicates.
        if !unique.iter().any(|u| Arc::ptr_eq(u, d)) {
            unique.push(Retained::new(d));
        }
    }
    let device_queues = unique
        .iter()
        .map(|_| lockstep_runtime::DeviceQueues::new())
        .collect();
    let context = handle::create(Context {
        properties,
        devices: unique,
        device_queues,
        destructors: Mutex::new(Vec::new()),
        runtime: platform::runtime().clone(),
        svm: Default::default(),
    });
    handle::handle(&context)
}

pub unsafe extern "C" fn clCreateContext(
    properties: *const cl_context_properties,
    num_devices: cl_uint,
    devices: *const cl_device_id,
    pfn_notify: Option<ContextNotify>,
    user_data: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_context {
    creator(errcode_ret, || {
        if devices.is_null() || num_devices == 0 || (pfn_notify.is_none() && !user_data.is_null()) {
            return Err(CL_INVALID_VALUE);
        }
        let devices = handle::get_list::<Device>(num_devices, devices, CL_INVALID_VALUE)?;
        let properties = read_properties(properties)?;
        Ok(new_context(properties, &devices))
    })
}

pub unsafe extern "C" fn clCreateContextFromType(
    properties: *const cl_context_properties,
    device_type: cl_device_type,
    pfn_notify: Option<ContextNotify>,
    user_data: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_context {
    creator(errcode_ret, || {
        if pfn_notify.is_none() && !user_data.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let properties = read_properties(properties)?;
        let mut n = 0;
        match platform::clGetDeviceIDs(
            std::ptr::null_mut(),
            device_type,
            0,
            std::ptr::null_mut(),
            &mut n,
        ) {
            CL_SUCCESS => {}
            e => return Err(e),
        }
        Ok(new_context(properties, &[device::root().clone()]))
    })
}

pub unsafe extern "C" fn clRetainContext(context: cl_context) -> cl_int {
    status(|| {
        handle::get::<Context>(context)?.retain();
        Ok(())
    })
}

pub unsafe extern "C" fn clReleaseContext(context: cl_context) -> cl_int {
    status(|| {
        handle::get::<Context>(context)?.release();
        Ok(())
    })
}

pub unsafe extern "C" fn clGetContextInfo(
    context: cl_context,
    param_name: cl_context_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    status(|| {
        let c = handle::get::<Context>(context)?;
        let info = match param_name {
            CL_CONTEXT_REFERENCE_COUNT => Info::from(c.ref_count()),
            CL_CONTEXT_NUM_DEVICES => Info::from(c.devices.len() as cl_uint),
            CL_CONTEXT_DEVICES => Info::list(&c.device_handles()),
            CL_CONTEXT_PROPERTIES => Info::list(&c.properties),
            _ => return Err(CL_INVALID_VALUE),
        };
        match info.write(size, value, size_ret) {
            CL_SUCCESS => Ok(()),
            e => Err(e),
        }
    })
}

pub unsafe extern "C" fn clSetContextDestructorCallback(
    context: cl_context,
    pfn_notify: Option<ContextDestructor>,
    user_data: *mut c_void,
) -> cl_int {
    status(|| {
        let c = handle::get::<Context>(context)?;
        let f = pfn_notify.ok_or(CL_INVALID_VALUE)?;
        c.destructors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((f, user_data as usize));
        Ok(())
    })
}

/// The context behind a handle (for other modules).
pub fn get(context: cl_context) -> Result<Arc<Object<Context>>, cl_int> {
    handle::get::<Context>(context)
}
