//! The platform and its devices (the host CPU, and the sub-devices
//! partitioned from it: [`crate::device`]), and every query about them:
//! `clGetPlatformIDs`, `clGetPlatformInfo`, `clGetDeviceIDs`,
//! `clGetDeviceInfo`, and the ICD loader's entry points.
//!
//! Answers come from `lockstep_runtime::Device` (cores, SIMD width, local
//! memory, work-group limits) and the front end's list of supported
//! OpenCL C features, so they say what Lockstep really does.

#![allow(non_snake_case)]

use std::ffi::{c_char, c_void, CStr};
use std::sync::{Arc, OnceLock};

use lockstep_runtime::device_queues;
use lockstep_runtime::image::limits as image_limits;
use lockstep_runtime::{MAX_LOCAL_MEM_SIZE, MAX_WORK_GROUP_SIZE};

use crate::cl::*;
use crate::device::{self, Device};
use crate::handle::{self, status, ClType, Kind, Object};
use crate::info::{name_version, Info};

pub struct Platform;

impl ClType for Platform {
    const KIND: Kind = Kind::Platform;
    const INVALID: cl_int = CL_INVALID_PLATFORM;
}

pub const PLATFORM_NAME: &str = "Lockstep";
pub const VENDOR: &str = "The Lockstep project";
/// The suffix the ICD loader uses for this vendor's extension functions.
pub const ICD_SUFFIX: &str = "LOCKSTEP";
const DRIVER_VERSION: &str = env!("CARGO_PKG_VERSION");
const OPENCL_C_VERSION: &str = "OpenCL C 1.2 Lockstep";

/// The device's OpenCL version (the one its kernels see in
/// `__OPENCL_VERSION__`), as `CL_DEVICE_VERSION` spells it.
fn device_version() -> String {
    let (major, minor) = lockstep_frontend::features::OPENCL_VERSION;
    format!("OpenCL {major}.{minor} Lockstep")
}

/// The platform's OpenCL version, the device's (`CL_PLATFORM_VERSION`).
fn platform_version() -> String {
    let (major, minor) = lockstep_frontend::features::OPENCL_VERSION;
    format!("OpenCL {major}.{minor} Lockstep {DRIVER_VERSION}")
}

/// The device's OpenCL version as a `cl_version`.
fn numeric_version() -> u32 {
    let (major, minor) = lockstep_frontend::features::OPENCL_VERSION;
    make_version(major, minor, 0)
}

/// Platform extensions (the ones not about the device's compiler), which
/// the device reports too.
const PLATFORM_EXTENSIONS: &[&str] = &[
    "cl_khr_icd",
    "cl_khr_create_command_queue",
    "cl_khr_image2d_from_buffer",
    "cl_khr_suggested_local_work_size",
    "cl_khr_device_uuid",
    "cl_intel_required_subgroup_size",
];

/// The extensions whose version is not 1.0.0.
const EXTENSION_VERSIONS: &[(&str, (u32, u32, u32))] = &[("cl_khr_integer_dot_product", (2, 0, 0))];

/// The subgroup sizes a kernel can run with (its gang width;
/// `intel_reqd_sub_group_size` picks one).
pub const SUB_GROUP_SIZES: [usize; 4] = [4, 8, 16, 32];

/// A UUID (`cl_khr_device_uuid`) that names what `parts` say, the same in
/// every process and build: a 128-bit FNV-1a hash of them, with the RFC
/// 4122 version (8: custom) and variant bits set.
fn uuid(parts: &[&str]) -> [u8; CL_UUID_SIZE_KHR] {
    let mut h: u128 = 0x6c62272e07bb014262b821756295c58d;
    for part in parts {
        for &b in part.as_bytes().iter().chain(&[0]) {
            h ^= b as u128;
            h = h.wrapping_mul(0x0000000001000000000000000000013B);
        }
    }
    let mut bytes = h.to_be_bytes();
    bytes[6] = (bytes[6] & 0x0f) | 0x80;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    bytes
}

/// The device's extensions with their versions: the platform's, then those
/// the front end offers OpenCL C (`lockstep_frontend::features`, the list
/// clang's macros come from too), then those about SPIR-V alone.
fn extensions() -> Vec<(&'static str, cl_version)> {
    PLATFORM_EXTENSIONS
        .iter()
        .copied()
        .chain(lockstep_frontend::features::EXTENSIONS.iter().copied())
        .chain(lockstep_frontend::spirv::DEVICE_EXTENSIONS.iter().copied())
        .map(|name| {
            let (major, minor, patch) = EXTENSION_VERSIONS
                .iter()
                .find(|(n, _)| *n == name)
                .map_or((1, 0, 0), |&(_, v)| v);
            (name, make_version(major, minor, patch))
        })
        .collect()
}

/// The SPIR-V versions `clCreateProgramWithIL` takes (the front end
/// translates them with the Khronos SPIRV-LLVM-Translator).
const SPIRV_VERSIONS: &[(u32, u32)] = lockstep_frontend::spirv::VERSIONS;

/// `CL_DEVICE_IL_VERSION`: each version as `SPIR-V_<major>.<minor>`,
/// separated by spaces.
fn il_version() -> String {
    SPIRV_VERSIONS
        .iter()
        .map(|(major, minor)| format!("SPIR-V_{major}.{minor}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `list` as the array of `const char *` a `cl_khr_spirv_queries` query
/// answers with, its strings made once in `strings` and kept for the whole
/// process.
fn c_strings(
    strings: &'static OnceLock<Vec<std::ffi::CString>>,
    list: &[&str],
) -> Vec<*const std::ffi::c_char> {
    strings
        .get_or_init(|| {
            list.iter()
                .map(|s| std::ffi::CString::new(*s).expect("no NUL"))
                .collect()
        })
        .iter()
        .map(|s| s.as_ptr())
        .collect()
}

/// The OpenCL C optional features the front end offers (`__opencl_c_*`).
fn opencl_c_features() -> &'static [&'static str] {
    lockstep_frontend::features::FEATURES
}

fn extension_string() -> String {
    extensions()
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The platform object (lives for the whole process).
pub fn platform() -> &'static Arc<Object<Platform>> {
    static PLATFORM: OnceLock<Arc<Object<Platform>>> = OnceLock::new();
    PLATFORM.get_or_init(|| handle::create(Platform))
}

pub fn platform_handle() -> cl_platform_id {
    handle::handle(platform())
}

/// The runtime context of the platform, with the LLVM toolchain: programs
/// are built in it, the device is described from it, and each OpenCL
/// context runs its kernels in a clone of it.
///
/// `LOCKSTEP_CHECK` runs every kernel checked, its reports on stderr
/// (Oclgrind's `oclgrind ./app`, without changing the program): `1` on the
/// SIMD engine (bad accesses, at full speed), `full` on the interpreter
/// (also data races and uninitialized memory, much slower).
/// `LOCKSTEP_CHECK_ABORT=1` stops the process at the first report.
pub fn runtime() -> &'static lockstep_runtime::Context {
    static RUNTIME: OnceLock<lockstep_runtime::Context> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        let mut ctx = lockstep_llvm::context();
        match std::env::var("LOCKSTEP_CHECK").as_deref() {
            Ok("full") => {
                ctx = ctx.with_engine(lockstep_runtime::Engine::Interpreter);
                ctx.set_checked(true);
                eprintln!("Lockstep: LOCKSTEP_CHECK=full: every kernel runs checked on the interpreter (out-of-bounds and misaligned accesses, read-only and write-only buffers, data races, uninitialized values, barrier divergence)");
            }
            Ok("") | Ok("0") | Err(_) => {}
            Ok(_) => {
                ctx.set_checked(true);
                eprintln!(
                    "Lockstep: LOCKSTEP_CHECK: every kernel runs checked; {}",
                    lockstep_runtime::SIMD_CHECK_SCOPE
                );
            }
        }
        ctx
    })
}

/// The SIMD width kernels run at (work-items per gang).
pub fn simd_width() -> u32 {
    runtime().width()
}

/// Accepts NULL (the platform, as ICD loaders allow) or the platform.
fn check_platform(p: cl_platform_id) -> Result<(), cl_int> {
    if p.is_null() {
        return Ok(());
    }
    handle::get::<Platform>(p).map(|_| ())
}

/// Validates a device handle: the root device or a live sub-device.
pub fn check_device(d: cl_device_id) -> Result<(), cl_int> {
    device::get(d).map(|_| ())
}

/// Exported: the loader's way in (`cl_khr_icd`).
#[no_mangle]
pub unsafe extern "C" fn clIcdGetPlatformIDsKHR(
    num_entries: cl_uint,
    platforms: *mut cl_platform_id,
    num_platforms: *mut cl_uint,
) -> cl_int {
    clGetPlatformIDs(num_entries, platforms, num_platforms)
}

/// `clIcdGetPlatformIDsKHR` for [`get_extension_function_address`].
unsafe extern "C" fn icd_get_platform_ids(
    num_entries: cl_uint,
    platforms: *mut cl_platform_id,
    num_platforms: *mut cl_uint,
) -> cl_int {
    clGetPlatformIDs(num_entries, platforms, num_platforms)
}

pub unsafe extern "C" fn clGetPlatformIDs(
    num_entries: cl_uint,
    platforms: *mut cl_platform_id,
    num_platforms: *mut cl_uint,
) -> cl_int {
    status(|| {
        if (num_entries == 0 && !platforms.is_null())
            || (platforms.is_null() && num_platforms.is_null())
        {
            return Err(CL_INVALID_VALUE);
        }
        if !platforms.is_null() {
            *platforms = platform_handle();
        }
        if !num_platforms.is_null() {
            *num_platforms = 1;
        }
        Ok(())
    })
}

/// Exported too: the loader asks the suffix before it uses the table. The
/// table points to [`get_platform_info`]: inside this library an exported
/// name could resolve to the loader's function of the same name.
#[no_mangle]
pub unsafe extern "C" fn clGetPlatformInfo(
    platform_id: cl_platform_id,
    param_name: cl_platform_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    get_platform_info(platform_id, param_name, size, value, size_ret)
}

pub unsafe extern "C" fn get_platform_info(
    platform_id: cl_platform_id,
    param_name: cl_platform_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    status(|| {
        check_platform(platform_id)?;
        let info = match param_name {
            CL_PLATFORM_PROFILE => Info::string("FULL_PROFILE"),
            CL_PLATFORM_VERSION => Info::string(&platform_version()),
            CL_PLATFORM_NUMERIC_VERSION => Info::from(numeric_version()),
            CL_PLATFORM_NAME => Info::string(PLATFORM_NAME),
            CL_PLATFORM_VENDOR => Info::string(VENDOR),
            CL_PLATFORM_EXTENSIONS => Info::string(&PLATFORM_EXTENSIONS.join(" ")),
            CL_PLATFORM_EXTENSIONS_WITH_VERSION => Info::list(
                &PLATFORM_EXTENSIONS
                    .iter()
                    .map(|name| name_version(name, make_version(1, 0, 0)))
                    .collect::<Vec<_>>(),
            ),
            CL_PLATFORM_HOST_TIMER_RESOLUTION => Info::from(crate::queue::clock_resolution_ns()),
            CL_PLATFORM_ICD_SUFFIX_KHR => Info::string(ICD_SUFFIX),
            _ => return Err(CL_INVALID_VALUE),
        };
        match info.write(size, value, size_ret) {
            CL_SUCCESS => Ok(()),
            e => Err(e),
        }
    })
}

pub unsafe extern "C" fn clGetDeviceIDs(
    platform_id: cl_platform_id,
    device_type: cl_device_type,
    num_entries: cl_uint,
    devices: *mut cl_device_id,
    num_devices: *mut cl_uint,
) -> cl_int {
    status(|| {
        check_platform(platform_id)?;
        const KNOWN: cl_device_type = CL_DEVICE_TYPE_DEFAULT
            | CL_DEVICE_TYPE_CPU
            | CL_DEVICE_TYPE_GPU
            | CL_DEVICE_TYPE_ACCELERATOR
            | CL_DEVICE_TYPE_CUSTOM;
        if device_type != CL_DEVICE_TYPE_ALL && (device_type & !KNOWN != 0 || device_type == 0) {
            return Err(CL_INVALID_DEVICE_TYPE);
        }
        if (num_entries == 0 && !devices.is_null()) || (devices.is_null() && num_devices.is_null())
        {
            return Err(CL_INVALID_VALUE);
        }
        let matches = device_type == CL_DEVICE_TYPE_ALL
            || device_type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT) != 0;
        if !matches {
            return Err(CL_DEVICE_NOT_FOUND);
        }
        if !devices.is_null() {
            *devices = device::root_handle();
        }
        if !num_devices.is_null() {
            *num_devices = 1;
        }
        Ok(())
    })
}

/// Memory this process can count on, from `/proc/meminfo` (bytes).
fn total_memory() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("MemTotal:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map_or(4 << 30, |kb| kb * 1024)
}

/// The largest buffer `clCreateBuffer` accepts.
pub fn max_mem_alloc_size() -> u64 {
    (total_memory() / 4).max(128 << 20)
}

pub unsafe extern "C" fn clGetDeviceInfo(
    device_id: cl_device_id,
    param_name: cl_device_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    status(|| {
        let d = device::get(device_id)?;
        let info = device_info(&d, param_name)?;
        match info.write(size, value, size_ret) {
            CL_SUCCESS => Ok(()),
            e => Err(e),
        }
    })
}

fn device_info(d: &Object<Device>, param: cl_device_info) -> Result<Info, cl_int> {
    let host = runtime().device();
    let width = simd_width();
    let fp_config: cl_device_fp_config = CL_FP_DENORM
        | CL_FP_INF_NAN
        | CL_FP_ROUND_TO_NEAREST
        | CL_FP_ROUND_TO_ZERO
        | CL_FP_ROUND_TO_INF
        | CL_FP_FMA
        | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT;
    let double_config: cl_device_fp_config = CL_FP_DENORM
        | CL_FP_INF_NAN
        | CL_FP_ROUND_TO_NEAREST
        | CL_FP_ROUND_TO_ZERO
        | CL_FP_ROUND_TO_INF
        | CL_FP_FMA;
    // Vector widths: how many elements of each type fill one SIMD register
    // of the host (`width` 32-bit lanes).
    let lanes = |bytes: u32| (width * 4 / bytes).max(1);
    let version_3 = make_version(3, 0, 0);
    Ok(match param {
        CL_DEVICE_TYPE => Info::from(CL_DEVICE_TYPE_CPU),
        CL_DEVICE_VENDOR_ID => Info::from(0u32),
        CL_DEVICE_MAX_COMPUTE_UNITS => Info::from(d.compute_units()),
        CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS => Info::from(3u32),
        CL_DEVICE_MAX_WORK_ITEM_SIZES => Info::list(&[MAX_WORK_GROUP_SIZE as usize; 3]),
        CL_DEVICE_MAX_WORK_GROUP_SIZE => Info::from(MAX_WORK_GROUP_SIZE as usize),
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR | CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR => {
            Info::from(lanes(1))
        }
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT | CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT => {
            Info::from(lanes(2))
        }
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT | CL_DEVICE_NATIVE_VECTOR_WIDTH_INT => {
            Info::from(lanes(4))
        }
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG | CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG => {
            Info::from(lanes(8))
        }
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT | CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT => {
            Info::from(lanes(4))
        }
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE | CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE => {
            Info::from(lanes(8))
        }
        // No cl_khr_fp16.
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF | CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF => {
            Info::from(0u32)
        }
        CL_DEVICE_MAX_CLOCK_FREQUENCY => Info::from(cpu_mhz()),
        CL_DEVICE_ADDRESS_BITS => Info::from(64u32),
        CL_DEVICE_MAX_READ_IMAGE_ARGS => Info::from(image_limits::MAX_READ_IMAGE_ARGS),
        CL_DEVICE_MAX_WRITE_IMAGE_ARGS => Info::from(image_limits::MAX_WRITE_IMAGE_ARGS),
        CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS => Info::from(image_limits::MAX_READ_WRITE_IMAGE_ARGS),
        CL_DEVICE_MAX_SAMPLERS => Info::from(image_limits::MAX_SAMPLERS),
        CL_DEVICE_IMAGE_PITCH_ALIGNMENT => Info::from(image_limits::IMAGE_PITCH_ALIGNMENT),
        CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT => {
            Info::from(image_limits::IMAGE_BASE_ADDRESS_ALIGNMENT)
        }
        CL_DEVICE_MAX_MEM_ALLOC_SIZE => Info::from(max_mem_alloc_size()),
        CL_DEVICE_IMAGE2D_MAX_WIDTH => Info::from(image_limits::IMAGE2D_MAX_WIDTH),
        CL_DEVICE_IMAGE2D_MAX_HEIGHT => Info::from(image_limits::IMAGE2D_MAX_HEIGHT),
        CL_DEVICE_IMAGE3D_MAX_WIDTH => Info::from(image_limits::IMAGE3D_MAX_WIDTH),
        CL_DEVICE_IMAGE3D_MAX_HEIGHT => Info::from(image_limits::IMAGE3D_MAX_HEIGHT),
        CL_DEVICE_IMAGE3D_MAX_DEPTH => Info::from(image_limits::IMAGE3D_MAX_DEPTH),
        CL_DEVICE_IMAGE_MAX_BUFFER_SIZE => Info::from(image_limits::IMAGE_MAX_BUFFER_SIZE),
        CL_DEVICE_IMAGE_MAX_ARRAY_SIZE => Info::from(image_limits::IMAGE_MAX_ARRAY_SIZE),
        CL_DEVICE_IMAGE_SUPPORT => Info::bool(lockstep_frontend::features::IMAGE_SUPPORT),
        CL_DEVICE_MAX_PARAMETER_SIZE => Info::from(1024usize),
        CL_DEVICE_MEM_BASE_ADDR_ALIGN => Info::from(lockstep_runtime::BUFFER_ALIGN as u32 * 8),
        CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE => Info::from(128u32),
        CL_DEVICE_SINGLE_FP_CONFIG => Info::from(fp_config),
        CL_DEVICE_DOUBLE_FP_CONFIG => Info::from(double_config),
        CL_DEVICE_HALF_FP_CONFIG => Info::from(0u64),
        CL_DEVICE_GLOBAL_MEM_CACHE_TYPE => Info::from(CL_READ_WRITE_CACHE),
        CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE => Info::from(64u32),
        CL_DEVICE_GLOBAL_MEM_CACHE_SIZE => Info::from(1u64 << 20),
        CL_DEVICE_GLOBAL_MEM_SIZE => Info::from(total_memory()),
        CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE => Info::from(max_mem_alloc_size()),
        CL_DEVICE_MAX_CONSTANT_ARGS => Info::from(64u32),
        CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE => Info::from(64usize << 10),
        CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE => Info::from(64usize << 10),
        CL_DEVICE_LOCAL_MEM_TYPE => Info::from(CL_GLOBAL),
        CL_DEVICE_LOCAL_MEM_SIZE => Info::from(MAX_LOCAL_MEM_SIZE),
        CL_DEVICE_ERROR_CORRECTION_SUPPORT => Info::bool(false),
        CL_DEVICE_HOST_UNIFIED_MEMORY => Info::bool(true),
        CL_DEVICE_PROFILING_TIMER_RESOLUTION => {
            Info::from(crate::queue::clock_resolution_ns() as usize)
        }
        CL_DEVICE_ENDIAN_LITTLE => Info::bool(cfg!(target_endian = "little")),
        CL_DEVICE_AVAILABLE | CL_DEVICE_COMPILER_AVAILABLE | CL_DEVICE_LINKER_AVAILABLE => {
            Info::bool(true)
        }
        CL_DEVICE_EXECUTION_CAPABILITIES => Info::from(CL_EXEC_KERNEL),
        CL_DEVICE_QUEUE_ON_HOST_PROPERTIES => {
            Info::from(CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
        }
        // Device queues: lockstep_runtime::device_queues.
        CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES => {
            Info::from(CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
        }
        CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE => {
            Info::from(device_queues::QUEUE_ON_DEVICE_PREFERRED_SIZE)
        }
        CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE => Info::from(device_queues::QUEUE_ON_DEVICE_MAX_SIZE),
        CL_DEVICE_MAX_ON_DEVICE_QUEUES => Info::from(device_queues::MAX_ON_DEVICE_QUEUES),
        CL_DEVICE_MAX_ON_DEVICE_EVENTS => Info::from(device_queues::MAX_ON_DEVICE_EVENTS),
        CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT
        | CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT
        | CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT => Info::from(0u32),
        CL_DEVICE_BUILT_IN_KERNELS => Info::string(""),
        CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION => Info::empty(),
        CL_DEVICE_PLATFORM => Info::ptr(platform_handle()),
        CL_DEVICE_NAME => Info::string(&format!("Lockstep CPU ({})", host.cpu_model)),
        CL_DEVICE_VENDOR => Info::string(VENDOR),
        CL_DRIVER_VERSION => Info::string(DRIVER_VERSION),
        CL_DEVICE_PROFILE => Info::string("FULL_PROFILE"),
        CL_DEVICE_VERSION => Info::string(&device_version()),
        CL_DEVICE_NUMERIC_VERSION => Info::from(numeric_version()),
        CL_DEVICE_OPENCL_C_VERSION => Info::string(OPENCL_C_VERSION),
        CL_DEVICE_OPENCL_C_ALL_VERSIONS => Info::list(&[
            name_version("OpenCL C", make_version(1, 0, 0)),
            name_version("OpenCL C", make_version(1, 1, 0)),
            name_version("OpenCL C", make_version(1, 2, 0)),
            name_version("OpenCL C", version_3),
            name_version("OpenCL C", make_version(3, 1, 0)),
        ]),
        CL_DEVICE_OPENCL_C_FEATURES => Info::list(
            &opencl_c_features()
                .iter()
                .map(|f| name_version(f, version_3))
                .collect::<Vec<_>>(),
        ),
        CL_DEVICE_EXTENSIONS => Info::string(&extension_string()),
        CL_DEVICE_EXTENSIONS_WITH_VERSION => Info::list(
            &extensions()
                .iter()
                .map(|(n, v)| name_version(n, *v))
                .collect::<Vec<_>>(),
        ),
        CL_DEVICE_ILS_WITH_VERSION => Info::list(
            &SPIRV_VERSIONS
                .iter()
                .map(|&(major, minor)| name_version("SPIR-V", make_version(major, minor, 0)))
                .collect::<Vec<_>>(),
        ),
        CL_DEVICE_IL_VERSION => Info::string(&il_version()),
        CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR => {
            static SETS: OnceLock<Vec<std::ffi::CString>> = OnceLock::new();
            Info::list(&c_strings(
                &SETS,
                lockstep_frontend::spirv::EXTENDED_INSTRUCTION_SETS,
            ))
        }
        CL_DEVICE_SPIRV_EXTENSIONS_KHR => {
            static EXTENSIONS: OnceLock<Vec<std::ffi::CString>> = OnceLock::new();
            Info::list(&c_strings(
                &EXTENSIONS,
                lockstep_frontend::spirv::EXTENSIONS,
            ))
        }
        CL_DEVICE_SPIRV_CAPABILITIES_KHR => Info::list(
            &lockstep_frontend::spirv::CAPABILITIES
                .iter()
                .map(|&(number, _)| number)
                .collect::<Vec<cl_uint>>(),
        ),
        CL_DEVICE_PRINTF_BUFFER_SIZE => Info::from(1usize << 20),
        CL_DEVICE_PREFERRED_INTEROP_USER_SYNC => Info::bool(true),
        CL_DEVICE_PARENT_DEVICE => Info::ptr(d.parent()),
        CL_DEVICE_PARTITION_MAX_SUB_DEVICES => Info::from(d.max_sub_devices()),
        CL_DEVICE_PARTITION_PROPERTIES => Info::list(&d.partition_properties()),
        CL_DEVICE_PARTITION_AFFINITY_DOMAIN => Info::from(d.affinity_domains()),
        // Empty for the root device.
        CL_DEVICE_PARTITION_TYPE => Info::list(d.partition_type()),
        CL_DEVICE_REFERENCE_COUNT => Info::from(Device::reference_count(d)),
        CL_DEVICE_SVM_CAPABILITIES => Info::from(crate::svm::CAPABILITIES),
        // A subgroup is a gang; a work-group of the largest size in gangs
        // of the smallest width.
        CL_DEVICE_MAX_NUM_SUB_GROUPS => Info::from(
            (lockstep_runtime::MAX_WORK_GROUP_SIZE as usize).div_ceil(SUB_GROUP_SIZES[0]) as u32,
        ),
        CL_DEVICE_SUB_GROUP_SIZES_INTEL => Info::list(&SUB_GROUP_SIZES),
        // The gangs of a work-group run one after another between
        // barriers: one that waits for another without a barrier waits
        // forever.
        CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS => Info::bool(false),
        CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES | CL_DEVICE_ATOMIC_FENCE_CAPABILITIES => Info::from(
            CL_DEVICE_ATOMIC_ORDER_RELAXED
                | CL_DEVICE_ATOMIC_ORDER_ACQ_REL
                | CL_DEVICE_ATOMIC_ORDER_SEQ_CST
                | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM
                | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP
                | CL_DEVICE_ATOMIC_SCOPE_DEVICE
                | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES,
        ),
        CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT => Info::bool(true),
        CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT => Info::bool(true),
        CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT => Info::bool(true),
        // The builtin library's dot products are plain integer arithmetic
        // (vectorized across work-items like any other): not accelerated.
        CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR => Info::from(
            CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4X8BIT_PACKED_KHR
                | CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4X8BIT_KHR,
        ),
        CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR
        | CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4X8BIT_PACKED_KHR => {
            Info::list(&[CL_FALSE; 6])
        }
        CL_DEVICE_UUID_KHR => Info::list(&uuid(&["Lockstep device", &host.cpu_model])),
        CL_DRIVER_UUID_KHR => Info::list(&uuid(&["Lockstep driver", DRIVER_VERSION])),
        // LUIDs identify devices to Direct3D (Windows) only.
        CL_DEVICE_LUID_VALID_KHR => Info::bool(false),
        CL_DEVICE_LUID_KHR => Info::list(&[0u8; CL_LUID_SIZE_KHR]),
        CL_DEVICE_NODE_MASK_KHR => Info::from(0u32),
        CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES => {
            Info::from(CL_DEVICE_QUEUE_SUPPORTED | CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT)
        }
        CL_DEVICE_PIPE_SUPPORT => Info::bool(true),
        CL_DEVICE_MAX_PIPE_ARGS => Info::from(crate::pipe::MAX_PIPE_ARGS),
        CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS => Info::from(crate::pipe::MAX_ACTIVE_RESERVATIONS),
        CL_DEVICE_PIPE_MAX_PACKET_SIZE => Info::from(crate::pipe::MAX_PACKET_SIZE),
        CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE => Info::from(width as usize),
        CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED => Info::string("v0000-01-01-00"),
        _ => return Err(CL_INVALID_VALUE),
    })
}

/// The CPU's clock in MHz, from `/proc/cpuinfo` (0 when unknown).
fn cpu_mhz() -> cl_uint {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("cpu MHz"))
                .and_then(|l| l.split(':').nth(1))
                .and_then(|v| v.trim().parse::<f64>().ok())
        })
        .map_or(0, |mhz| mhz as cl_uint)
}

pub unsafe extern "C" fn clUnloadCompiler() -> cl_int {
    CL_SUCCESS
}

pub unsafe extern "C" fn clUnloadPlatformCompiler(platform_id: cl_platform_id) -> cl_int {
    status(|| {
        if platform_id.is_null() {
            return Err(CL_INVALID_PLATFORM);
        }
        check_platform(platform_id)
    })
}

pub unsafe extern "C" fn clGetHostTimer(
    device_id: cl_device_id,
    host_timestamp: *mut cl_ulong,
) -> cl_int {
    status(|| {
        check_device(device_id)?;
        if host_timestamp.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        *host_timestamp = crate::queue::now_ns();
        Ok(())
    })
}

pub unsafe extern "C" fn clGetDeviceAndHostTimer(
    device_id: cl_device_id,
    device_timestamp: *mut cl_ulong,
    host_timestamp: *mut cl_ulong,
) -> cl_int {
    status(|| {
        check_device(device_id)?;
        if host_timestamp.is_null() || device_timestamp.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let now = crate::queue::now_ns();
        *host_timestamp = now;
        *device_timestamp = now;
        Ok(())
    })
}

/// Exported: extension functions by name: the loader's own
/// (`clIcdGetPlatformIDsKHR`), `cl_khr_suggested_local_work_size`'s,
/// `cl_khr_create_command_queue`'s and the subgroup query's.
#[no_mangle]
pub unsafe extern "C" fn clGetExtensionFunctionAddress(name: *const c_char) -> *mut c_void {
    get_extension_function_address(name)
}

#[no_mangle]
pub unsafe extern "C" fn clGetExtensionFunctionAddressForPlatform(
    platform_id: cl_platform_id,
    name: *const c_char,
) -> *mut c_void {
    get_extension_function_address_for_platform(platform_id, name)
}

pub unsafe extern "C" fn get_extension_function_address(name: *const c_char) -> *mut c_void {
    if name.is_null() {
        return std::ptr::null_mut();
    }
    match CStr::from_ptr(name).to_bytes() {
        b"clIcdGetPlatformIDsKHR" => icd_get_platform_ids as *mut c_void,
        b"clGetPlatformInfo" => get_platform_info as *mut c_void,
        b"clGetKernelSuggestedLocalWorkSizeKHR" => {
            crate::kernel::clGetKernelSuggestedLocalWorkSizeKHR as *mut c_void
        }
        b"clGetKernelSubGroupInfoKHR" => crate::kernel::clGetKernelSubGroupInfo as *mut c_void,
        b"clCreateCommandQueueWithPropertiesKHR" => {
            crate::queue::clCreateCommandQueueWithProperties as *mut c_void
        }
        _ => std::ptr::null_mut(),
    }
}

pub unsafe extern "C" fn get_extension_function_address_for_platform(
    platform_id: cl_platform_id,
    name: *const c_char,
) -> *mut c_void {
    if check_platform(platform_id).is_err() {
        return std::ptr::null_mut();
    }
    get_extension_function_address(name)
}
