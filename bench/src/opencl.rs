//! A minimal OpenCL host API over the ICD loader (`libOpenCL.so.1`), loaded
//! at run time with `dlopen` so that building this crate needs no OpenCL
//! library: just what the benchmarks use on pocl and on Intel's CPU
//! runtime. The loader finds the platforms (`/etc/OpenCL/vendors`, or the
//! directory `OCL_ICD_VENDORS` names); platforms are chosen by name.

use std::ffi::{c_char, c_void, CStr, CString};
use std::ptr::{null, null_mut};

use anyhow::{bail, Context as _, Result};

type Handle = *mut c_void;

const CL_PLATFORM_NAME: u32 = 0x0902;
const CL_DEVICE_NAME: u32 = 0x102B;
const CL_DEVICE_TYPE_CPU: u64 = 1 << 1;
const CL_PROGRAM_BUILD_LOG: u32 = 0x1183;
const CL_MEM_READ_WRITE: u64 = 1;
const CL_TRUE: u32 = 1;

/// The entry points used, resolved from the loader.
#[allow(clippy::type_complexity)]
struct Api {
    get_platform_ids: unsafe extern "C" fn(u32, *mut Handle, *mut u32) -> i32,
    get_platform_info: unsafe extern "C" fn(Handle, u32, usize, *mut c_void, *mut usize) -> i32,
    get_device_ids: unsafe extern "C" fn(Handle, u64, u32, *mut Handle, *mut u32) -> i32,
    get_device_info: unsafe extern "C" fn(Handle, u32, usize, *mut c_void, *mut usize) -> i32,
    create_context: unsafe extern "C" fn(
        *const isize,
        u32,
        *const Handle,
        *const c_void,
        *mut c_void,
        *mut i32,
    ) -> Handle,
    create_command_queue: unsafe extern "C" fn(Handle, Handle, u64, *mut i32) -> Handle,
    create_program_with_source:
        unsafe extern "C" fn(Handle, u32, *const *const c_char, *const usize, *mut i32) -> Handle,
    build_program: unsafe extern "C" fn(
        Handle,
        u32,
        *const Handle,
        *const c_char,
        *const c_void,
        *mut c_void,
    ) -> i32,
    get_program_build_info:
        unsafe extern "C" fn(Handle, Handle, u32, usize, *mut c_void, *mut usize) -> i32,
    create_kernel: unsafe extern "C" fn(Handle, *const c_char, *mut i32) -> Handle,
    set_kernel_arg: unsafe extern "C" fn(Handle, u32, usize, *const c_void) -> i32,
    create_buffer: unsafe extern "C" fn(Handle, u64, usize, *mut c_void, *mut i32) -> Handle,
    enqueue_write_buffer: unsafe extern "C" fn(
        Handle,
        Handle,
        u32,
        usize,
        usize,
        *const c_void,
        u32,
        *const Handle,
        *mut Handle,
    ) -> i32,
    enqueue_read_buffer: unsafe extern "C" fn(
        Handle,
        Handle,
        u32,
        usize,
        usize,
        *mut c_void,
        u32,
        *const Handle,
        *mut Handle,
    ) -> i32,
    enqueue_nd_range_kernel: unsafe extern "C" fn(
        Handle,
        Handle,
        u32,
        *const usize,
        *const usize,
        *const usize,
        u32,
        *const Handle,
        *mut Handle,
    ) -> i32,
    finish: unsafe extern "C" fn(Handle) -> i32,
    release_mem_object: unsafe extern "C" fn(Handle) -> i32,
    release_kernel: unsafe extern "C" fn(Handle) -> i32,
    release_program: unsafe extern "C" fn(Handle) -> i32,
    create_image: unsafe extern "C" fn(
        Handle,
        u64,
        *const ImageFormat,
        *const ImageDesc,
        *mut c_void,
        *mut i32,
    ) -> Handle,
    enqueue_write_image: unsafe extern "C" fn(
        Handle,
        Handle,
        u32,
        *const usize,
        *const usize,
        usize,
        usize,
        *const c_void,
        u32,
        *const Handle,
        *mut Handle,
    ) -> i32,
    enqueue_read_image: unsafe extern "C" fn(
        Handle,
        Handle,
        u32,
        *const usize,
        *const usize,
        usize,
        usize,
        *mut c_void,
        u32,
        *const Handle,
        *mut Handle,
    ) -> i32,
}

/// `cl_image_format`.
#[repr(C)]
struct ImageFormat {
    order: u32,
    data_type: u32,
}

/// `cl_image_desc` (OpenCL 1.2).
#[repr(C)]
struct ImageDesc {
    image_type: u32,
    width: usize,
    height: usize,
    depth: usize,
    array_size: usize,
    row_pitch: usize,
    slice_pitch: usize,
    num_mip_levels: u32,
    num_samples: u32,
    buffer: Handle,
}

const CL_RGBA: u32 = 0x10B5;
const CL_FLOAT: u32 = 0x10DE;
const CL_MEM_OBJECT_IMAGE2D: u32 = 0x10F1;
const CL_DEVICE_IMAGE_SUPPORT: u32 = 0x1016;

fn check(code: i32, what: &str) -> Result<()> {
    if code != 0 {
        bail!("{what} failed with OpenCL error {code}");
    }
    Ok(())
}

/// The file the ICD loader was loaded from (`/lib/x86_64-linux-gnu/libOpenCL.so.1`
/// for the system's ocl-icd): shows that no other `libOpenCL.so.1` (Intel's
/// wheel ships one) shadows it.
pub fn loader_path() -> Result<String> {
    let api = Api::load()?;
    // SAFETY: dladdr on the address of a function of a loaded library.
    unsafe {
        let mut info: libc::Dl_info = std::mem::zeroed();
        if libc::dladdr(api.get_platform_ids as *const c_void, &mut info) == 0
            || info.dli_fname.is_null()
        {
            bail!("dladdr found no file for clGetPlatformIDs");
        }
        Ok(CStr::from_ptr(info.dli_fname)
            .to_string_lossy()
            .into_owned())
    }
}

/// The names of the platforms the ICD loader offers.
pub fn platform_names() -> Result<Vec<String>> {
    let api = Api::load()?;
    Ok(platforms(&api)?
        .into_iter()
        .map(|p| platform_name(&api, p))
        .collect())
}

fn platforms(api: &Api) -> Result<Vec<Handle>> {
    // SAFETY: OpenCL calls with valid out-pointers and sizes.
    unsafe {
        let mut count = 0u32;
        check(
            (api.get_platform_ids)(0, null_mut(), &mut count),
            "clGetPlatformIDs",
        )?;
        let mut platforms = vec![null_mut(); count as usize];
        check(
            (api.get_platform_ids)(count, platforms.as_mut_ptr(), null_mut()),
            "clGetPlatformIDs",
        )?;
        Ok(platforms)
    }
}

fn platform_name(api: &Api, p: Handle) -> String {
    // SAFETY: a platform the loader returned.
    info_string(|n, v, r| unsafe { (api.get_platform_info)(p, CL_PLATFORM_NAME, n, v, r) })
}

impl Api {
    // Each symbol is transmuted to the type of the field it initializes.
    #[allow(clippy::missing_transmute_annotations)]
    fn load() -> Result<Api> {
        // SAFETY: dlopen/dlsym with NUL-terminated names; each symbol is
        // transmuted to the signature the OpenCL 1.2 headers give it.
        unsafe {
            let lib = libc::dlopen(
                c"libOpenCL.so.1".as_ptr(),
                libc::RTLD_NOW | libc::RTLD_LOCAL,
            );
            if lib.is_null() {
                bail!(
                    "cannot load libOpenCL.so.1 (install ocl-icd-libopencl1 and pocl-opencl-icd)"
                );
            }
            macro_rules! sym {
                ($name:literal) => {{
                    let s = libc::dlsym(lib, concat!($name, "\0").as_ptr() as *const c_char);
                    if s.is_null() {
                        bail!("libOpenCL.so.1 has no {}", $name);
                    }
                    std::mem::transmute::<*mut c_void, _>(s)
                }};
            }
            Ok(Api {
                get_platform_ids: sym!("clGetPlatformIDs"),
                get_platform_info: sym!("clGetPlatformInfo"),
                get_device_ids: sym!("clGetDeviceIDs"),
                get_device_info: sym!("clGetDeviceInfo"),
                create_context: sym!("clCreateContext"),
                create_command_queue: sym!("clCreateCommandQueue"),
                create_program_with_source: sym!("clCreateProgramWithSource"),
                build_program: sym!("clBuildProgram"),
                get_program_build_info: sym!("clGetProgramBuildInfo"),
                create_kernel: sym!("clCreateKernel"),
                set_kernel_arg: sym!("clSetKernelArg"),
                create_buffer: sym!("clCreateBuffer"),
                enqueue_write_buffer: sym!("clEnqueueWriteBuffer"),
                enqueue_read_buffer: sym!("clEnqueueReadBuffer"),
                enqueue_nd_range_kernel: sym!("clEnqueueNDRangeKernel"),
                finish: sym!("clFinish"),
                release_mem_object: sym!("clReleaseMemObject"),
                release_kernel: sym!("clReleaseKernel"),
                release_program: sym!("clReleaseProgram"),
                create_image: sym!("clCreateImage"),
                enqueue_write_image: sym!("clEnqueueWriteImage"),
                enqueue_read_image: sym!("clEnqueueReadImage"),
            })
        }
    }
}

/// An OpenCL device with a context and an in-order queue.
pub struct Device {
    api: Api,
    device: Handle,
    context: Handle,
    queue: Handle,
    pub platform_name: String,
    pub device_name: String,
}

/// A device buffer.
pub struct Mem<'d> {
    dev: &'d Device,
    handle: Handle,
    pub bytes: usize,
    /// An image's extent (width, height, depth); `None`: a buffer.
    image: Option<[usize; 3]>,
}

/// A built program.
pub struct ClProgram<'d> {
    dev: &'d Device,
    handle: Handle,
}

/// A kernel object.
pub struct ClKernel<'d> {
    dev: &'d Device,
    handle: Handle,
}

/// One kernel argument.
pub enum ClArg<'a> {
    Mem(&'a Mem<'a>),
    Bytes(&'a [u8]),
    Local(usize),
}

fn info_string(f: impl Fn(usize, *mut c_void, *mut usize) -> i32) -> String {
    let mut len = 0usize;
    if f(0, null_mut(), &mut len) != 0 {
        return String::new();
    }
    let mut buf = vec![0u8; len];
    if f(len, buf.as_mut_ptr() as *mut c_void, null_mut()) != 0 {
        return String::new();
    }
    CStr::from_bytes_until_nul(&buf)
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

impl Device {
    /// The first CPU device of the first platform called `platform` (or
    /// whose name starts with it) that has one; `hint` says how to get the
    /// platform when there is none.
    pub fn open(platform: &str, hint: &str) -> Result<Device> {
        let api = Api::load()?;
        let mut names = Vec::new();
        for p in platforms(&api)? {
            let name = platform_name(&api, p);
            if !name.starts_with(platform) {
                names.push(name);
                continue;
            }
            // SAFETY: OpenCL calls with valid out-pointers and sizes.
            unsafe {
                let mut device = null_mut();
                let mut count = 0u32;
                if (api.get_device_ids)(p, CL_DEVICE_TYPE_CPU, 1, &mut device, &mut count) != 0
                    || count == 0
                {
                    names.push(format!("{name} (no CPU device)"));
                    continue;
                }
                let device_name =
                    info_string(|n, v, r| (api.get_device_info)(device, CL_DEVICE_NAME, n, v, r));
                let mut err = 0;
                let context =
                    (api.create_context)(null(), 1, &device, null(), null_mut(), &mut err);
                check(err, "clCreateContext")?;
                let queue = (api.create_command_queue)(context, device, 0, &mut err);
                check(err, "clCreateCommandQueue")?;
                return Ok(Device {
                    api,
                    device,
                    context,
                    queue,
                    platform_name: name,
                    device_name,
                });
            }
        }
        bail!("no OpenCL platform named '{platform}' with a CPU device (found: {names:?}); {hint}")
    }

    /// Whether the device reports `name`: an extension
    /// (`CL_DEVICE_EXTENSIONS`) or, for `__opencl_c_*`, an OpenCL C
    /// feature (`CL_DEVICE_OPENCL_C_FEATURES`).
    pub fn supports(&self, name: &str) -> bool {
        const CL_DEVICE_EXTENSIONS: u32 = 0x1030;
        const CL_DEVICE_OPENCL_C_FEATURES: u32 = 0x106F;
        // SAFETY: OpenCL calls with valid out-pointers and sizes.
        unsafe {
            if name == "images" {
                let mut yes = 0u32;
                let got = (self.api.get_device_info)(
                    self.device,
                    CL_DEVICE_IMAGE_SUPPORT,
                    4,
                    &mut yes as *mut u32 as *mut c_void,
                    null_mut(),
                );
                return got == 0 && yes != 0;
            }
            if !name.starts_with("__opencl_c_") {
                let exts = info_string(|n, v, r| {
                    (self.api.get_device_info)(self.device, CL_DEVICE_EXTENSIONS, n, v, r)
                });
                return exts.split_whitespace().any(|e| e == name);
            }
            // An array of cl_name_version: a version (u32), then a name of
            // 64 bytes.
            let mut len = 0usize;
            let get = self.api.get_device_info;
            if get(
                self.device,
                CL_DEVICE_OPENCL_C_FEATURES,
                0,
                null_mut(),
                &mut len,
            ) != 0
            {
                return false;
            }
            let mut buf = vec![0u8; len];
            if get(
                self.device,
                CL_DEVICE_OPENCL_C_FEATURES,
                len,
                buf.as_mut_ptr() as *mut c_void,
                null_mut(),
            ) != 0
            {
                return false;
            }
            buf.chunks(68).any(|entry| {
                CStr::from_bytes_until_nul(&entry[4..])
                    .is_ok_and(|s| s.to_bytes() == name.as_bytes())
            })
        }
    }

    /// Builds `source` with `options`; the build log is in the error.
    pub fn build(&self, source: &str, options: &str) -> Result<ClProgram<'_>> {
        let src = CString::new(source)?;
        let opts = CString::new(options)?;
        // SAFETY: valid strings and handles.
        unsafe {
            let mut err = 0;
            let ptr = src.as_ptr();
            let handle =
                (self.api.create_program_with_source)(self.context, 1, &ptr, null(), &mut err);
            check(err, "clCreateProgramWithSource")?;
            let program = ClProgram { dev: self, handle };
            let code = (self.api.build_program)(
                handle,
                1,
                &self.device,
                opts.as_ptr(),
                null(),
                null_mut(),
            );
            if code != 0 {
                let log = info_string(|n, v, r| {
                    (self.api.get_program_build_info)(
                        handle,
                        self.device,
                        CL_PROGRAM_BUILD_LOG,
                        n,
                        v,
                        r,
                    )
                });
                bail!("clBuildProgram failed ({code}):\n{log}");
            }
            Ok(program)
        }
    }

    /// A buffer holding a copy of `data`.
    pub fn buffer(&self, data: &[u8]) -> Result<Mem<'_>> {
        // SAFETY: a buffer of data.len() bytes, then a blocking write.
        unsafe {
            let mut err = 0;
            let handle = (self.api.create_buffer)(
                self.context,
                CL_MEM_READ_WRITE,
                data.len().max(1),
                null_mut(),
                &mut err,
            );
            check(err, "clCreateBuffer")?;
            let mem = Mem {
                dev: self,
                handle,
                bytes: data.len(),
                image: None,
            };
            mem.write(data)?;
            Ok(mem)
        }
    }

    /// A 2D image of RGBA floats, `width` x `height`, holding a copy of
    /// `data` (its texels, rows tightly packed).
    pub fn image(&self, data: &[u8], width: usize, height: usize) -> Result<Mem<'_>> {
        anyhow::ensure!(
            data.len() == width * height * 16,
            "image data of the wrong size"
        );
        let format = ImageFormat {
            order: CL_RGBA,
            data_type: CL_FLOAT,
        };
        let desc = ImageDesc {
            image_type: CL_MEM_OBJECT_IMAGE2D,
            width,
            height,
            depth: 1,
            array_size: 1,
            row_pitch: 0,
            slice_pitch: 0,
            num_mip_levels: 0,
            num_samples: 0,
            buffer: null_mut(),
        };
        // SAFETY: valid format and description, no host pointer.
        unsafe {
            let mut err = 0;
            let handle = (self.api.create_image)(
                self.context,
                CL_MEM_READ_WRITE,
                &format,
                &desc,
                null_mut(),
                &mut err,
            );
            check(err, "clCreateImage")?;
            let mem = Mem {
                dev: self,
                handle,
                bytes: data.len(),
                image: Some([width, height, 1]),
            };
            mem.write(data)?;
            Ok(mem)
        }
    }

    /// Runs `kernel` over `global` (with `local`) without waiting.
    pub fn enqueue(&self, kernel: &ClKernel, global: &[usize], local: &[usize]) -> Result<()> {
        // SAFETY: sizes have `global.len()` entries.
        unsafe {
            check(
                (self.api.enqueue_nd_range_kernel)(
                    self.queue,
                    kernel.handle,
                    global.len() as u32,
                    null(),
                    global.as_ptr(),
                    local.as_ptr(),
                    0,
                    null(),
                    null_mut(),
                ),
                "clEnqueueNDRangeKernel",
            )
        }
    }

    /// Waits for everything enqueued.
    pub fn finish(&self) -> Result<()> {
        // SAFETY: a valid queue.
        unsafe { check((self.api.finish)(self.queue), "clFinish") }
    }
}

impl<'d> ClProgram<'d> {
    pub fn kernel(&self, name: &str) -> Result<ClKernel<'d>> {
        let name_c = CString::new(name)?;
        let mut err = 0;
        // SAFETY: a built program and a NUL-terminated name.
        let handle =
            unsafe { (self.dev.api.create_kernel)(self.handle, name_c.as_ptr(), &mut err) };
        check(err, "clCreateKernel").with_context(|| format!("kernel {name}"))?;
        Ok(ClKernel {
            dev: self.dev,
            handle,
        })
    }
}

impl ClKernel<'_> {
    pub fn set_arg(&self, index: u32, arg: &ClArg) -> Result<()> {
        // SAFETY: the value pointer covers the size given.
        let code = unsafe {
            match arg {
                ClArg::Mem(m) => (self.dev.api.set_kernel_arg)(
                    self.handle,
                    index,
                    std::mem::size_of::<Handle>(),
                    &m.handle as *const Handle as *const c_void,
                ),
                ClArg::Bytes(b) => (self.dev.api.set_kernel_arg)(
                    self.handle,
                    index,
                    b.len(),
                    b.as_ptr() as *const c_void,
                ),
                ClArg::Local(n) => (self.dev.api.set_kernel_arg)(self.handle, index, *n, null()),
            }
        };
        check(code, "clSetKernelArg").with_context(|| format!("argument {index}"))
    }
}

impl Mem<'_> {
    /// Blocking write of `data` at the start of the buffer (all of an
    /// image's texels).
    pub fn write(&self, data: &[u8]) -> Result<()> {
        // SAFETY: data.len() <= the buffer's size (checked); an image's
        // region is all of it, data.len() its size.
        unsafe {
            anyhow::ensure!(data.len() <= self.bytes, "write larger than the buffer");
            if let Some(region) = self.image {
                anyhow::ensure!(data.len() == self.bytes, "partial image write");
                return check(
                    (self.dev.api.enqueue_write_image)(
                        self.dev.queue,
                        self.handle,
                        CL_TRUE,
                        [0usize; 3].as_ptr(),
                        region.as_ptr(),
                        0,
                        0,
                        data.as_ptr() as *const c_void,
                        0,
                        null(),
                        null_mut(),
                    ),
                    "clEnqueueWriteImage",
                );
            }
            check(
                (self.dev.api.enqueue_write_buffer)(
                    self.dev.queue,
                    self.handle,
                    CL_TRUE,
                    0,
                    data.len(),
                    data.as_ptr() as *const c_void,
                    0,
                    null(),
                    null_mut(),
                ),
                "clEnqueueWriteBuffer",
            )
        }
    }

    /// Blocking read of the whole buffer (all of an image's texels).
    pub fn read(&self) -> Result<Vec<u8>> {
        let mut out = vec![0u8; self.bytes];
        // SAFETY: `out` has the buffer's (the image's) size.
        unsafe {
            if let Some(region) = self.image {
                check(
                    (self.dev.api.enqueue_read_image)(
                        self.dev.queue,
                        self.handle,
                        CL_TRUE,
                        [0usize; 3].as_ptr(),
                        region.as_ptr(),
                        0,
                        0,
                        out.as_mut_ptr() as *mut c_void,
                        0,
                        null(),
                        null_mut(),
                    ),
                    "clEnqueueReadImage",
                )?;
                return Ok(out);
            }
            check(
                (self.dev.api.enqueue_read_buffer)(
                    self.dev.queue,
                    self.handle,
                    CL_TRUE,
                    0,
                    self.bytes,
                    out.as_mut_ptr() as *mut c_void,
                    0,
                    null(),
                    null_mut(),
                ),
                "clEnqueueReadBuffer",
            )?;
        }
        Ok(out)
    }
}

impl Drop for Mem<'_> {
    fn drop(&mut self) {
        // SAFETY: a buffer this value owns.
        unsafe { (self.dev.api.release_mem_object)(self.handle) };
    }
}

impl Drop for ClKernel<'_> {
    fn drop(&mut self) {
        // SAFETY: a kernel this value owns.
        unsafe { (self.dev.api.release_kernel)(self.handle) };
    }
}

impl Drop for ClProgram<'_> {
    fn drop(&mut self) {
        // SAFETY: a program this value owns.
        unsafe { (self.dev.api.release_program)(self.handle) };
    }
}
