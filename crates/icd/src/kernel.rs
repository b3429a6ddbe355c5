//! Kernels: creation, arguments by index, argument and work-group info, and
//! `clEnqueueNDRangeKernel` (with the work-group size Lockstep picks when
//! the application gives none).

#![allow(non_snake_case)]

use std::ffi::{c_char, c_void, CStr};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, Weak};

use lockstep_runtime::{ArgKind, ArgMeta, ArgValue, LaunchError, NDRange, MAX_WORK_GROUP_SIZE};

use crate::cl::*;
use crate::handle::{self, creator, status, ClType, Kind, Object, Retained};
use crate::info::Info;
use crate::memory;
use crate::platform;
use crate::program::{self, Program};
use crate::queue::{self, wait_list, Enqueue};

pub struct Kernel {
    pub program: Retained<Program>,
    name: String,
    args: Vec<ArgMeta>,
    state: Mutex<KernelState>,
    /// Local sizes must divide global sizes (OpenCL C 1.x programs).
    uniform_groups: bool,
}

#[derive(Clone)]
struct KernelState {
    runtime: lockstep_runtime::Kernel,
    set: Vec<bool>,
    /// Bytes of `__local` memory in arguments.
    local_bytes: Vec<u64>,
    /// The memory object of each buffer argument (not kept alive by the
    /// kernel, as the spec asks; an enqueue keeps those still alive until
    /// its command has run).
    mems: Vec<Option<Weak<Object<memory::Mem>>>>,
    /// SVM memory the kernel may reach other than through its arguments
    /// (`CL_KERNEL_EXEC_INFO_SVM_PTRS`), and whether it may use any host
    /// memory (`CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM`). Every
    /// kernel sees all host memory, so these only travel with clones.
    svm_ptrs: Vec<usize>,
    fine_grain_system: bool,
}

impl ClType for Kernel {
    const KIND: Kind = Kind::Kernel;
    const INVALID: cl_int = CL_INVALID_KERNEL;
}

impl Drop for Kernel {
    fn drop(&mut self) {
        self.program.kernels.fetch_sub(1, Ordering::SeqCst);
    }
}

fn new_kernel(p: &Arc<Object<Program>>, runtime: lockstep_runtime::Kernel) -> cl_kernel {
    let args = runtime.args().to_vec();
    let options = program::built_options(p);
    let uniform_groups = options
        .split_whitespace()
        .any(|w| w.starts_with("-cl-std=CL1") || w == "-cl-uniform-work-group-size");
    p.kernels.fetch_add(1, Ordering::SeqCst);
    let k = handle::create(Kernel {
        program: Retained::new(p),
        name: runtime.name().to_string(),
        state: Mutex::new(KernelState {
            runtime,
            set: vec![false; args.len()],
            local_bytes: vec![0; args.len()],
            mems: vec![None; args.len()],
            svm_ptrs: Vec::new(),
            fine_grain_system: false,
        }),
        args,
        uniform_groups,
    });
    handle::handle(&k)
}

pub fn get(kernel: cl_kernel) -> Result<Arc<Object<Kernel>>, cl_int> {
    handle::get::<Kernel>(kernel)
}

impl Kernel {
    fn lock(&self) -> std::sync::MutexGuard<'_, KernelState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sets argument `index` to `value` (with its bytes of `__local`
    /// memory and its memory object).
    fn bind(
        &self,
        index: usize,
        value: ArgValue,
        local: u64,
        mem_object: Option<Weak<Object<memory::Mem>>>,
    ) -> Result<(), cl_int> {
        let mut state = self.lock();
        state.runtime.set_arg(index, value).map_err(|e| match e {
            LaunchError::ArgIndex { .. } => CL_INVALID_ARG_INDEX,
            LaunchError::ArgKind { .. } => CL_INVALID_ARG_SIZE,
            _ => CL_INVALID_ARG_VALUE,
        })?;
        state.set[index] = true;
        state.local_bytes[index] = local;
        state.mems[index] = mem_object;
        Ok(())
    }
}

pub unsafe extern "C" fn clCreateKernel(
    program: cl_program,
    kernel_name: *const c_char,
    errcode_ret: *mut cl_int,
) -> cl_kernel {
    creator(errcode_ret, || {
        let p = program::get(program)?;
        if kernel_name.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let exe = p.executable()?;
        let name = CStr::from_ptr(kernel_name).to_string_lossy();
        let runtime = exe.kernel(&name).map_err(|_| CL_INVALID_KERNEL_NAME)?;
        Ok(new_kernel(&p, runtime))
    })
}

pub unsafe extern "C" fn clCreateKernelsInProgram(
    program: cl_program,
    num_kernels: cl_uint,
    kernels: *mut cl_kernel,
    num_kernels_ret: *mut cl_uint,
) -> cl_int {
    status(|| {
        let p = program::get(program)?;
        let exe = p.executable()?;
        let names = exe.kernel_names();
        if !kernels.is_null() {
            if (num_kernels as usize) < names.len() {
                return Err(CL_INVALID_VALUE);
            }
            for (i, name) in names.iter().enumerate() {
                let runtime = exe.kernel(name).map_err(|_| CL_INVALID_KERNEL_NAME)?;
                *kernels.add(i) = new_kernel(&p, runtime);
            }
        }
        if !num_kernels_ret.is_null() {
            *num_kernels_ret = names.len() as cl_uint;
        }
        Ok(())
    })
}

pub unsafe extern "C" fn clCloneKernel(
    source_kernel: cl_kernel,
    errcode_ret: *mut cl_int,
) -> cl_kernel {
    creator(errcode_ret, || {
        let k = get(source_kernel)?;
        let state = k.lock().clone();
        k.program.kernels.fetch_add(1, Ordering::SeqCst);
        let clone = handle::create(Kernel {
            program: k.program.clone(),
            name: k.name.clone(),
            args: k.args.clone(),
            state: Mutex::new(state),
            uniform_groups: k.uniform_groups,
        });
        Ok(handle::handle(&clone))
    })
}

pub unsafe extern "C" fn clRetainKernel(kernel: cl_kernel) -> cl_int {
    status(|| {
        get(kernel)?.retain();
        Ok(())
    })
}

pub unsafe extern "C" fn clReleaseKernel(kernel: cl_kernel) -> cl_int {
    status(|| {
        get(kernel)?.release();
        Ok(())
    })
}

fn scalar_size(meta: &ArgMeta) -> Option<usize> {
    match meta.kind {
        ArgKind::Scalar(lockstep_runtime::ScalarKind::Int(bits))
        | ArgKind::Scalar(lockstep_runtime::ScalarKind::Float(bits)) => Some(bits as usize / 8),
        ArgKind::ByValue { size } => Some(size),
        _ => None,
    }
}

pub unsafe extern "C" fn clSetKernelArg(
    kernel: cl_kernel,
    arg_index: cl_uint,
    arg_size: usize,
    arg_value: *const c_void,
) -> cl_int {
    status(|| {
        let k = get(kernel)?;
        let index = arg_index as usize;
        let meta = k.args.get(index).ok_or(CL_INVALID_ARG_INDEX)?;
        let mut local = 0u64;
        let mut mem_object = None;
        // An image or pipe argument: the memory object `arg_value` points
        // to, one of the kernel's context.
        let context_mem_object = || {
            if arg_size != std::mem::size_of::<cl_mem>() {
                return Err(CL_INVALID_ARG_SIZE);
            }
            if arg_value.is_null() {
                return Err(CL_INVALID_MEM_OBJECT);
            }
            // SAFETY: a non-null argument of a cl_mem's size holds one.
            let m = memory::get(unsafe { *(arg_value as *const cl_mem) })?;
            if !Arc::ptr_eq(&m.context, &k.program.context) {
                return Err(CL_INVALID_MEM_OBJECT);
            }
            Ok(m)
        };
        let value = match &meta.kind {
            ArgKind::GlobalBuffer | ArgKind::ConstantBuffer => {
                if arg_size != std::mem::size_of::<cl_mem>() {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                let mem = if arg_value.is_null() {
                    std::ptr::null_mut()
                } else {
                    *(arg_value as *const cl_mem)
                };
                if mem.is_null() {
                    ArgValue::Null
                } else {
                    let m = memory::get(mem).map_err(|_| CL_INVALID_MEM_OBJECT)?;
                    if !Arc::ptr_eq(&m.context, &k.program.context) || !m.is_buffer() {
                        return Err(CL_INVALID_MEM_OBJECT);
                    }
                    mem_object = Some(Arc::downgrade(&m));
                    ArgValue::Buffer(m.storage.clone())
                }
            }
            ArgKind::Image(ty) => {
                // Not a memory object, a buffer, or an image of another
                // type: CL_INVALID_MEM_OBJECT (as the spec says of depth
                // and array images that break the argument's rules).
                let m = context_mem_object()?;
                let image = m.image.as_ref().ok_or(CL_INVALID_MEM_OBJECT)?;
                if image.image.desc().ty != *ty {
                    return Err(CL_INVALID_MEM_OBJECT);
                }
                // A read_only argument cannot take a CL_MEM_WRITE_ONLY
                // image, a write_only one a CL_MEM_READ_ONLY image.
                let forbidden = match meta.access {
                    lockstep_ir::AccessQual::ReadOnly => CL_MEM_WRITE_ONLY,
                    lockstep_ir::AccessQual::WriteOnly => CL_MEM_READ_ONLY,
                    _ => 0,
                };
                if m.flags & forbidden != 0 {
                    return Err(CL_INVALID_ARG_VALUE);
                }
                mem_object = Some(Arc::downgrade(&m));
                ArgValue::from(&image.image)
            }
            ArgKind::Pipe => {
                // Not a memory object, or a buffer or image: as for images.
                let m = context_mem_object()?;
                let pipe = m.pipe.as_ref().ok_or(CL_INVALID_MEM_OBJECT)?;
                mem_object = Some(Arc::downgrade(&m));
                ArgValue::from(&pipe.pipe)
            }
            ArgKind::Sampler => {
                if arg_size != std::mem::size_of::<cl_sampler>() {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                if arg_value.is_null() {
                    return Err(CL_INVALID_SAMPLER);
                }
                let s = crate::image::get_sampler(*(arg_value as *const cl_sampler))?;
                if !Arc::ptr_eq(&s.context, &k.program.context) {
                    return Err(CL_INVALID_SAMPLER);
                }
                ArgValue::from(s.sampler)
            }
            ArgKind::Queue => {
                if arg_size != std::mem::size_of::<cl_command_queue>() {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                if arg_value.is_null() {
                    return Err(CL_INVALID_DEVICE_QUEUE);
                }
                let handle = *(arg_value as *const cl_command_queue);
                let q = queue::get_any(handle).map_err(|_| CL_INVALID_DEVICE_QUEUE)?;
                if !q.on_device() || !Arc::ptr_eq(&q.context, &k.program.context) {
                    return Err(CL_INVALID_DEVICE_QUEUE);
                }
                ArgValue::Bytes((handle as u64).to_le_bytes().to_vec())
            }
            ArgKind::LocalMemory => {
                if !arg_value.is_null() {
                    return Err(CL_INVALID_ARG_VALUE);
                }
                // A size of 0 is valid since OpenCL 3.1.
                local = arg_size as u64;
                ArgValue::Local(arg_size)
            }
            ArgKind::Scalar(_) | ArgKind::ByValue { .. } => {
                if Some(arg_size) != scalar_size(meta) {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                if arg_value.is_null() {
                    return Err(CL_INVALID_ARG_VALUE);
                }
                ArgValue::Bytes(
                    std::slice::from_raw_parts(arg_value as *const u8, arg_size).to_vec(),
                )
            }
        };
        k.bind(index, value, local, mem_object)
    })
}

pub unsafe extern "C" fn clGetKernelInfo(
    kernel: cl_kernel,
    param_name: cl_kernel_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    status(|| {
        let k = get(kernel)?;
        let info = match param_name {
            CL_KERNEL_FUNCTION_NAME => Info::string(&k.name),
            CL_KERNEL_NUM_ARGS => Info::from(k.args.len() as cl_uint),
            CL_KERNEL_REFERENCE_COUNT => Info::from(k.ref_count()),
            CL_KERNEL_CONTEXT => Info::ptr(handle::handle(program::context_of(&k.program))),
            CL_KERNEL_PROGRAM => Info::ptr(handle::handle(&k.program)),
            CL_KERNEL_ATTRIBUTES => Info::string(&k.lock().runtime.attributes()),
            _ => return Err(CL_INVALID_VALUE),
        };
        match info.write(size, value, size_ret) {
            CL_SUCCESS => Ok(()),
            e => Err(e),
        }
    })
}

pub unsafe extern "C" fn clGetKernelArgInfo(
    kernel: cl_kernel,
    arg_index: cl_uint,
    param_name: cl_kernel_arg_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    status(|| {
        let k = get(kernel)?;
        let meta = k.args.get(arg_index as usize).ok_or(CL_INVALID_ARG_INDEX)?;
        let info = match param_name {
            CL_KERNEL_ARG_ADDRESS_QUALIFIER => Info::from(match meta.kind {
                ArgKind::GlobalBuffer => CL_KERNEL_ARG_ADDRESS_GLOBAL,
                ArgKind::ConstantBuffer => CL_KERNEL_ARG_ADDRESS_CONSTANT,
                ArgKind::LocalMemory => CL_KERNEL_ARG_ADDRESS_LOCAL,
                ArgKind::Image(_) | ArgKind::Pipe => CL_KERNEL_ARG_ADDRESS_GLOBAL,
                _ => CL_KERNEL_ARG_ADDRESS_PRIVATE,
            }),
            CL_KERNEL_ARG_ACCESS_QUALIFIER => Info::from(match meta.access {
                lockstep_ir::AccessQual::ReadOnly => CL_KERNEL_ARG_ACCESS_READ_ONLY,
                lockstep_ir::AccessQual::WriteOnly => CL_KERNEL_ARG_ACCESS_WRITE_ONLY,
                lockstep_ir::AccessQual::ReadWrite => CL_KERNEL_ARG_ACCESS_READ_WRITE,
                lockstep_ir::AccessQual::None => CL_KERNEL_ARG_ACCESS_NONE,
            }),
            CL_KERNEL_ARG_TYPE_NAME => Info::string(&meta.type_name),
            // A pipe's other qualifiers (`const pipe int`) do not count.
            CL_KERNEL_ARG_TYPE_QUALIFIER if meta.kind == ArgKind::Pipe => {
                Info::from(CL_KERNEL_ARG_TYPE_PIPE)
            }
            CL_KERNEL_ARG_TYPE_QUALIFIER => {
                let mut q = CL_KERNEL_ARG_TYPE_NONE as cl_bitfield;
                if meta.is_const || meta.kind == ArgKind::ConstantBuffer {
                    q |= CL_KERNEL_ARG_TYPE_CONST;
                }
                if meta.is_restrict {
                    q |= CL_KERNEL_ARG_TYPE_RESTRICT;
                }
                if meta.is_volatile {
                    q |= CL_KERNEL_ARG_TYPE_VOLATILE;
                }
                Info::from(q)
            }
            // A kernel from SPIR-V may not name its arguments.
            CL_KERNEL_ARG_NAME if meta.name.is_empty() => {
                return Err(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
            }
            CL_KERNEL_ARG_NAME => Info::string(&meta.name),
            _ => return Err(CL_INVALID_VALUE),
        };
        match info.write(size, value, size_ret) {
            CL_SUCCESS => Ok(()),
            e => Err(e),
        }
    })
}

/// The device a work-group or subgroup query names must be one of the
/// kernel's program's, or NULL when the program has only one.
fn check_query_device(k: &Object<Kernel>, device: cl_device_id) -> Result<(), cl_int> {
    let devices = program::devices_of(&k.program);
    if device.is_null() {
        return if devices.len() == 1 {
            Ok(())
        } else {
            Err(CL_INVALID_DEVICE)
        };
    }
    let d = crate::device::get(device)?;
    if devices.iter().any(|e| Arc::ptr_eq(e, &d)) {
        Ok(())
    } else {
        Err(CL_INVALID_DEVICE)
    }
}

pub unsafe extern "C" fn clGetKernelWorkGroupInfo(
    kernel: cl_kernel,
    device: cl_device_id,
    param_name: cl_kernel_work_group_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    status(|| {
        let k = get(kernel)?;
        check_query_device(&k, device)?;
        let state = k.lock();
        let required = state.runtime.required_work_group_size();
        let info = match param_name {
            CL_KERNEL_WORK_GROUP_SIZE => Info::from(match required {
                Some(r) => r.iter().product::<u64>() as usize,
                None => MAX_WORK_GROUP_SIZE as usize,
            }),
            CL_KERNEL_COMPILE_WORK_GROUP_SIZE => {
                let r = required.unwrap_or([0; 3]);
                Info::list(&r.map(|x| x as usize))
            }
            CL_KERNEL_LOCAL_MEM_SIZE => Info::from(
                state.runtime.static_local_mem_size() + state.local_bytes.iter().sum::<u64>(),
            ),
            CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE => {
                Info::from(platform::runtime().kernel_width(&state.runtime) as usize)
            }
            CL_KERNEL_PRIVATE_MEM_SIZE => Info::from(0u64),
            CL_KERNEL_SPILL_MEM_SIZE_INTEL => Info::from(0u64),
            // Only for custom devices and built-in kernels.
            CL_KERNEL_GLOBAL_WORK_SIZE => return Err(CL_INVALID_VALUE),
            _ => return Err(CL_INVALID_VALUE),
        };
        match info.write(size, value, size_ret) {
            CL_SUCCESS => Ok(()),
            e => Err(e),
        }
    })
}

/// Subgroups: a subgroup is a gang of the kernel's width W (its
/// `intel_reqd_sub_group_size`, else the device's), so a work-group of n
/// work-items has ceil(n / W) subgroups of at most min(W, n).
pub unsafe extern "C" fn clGetKernelSubGroupInfo(
    kernel: cl_kernel,
    device: cl_device_id,
    param_name: cl_uint,
    input_size: usize,
    input: *const c_void,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    status(|| {
        let k = get(kernel)?;
        check_query_device(&k, device)?;
        let state = k.lock();
        let width = platform::runtime().kernel_width(&state.runtime) as usize;
        let max_group = match state.runtime.required_work_group_size() {
            Some(r) => r.iter().product::<u64>() as usize,
            None => MAX_WORK_GROUP_SIZE as usize,
        };
        let word = std::mem::size_of::<usize>();
        // The local size given as `input`: 1 to 3 size_t's.
        let local_size = || -> Result<usize, cl_int> {
            if input.is_null() || input_size == 0 || input_size % word != 0 || input_size > 3 * word
            {
                return Err(CL_INVALID_VALUE);
            }
            let dims = std::slice::from_raw_parts(input as *const usize, input_size / word);
            Ok(dims.iter().product())
        };
        let info = match param_name {
            CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE => Info::from(width.min(local_size()?)),
            CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE => Info::from(local_size()?.div_ceil(width)),
            CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT => {
                if input.is_null() || input_size != word {
                    return Err(CL_INVALID_VALUE);
                }
                let count = *(input as *const usize);
                // The answer has as many dimensions as the caller asks for
                // (`size` bytes): count subgroups of W in the first; zeros
                // when no work-group holds that many.
                let dims = if value.is_null() { 1 } else { size / word };
                if !value.is_null() && (size == 0 || size % word != 0 || dims > 3) {
                    return Err(CL_INVALID_VALUE);
                }
                let mut out = vec![0usize; dims.max(1)];
                let n = count.saturating_mul(width);
                if count > 0 && n <= max_group && state.runtime.required_work_group_size().is_none()
                {
                    out[0] = n;
                    for d in out.iter_mut().skip(1) {
                        *d = 1;
                    }
                }
                Info::list(&out)
            }
            CL_KERNEL_MAX_NUM_SUB_GROUPS => Info::from(max_group.div_ceil(width)),
            CL_KERNEL_COMPILE_NUM_SUB_GROUPS => Info::from(0usize),
            CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL => {
                Info::from(state.runtime.required_sub_group_size().unwrap_or(0) as usize)
            }
            _ => return Err(CL_INVALID_VALUE),
        };
        match info.write(size, value, size_ret) {
            CL_SUCCESS => Ok(()),
            e => Err(e),
        }
    })
}

pub unsafe extern "C" fn clSetKernelExecInfo(
    kernel: cl_kernel,
    param_name: cl_uint,
    size: usize,
    value: *const c_void,
) -> cl_int {
    status(|| {
        let k = get(kernel)?;
        match param_name {
            // No list (NULL, 0) unsets the previous one.
            CL_KERNEL_EXEC_INFO_SVM_PTRS => {
                let word = std::mem::size_of::<*const c_void>();
                if value.is_null() != (size == 0) || !size.is_multiple_of(word) {
                    return Err(CL_INVALID_VALUE);
                }
                k.lock().svm_ptrs = if value.is_null() {
                    Vec::new()
                } else {
                    std::slice::from_raw_parts(value as *const usize, size / word).to_vec()
                };
            }
            CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM => {
                if value.is_null() || size != std::mem::size_of::<cl_bool>() {
                    return Err(CL_INVALID_VALUE);
                }
                let on = *(value as *const cl_bool) != 0;
                if on && crate::svm::CAPABILITIES & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM == 0 {
                    return Err(CL_INVALID_OPERATION);
                }
                k.lock().fine_grain_system = on;
            }
            _ => return Err(CL_INVALID_VALUE),
        }
        Ok(())
    })
}

/// Binds an SVM pointer (into an allocation of the kernel's context, or,
/// fine-grained system SVM, any host memory) to a global or constant
/// pointer argument.
pub unsafe extern "C" fn clSetKernelArgSVMPointer(
    kernel: cl_kernel,
    arg_index: cl_uint,
    arg_value: *const c_void,
) -> cl_int {
    status(|| {
        let k = get(kernel)?;
        let index = arg_index as usize;
        let meta = k.args.get(index).ok_or(CL_INVALID_ARG_INDEX)?;
        if !matches!(meta.kind, ArgKind::GlobalBuffer | ArgKind::ConstantBuffer) {
            return Err(CL_INVALID_ARG_VALUE);
        }
        let value = if arg_value.is_null() {
            ArgValue::Null
        } else {
            let addr = arg_value as usize;
            let allocation = k.program.context.svm.find(addr);
            ArgValue::Pointer {
                addr: addr as u64,
                allocation: allocation.map(|(start, len)| (start as u64, len as u64)),
            }
        };
        k.bind(index, value, 0, None)
    })
}

unsafe fn read3(p: *const usize, dims: usize, fill: u64) -> Option<[u64; 3]> {
    if p.is_null() {
        return None;
    }
    let mut out = [fill; 3];
    for (d, slot) in out.iter_mut().enumerate().take(dims) {
        *slot = *p.add(d) as u64;
    }
    Some(out)
}

/// The local size a launch over `global` gets when it names none (what
/// `clGetKernelSuggestedLocalWorkSizeKHR` reports), at the kernel's gang width.
fn chosen_local_size(state: &KernelState, global: [u64; 3], dims: usize) -> [u64; 3] {
    let width = platform::runtime().kernel_width(&state.runtime);
    state.runtime.default_local_size(global, dims, width)
}

/// `cl_khr_suggested_local_work_size`: the local size an enqueue of
/// `kernel` on `queue` over this range would use without one.
pub unsafe extern "C" fn clGetKernelSuggestedLocalWorkSizeKHR(
    queue: cl_command_queue,
    kernel: cl_kernel,
    work_dim: cl_uint,
    global_work_offset: *const usize,
    global_work_size: *const usize,
    suggested_local_work_size: *mut usize,
) -> cl_int {
    status(|| {
        let q = queue::get(queue)?;
        let k = get(kernel)?;
        if !Arc::ptr_eq(&q.context, &k.program.context) {
            return Err(CL_INVALID_CONTEXT);
        }
        let state = k.lock().clone();
        if state.set.iter().any(|s| !s) {
            return Err(CL_INVALID_KERNEL_ARGS);
        }
        if !(1..=3).contains(&work_dim) {
            return Err(CL_INVALID_WORK_DIMENSION);
        }
        let dims = work_dim as usize;
        let global = read3(global_work_size, dims, 1).ok_or(CL_INVALID_GLOBAL_WORK_SIZE)?;
        if global[..dims].contains(&0)
            || global
                .iter()
                .try_fold(1u64, |a, &g| a.checked_mul(g))
                .is_none()
        {
            return Err(CL_INVALID_GLOBAL_WORK_SIZE);
        }
        let offset = read3(global_work_offset, dims, 0).unwrap_or([0; 3]);
        if (0..dims).any(|d| global[d].checked_add(offset[d]).is_none()) {
            return Err(CL_INVALID_GLOBAL_OFFSET);
        }
        if suggested_local_work_size.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let local = chosen_local_size(&state, global, dims);
        for (d, &l) in local.iter().enumerate().take(dims) {
            *suggested_local_work_size.add(d) = l as usize;
        }
        Ok(())
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn ndrange(
    queue: cl_command_queue,
    kernel: cl_kernel,
    work_dim: cl_uint,
    global_offset: *const usize,
    global_size: *const usize,
    local_size: *const usize,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
    command_type: cl_command_type,
) -> Result<(), cl_int> {
    let q = queue::get(queue)?;
    let k = get(kernel)?;
    if !Arc::ptr_eq(&q.context, &k.program.context) {
        return Err(CL_INVALID_CONTEXT);
    }
    // A program from binaries is for the devices they were given for.
    if !program::devices_of(&k.program)
        .iter()
        .any(|d| Arc::ptr_eq(d, q.device()))
    {
        return Err(CL_INVALID_PROGRAM_EXECUTABLE);
    }
    let wait = wait_list(&q.context, num, list)?;
    if !(1..=3).contains(&work_dim) {
        return Err(CL_INVALID_WORK_DIMENSION);
    }
    let dims = work_dim as usize;
    // Since OpenCL 2.1 a NULL or zero global size is a command that does
    // nothing once its wait list is complete.
    let global = read3(global_size, dims, 1).unwrap_or([0; 3]);
    let empty = (0..dims).any(|d| global[d] == 0);
    let offset = read3(global_offset, dims, 0).unwrap_or([0; 3]);
    if (0..dims).any(|d| global[d].checked_add(offset[d]).is_none()) {
        return Err(CL_INVALID_GLOBAL_OFFSET);
    }
    if global
        .iter()
        .try_fold(1u64, |a, &g| a.checked_mul(g))
        .is_none()
    {
        return Err(CL_INVALID_GLOBAL_WORK_SIZE);
    }
    let state = k.lock().clone();
    if state.set.iter().any(|s| !s) {
        return Err(CL_INVALID_KERNEL_ARGS);
    }
    let required = state.runtime.required_work_group_size();
    let local = match read3(local_size, dims, 1) {
        Some(l) => {
            if l.contains(&0) {
                return Err(CL_INVALID_WORK_GROUP_SIZE);
            }
            if l.iter().any(|&x| x > MAX_WORK_GROUP_SIZE) {
                return Err(CL_INVALID_WORK_ITEM_SIZE);
            }
            l
        }
        None => chosen_local_size(&state, global, dims),
    };
    if local.iter().product::<u64>() > MAX_WORK_GROUP_SIZE
        || required.is_some_and(|r| r != local)
        || (k.uniform_groups && !empty && (0..dims).any(|d| !global[d].is_multiple_of(local[d])))
    {
        return Err(CL_INVALID_WORK_GROUP_SIZE);
    }
    let local_bytes = state.runtime.local_mem_size(
        state
            .local_bytes
            .iter()
            .fold(0, |a, &b| a.saturating_add(b)),
    );
    if local_bytes > lockstep_runtime::MAX_LOCAL_MEM_SIZE {
        return Err(CL_OUT_OF_RESOURCES);
    }
    let range = NDRange::new(work_dim, global).local(local).offset(offset);
    let runtime_ctx = q.runtime();
    let uses = state
        .mems
        .iter()
        .flatten()
        .filter_map(Weak::upgrade)
        .collect();
    let runtime_kernel = state.runtime;
    let ended = Arc::new(std::sync::OnceLock::new());
    let ended_by_work = ended.clone();
    let e = Enqueue {
        queue: &q,
        command_type,
        wait,
        event_out: event,
        blocking: false,
        uses,
    };
    queue::enqueue_kernel(
        e,
        Box::new(move || {
            if empty {
                return Ok(());
            }
            match runtime_ctx.launch(&runtime_kernel, &range) {
                Ok(report) => {
                    if let (Some(at), true) = (report.kernel_ended, report.enqueued > 0) {
                        let _ = ended_by_work.set(at);
                    }
                    if !report.printf_output.is_empty() {
                        use std::io::Write;
                        let mut out = std::io::stdout().lock();
                        let _ = out.write_all(report.printf_output.as_bytes());
                        let _ = out.flush();
                    }
                    // Checked mode (LOCKSTEP_CHECK): the reports, as
                    // Oclgrind prints them, on stderr.
                    if !report.diagnostics.is_empty() {
                        use std::io::Write;
                        let mut err = std::io::stderr().lock();
                        for d in &report.diagnostics {
                            let _ = writeln!(err, "\n{d}\n");
                        }
                        let _ = err.flush();
                    }
                    Ok(())
                }
                Err(e) => {
                    eprintln!("Lockstep: {e}");
                    Err(CL_OUT_OF_RESOURCES)
                }
            }
        }),
        ended,
    )
}

pub unsafe extern "C" fn clEnqueueNDRangeKernel(
    queue: cl_command_queue,
    kernel: cl_kernel,
    work_dim: cl_uint,
    global_offset: *const usize,
    global_size: *const usize,
    local_size: *const usize,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| {
        ndrange(
            queue,
            kernel,
            work_dim,
            global_offset,
            global_size,
            local_size,
            num,
            list,
            event,
            CL_COMMAND_NDRANGE_KERNEL,
        )
    })
}

pub unsafe extern "C" fn clEnqueueTask(
    queue: cl_command_queue,
    kernel: cl_kernel,
    num: cl_uint,
    list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    status(|| {
        let one = [1usize];
        ndrange(
            queue,
            kernel,
            1,
            std::ptr::null(),
            one.as_ptr(),
            one.as_ptr(),
            num,
            list,
            event,
            CL_COMMAND_TASK,
        )
    })
}

pub unsafe extern "C" fn clEnqueueNativeKernel(
    queue: cl_command_queue,
    _user_func: *const c_void,
    _args: *mut c_void,
    _cb_args: usize,
    _num_mem_objects: cl_uint,
    _mem_list: *const cl_mem,
    _args_mem_loc: *const *const c_void,
    _num: cl_uint,
    _list: *const cl_event,
    _event: *mut cl_event,
) -> cl_int {
    status(|| {
        queue::get(queue)?;
        // CL_DEVICE_EXECUTION_CAPABILITIES has no CL_EXEC_NATIVE_KERNEL.
        Err(CL_INVALID_OPERATION)
    })
}
