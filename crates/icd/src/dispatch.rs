//! The ICD dispatch table: one function pointer per OpenCL entry point, in
//! the order of `cl_icd_dispatch` in the Khronos `CL/cl_icd.h` (OpenCL 1.0
//! through 3.0, with the sharing extensions' slots between them). Every
//! object's first field points to it; the ICD loader calls through it.
//!
//! Entry points Lockstep does not implement (graphics and media
//! sharing) point to stubs that return an error, so no
//! slot is NULL. The C test checks the table against the installed header
//! (slot count and the position of the last OpenCL 3.0 entry).

use std::ffi::c_void;
use std::sync::OnceLock;

use crate::{context, device, image, kernel, memory, pipe, platform, program, queue, stubs, svm};

/// The number of slots in `cl_icd_dispatch` (OpenCL 3.0 headers).
pub const DISPATCH_SLOTS: usize = 149;

/// The table: function pointers as opaque pointers, `repr(C)` like the header's struct.
#[repr(C)]
pub struct Dispatch(pub [*const c_void; DISPATCH_SLOTS]);

// SAFETY: immutable after creation; the pointers are functions.
unsafe impl Send for Dispatch {}
unsafe impl Sync for Dispatch {}

/// The table every object points to.
pub fn dispatch_table() -> *const Dispatch {
    static TABLE: OnceLock<Dispatch> = OnceLock::new();
    TABLE.get_or_init(build) as *const Dispatch
}

fn build() -> Dispatch {
    Dispatch([
        platform::clGetPlatformIDs as *const c_void, // clGetPlatformIDs
        platform::get_platform_info as *const c_void, // clGetPlatformInfo
        platform::clGetDeviceIDs as *const c_void,   // clGetDeviceIDs
        platform::clGetDeviceInfo as *const c_void,  // clGetDeviceInfo
        context::clCreateContext as *const c_void,   // clCreateContext
        context::clCreateContextFromType as *const c_void, // clCreateContextFromType
        context::clRetainContext as *const c_void,   // clRetainContext
        context::clReleaseContext as *const c_void,  // clReleaseContext
        context::clGetContextInfo as *const c_void,  // clGetContextInfo
        queue::clCreateCommandQueue as *const c_void, // clCreateCommandQueue
        queue::clRetainCommandQueue as *const c_void, // clRetainCommandQueue
        queue::clReleaseCommandQueue as *const c_void, // clReleaseCommandQueue
        queue::clGetCommandQueueInfo as *const c_void, // clGetCommandQueueInfo
        queue::clSetCommandQueueProperty as *const c_void, // clSetCommandQueueProperty
        memory::clCreateBuffer as *const c_void,     // clCreateBuffer
        image::clCreateImage2D as *const c_void,     // clCreateImage2D
        image::clCreateImage3D as *const c_void,     // clCreateImage3D
        memory::clRetainMemObject as *const c_void,  // clRetainMemObject
        memory::clReleaseMemObject as *const c_void, // clReleaseMemObject
        image::clGetSupportedImageFormats as *const c_void, // clGetSupportedImageFormats
        memory::clGetMemObjectInfo as *const c_void, // clGetMemObjectInfo
        image::clGetImageInfo as *const c_void,      // clGetImageInfo
        image::clCreateSampler as *const c_void,     // clCreateSampler
        image::clRetainSampler as *const c_void,     // clRetainSampler
        image::clReleaseSampler as *const c_void,    // clReleaseSampler
        image::clGetSamplerInfo as *const c_void,    // clGetSamplerInfo
        program::clCreateProgramWithSource as *const c_void, // clCreateProgramWithSource
        program::clCreateProgramWithBinary as *const c_void, // clCreateProgramWithBinary
        program::clRetainProgram as *const c_void,   // clRetainProgram
        program::clReleaseProgram as *const c_void,  // clReleaseProgram
        program::clBuildProgram as *const c_void,    // clBuildProgram
        platform::clUnloadCompiler as *const c_void, // clUnloadCompiler
        program::clGetProgramInfo as *const c_void,  // clGetProgramInfo
        program::clGetProgramBuildInfo as *const c_void, // clGetProgramBuildInfo
        kernel::clCreateKernel as *const c_void,     // clCreateKernel
        kernel::clCreateKernelsInProgram as *const c_void, // clCreateKernelsInProgram
        kernel::clRetainKernel as *const c_void,     // clRetainKernel
        kernel::clReleaseKernel as *const c_void,    // clReleaseKernel
        kernel::clSetKernelArg as *const c_void,     // clSetKernelArg
        kernel::clGetKernelInfo as *const c_void,    // clGetKernelInfo
        kernel::clGetKernelWorkGroupInfo as *const c_void, // clGetKernelWorkGroupInfo
        queue::clWaitForEvents as *const c_void,     // clWaitForEvents
        queue::clGetEventInfo as *const c_void,      // clGetEventInfo
        queue::clRetainEvent as *const c_void,       // clRetainEvent
        queue::clReleaseEvent as *const c_void,      // clReleaseEvent
        queue::clGetEventProfilingInfo as *const c_void, // clGetEventProfilingInfo
        queue::clFlush as *const c_void,             // clFlush
        queue::clFinish as *const c_void,            // clFinish
        memory::clEnqueueReadBuffer as *const c_void, // clEnqueueReadBuffer
        memory::clEnqueueWriteBuffer as *const c_void, // clEnqueueWriteBuffer
        memory::clEnqueueCopyBuffer as *const c_void, // clEnqueueCopyBuffer
        image::clEnqueueReadImage as *const c_void,  // clEnqueueReadImage
        image::clEnqueueWriteImage as *const c_void, // clEnqueueWriteImage
        image::clEnqueueCopyImage as *const c_void,  // clEnqueueCopyImage
        image::clEnqueueCopyImageToBuffer as *const c_void, // clEnqueueCopyImageToBuffer
        image::clEnqueueCopyBufferToImage as *const c_void, // clEnqueueCopyBufferToImage
        memory::clEnqueueMapBuffer as *const c_void, // clEnqueueMapBuffer
        image::clEnqueueMapImage as *const c_void,   // clEnqueueMapImage
        memory::clEnqueueUnmapMemObject as *const c_void, // clEnqueueUnmapMemObject
        kernel::clEnqueueNDRangeKernel as *const c_void, // clEnqueueNDRangeKernel
        kernel::clEnqueueTask as *const c_void,      // clEnqueueTask
        kernel::clEnqueueNativeKernel as *const c_void, // clEnqueueNativeKernel
        queue::clEnqueueMarker as *const c_void,     // clEnqueueMarker
        queue::clEnqueueWaitForEvents as *const c_void, // clEnqueueWaitForEvents
        queue::clEnqueueBarrier as *const c_void,    // clEnqueueBarrier
        platform::get_extension_function_address as *const c_void, // clGetExtensionFunctionAddress
        stubs::null as *const c_void,                // clCreateFromGLBuffer
        stubs::null as *const c_void,                // clCreateFromGLTexture2D
        stubs::null as *const c_void,                // clCreateFromGLTexture3D
        stubs::null as *const c_void,                // clCreateFromGLRenderbuffer
        stubs::unsupported as *const c_void,         // clGetGLObjectInfo
        stubs::unsupported as *const c_void,         // clGetGLTextureInfo
        stubs::unsupported as *const c_void,         // clEnqueueAcquireGLObjects
        stubs::unsupported as *const c_void,         // clEnqueueReleaseGLObjects
        stubs::unsupported as *const c_void,         // clGetGLContextInfoKHR
        stubs::unsupported as *const c_void,         // clGetDeviceIDsFromD3D10KHR
        stubs::null as *const c_void,                // clCreateFromD3D10BufferKHR
        stubs::null as *const c_void,                // clCreateFromD3D10Texture2DKHR
        stubs::null as *const c_void,                // clCreateFromD3D10Texture3DKHR
        stubs::unsupported as *const c_void,         // clEnqueueAcquireD3D10ObjectsKHR
        stubs::unsupported as *const c_void,         // clEnqueueReleaseD3D10ObjectsKHR
        queue::clSetEventCallback as *const c_void,  // clSetEventCallback
        memory::clCreateSubBuffer as *const c_void,  // clCreateSubBuffer
        memory::clSetMemObjectDestructorCallback as *const c_void, // clSetMemObjectDestructorCallback
        queue::clCreateUserEvent as *const c_void,                 // clCreateUserEvent
        queue::clSetUserEventStatus as *const c_void,              // clSetUserEventStatus
        memory::clEnqueueReadBufferRect as *const c_void,          // clEnqueueReadBufferRect
        memory::clEnqueueWriteBufferRect as *const c_void,         // clEnqueueWriteBufferRect
        memory::clEnqueueCopyBufferRect as *const c_void,          // clEnqueueCopyBufferRect
        stubs::unsupported as *const c_void,                       // clCreateSubDevicesEXT
        stubs::unsupported as *const c_void,                       // clRetainDeviceEXT
        stubs::unsupported as *const c_void,                       // clReleaseDeviceEXT
        stubs::null as *const c_void,                              // clCreateEventFromGLsyncKHR
        device::clCreateSubDevices as *const c_void,               // clCreateSubDevices
        device::clRetainDevice as *const c_void,                   // clRetainDevice
        device::clReleaseDevice as *const c_void,                  // clReleaseDevice
        image::clCreateImage as *const c_void,                     // clCreateImage
        program::clCreateProgramWithBuiltInKernels as *const c_void, // clCreateProgramWithBuiltInKernels
        program::clCompileProgram as *const c_void,                  // clCompileProgram
        program::clLinkProgram as *const c_void,                     // clLinkProgram
        platform::clUnloadPlatformCompiler as *const c_void,         // clUnloadPlatformCompiler
        kernel::clGetKernelArgInfo as *const c_void,                 // clGetKernelArgInfo
        memory::clEnqueueFillBuffer as *const c_void,                // clEnqueueFillBuffer
        image::clEnqueueFillImage as *const c_void,                  // clEnqueueFillImage
        memory::clEnqueueMigrateMemObjects as *const c_void,         // clEnqueueMigrateMemObjects
        queue::clEnqueueMarkerWithWaitList as *const c_void,         // clEnqueueMarkerWithWaitList
        queue::clEnqueueBarrierWithWaitList as *const c_void,        // clEnqueueBarrierWithWaitList
        platform::get_extension_function_address_for_platform as *const c_void, // clGetExtensionFunctionAddressForPlatform
        stubs::null as *const c_void,        // clCreateFromGLTexture
        stubs::unsupported as *const c_void, // clGetDeviceIDsFromD3D11KHR
        stubs::null as *const c_void,        // clCreateFromD3D11BufferKHR
        stubs::null as *const c_void,        // clCreateFromD3D11Texture2DKHR
        stubs::null as *const c_void,        // clCreateFromD3D11Texture3DKHR
        stubs::null as *const c_void,        // clCreateFromDX9MediaSurfaceKHR
        stubs::unsupported as *const c_void, // clEnqueueAcquireD3D11ObjectsKHR
        stubs::unsupported as *const c_void, // clEnqueueReleaseD3D11ObjectsKHR
        stubs::unsupported as *const c_void, // clGetDeviceIDsFromDX9MediaAdapterKHR
        stubs::unsupported as *const c_void, // clEnqueueAcquireDX9MediaSurfacesKHR
        stubs::unsupported as *const c_void, // clEnqueueReleaseDX9MediaSurfacesKHR
        stubs::null as *const c_void,        // clCreateFromEGLImageKHR
        stubs::unsupported as *const c_void, // clEnqueueAcquireEGLObjectsKHR
        stubs::unsupported as *const c_void, // clEnqueueReleaseEGLObjectsKHR
        stubs::null as *const c_void,        // clCreateEventFromEGLSyncKHR
        queue::clCreateCommandQueueWithProperties as *const c_void, // clCreateCommandQueueWithProperties
        pipe::clCreatePipe as *const c_void,                        // clCreatePipe
        pipe::clGetPipeInfo as *const c_void,                       // clGetPipeInfo
        svm::clSVMAlloc as *const c_void,                           // clSVMAlloc
        svm::clSVMFree as *const c_void,                            // clSVMFree
        svm::clEnqueueSVMFree as *const c_void,                     // clEnqueueSVMFree
        svm::clEnqueueSVMMemcpy as *const c_void,                   // clEnqueueSVMMemcpy
        svm::clEnqueueSVMMemFill as *const c_void,                  // clEnqueueSVMMemFill
        svm::clEnqueueSVMMap as *const c_void,                      // clEnqueueSVMMap
        svm::clEnqueueSVMUnmap as *const c_void,                    // clEnqueueSVMUnmap
        image::clCreateSamplerWithProperties as *const c_void,      // clCreateSamplerWithProperties
        kernel::clSetKernelArgSVMPointer as *const c_void,          // clSetKernelArgSVMPointer
        kernel::clSetKernelExecInfo as *const c_void,               // clSetKernelExecInfo
        kernel::clGetKernelSubGroupInfo as *const c_void,           // clGetKernelSubGroupInfoKHR
        kernel::clCloneKernel as *const c_void,                     // clCloneKernel
        program::clCreateProgramWithIL as *const c_void,            // clCreateProgramWithIL
        svm::clEnqueueSVMMigrateMem as *const c_void,               // clEnqueueSVMMigrateMem
        platform::clGetDeviceAndHostTimer as *const c_void,         // clGetDeviceAndHostTimer
        platform::clGetHostTimer as *const c_void,                  // clGetHostTimer
        kernel::clGetKernelSubGroupInfo as *const c_void,           // clGetKernelSubGroupInfo
        queue::clSetDefaultDeviceCommandQueue as *const c_void, // clSetDefaultDeviceCommandQueue
        program::clSetProgramReleaseCallback as *const c_void,  // clSetProgramReleaseCallback
        program::clSetProgramSpecializationConstant as *const c_void, // clSetProgramSpecializationConstant
        memory::clCreateBufferWithProperties as *const c_void, // clCreateBufferWithProperties
        image::clCreateImageWithProperties as *const c_void,   // clCreateImageWithProperties
        context::clSetContextDestructorCallback as *const c_void, // clSetContextDestructorCallback
    ])
}
