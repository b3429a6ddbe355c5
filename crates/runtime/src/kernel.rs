//! Kernels: argument metadata, typed argument binding, and the validation
//! a launch does before anything runs.

use std::sync::Arc;

use lockstep_ir::{self as ir, AddrSpace, FuncId, Type};

use crate::buffer::{Buffer, Pod, Storage};
use crate::{LaunchError, NDRange, ProgramInner, MAX_LOCAL_MEM_SIZE, MAX_WORK_GROUP_SIZE};

/// What kind of value a kernel argument takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// A `__global` buffer (or NULL).
    GlobalBuffer,
    /// A `__constant` buffer (or NULL).
    ConstantBuffer,
    /// A `__local` pointer: bytes of work-group memory.
    LocalMemory,
    /// A scalar of this kind.
    Scalar(ScalarKind),
    /// A struct or vector passed by value: exactly `size` bytes.
    ByValue { size: usize },
    /// An image (`image2d_t`, ...): an [`Image`](crate::Image) of that type.
    Image(crate::ImageType),
    /// A `sampler_t`: a [`Sampler`](crate::Sampler).
    Sampler,
    /// A pipe (`read_only pipe int`): a [`Pipe`](crate::Pipe).
    Pipe,
    /// A `queue_t`: a device queue's handle ([`crate::DeviceQueues`]), a
    /// 64-bit integer.
    Queue,
}

/// The kind of a scalar argument, as far as binding can tell (`int` and
/// `uint` are both `Int(32)`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ScalarKind {
    Int(u32),
    Float(u32),
}

impl std::fmt::Display for ScalarKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScalarKind::Int(bits) => write!(f, "a {bits}-bit integer"),
            ScalarKind::Float(bits) => write!(f, "a {bits}-bit float"),
        }
    }
}

/// A kernel argument as `clGetKernelArgInfo` describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgMeta {
    pub name: String,
    /// The type as written in the source (`float*`, `uint4`).
    pub type_name: String,
    pub kind: ArgKind,
    pub is_const: bool,
    pub is_restrict: bool,
    pub is_volatile: bool,
    /// An image's access qualifier (`None` for other arguments).
    pub access: ir::AccessQual,
}

/// A value bound to a kernel argument.
#[derive(Clone)]
pub enum ArgValue {
    Buffer(Arc<Storage>),
    /// A NULL buffer pointer.
    Null,
    /// Bytes of `__local` memory per work-group.
    Local(usize),
    /// A scalar: its kind and little-endian bytes.
    Scalar(ScalarKind, Vec<u8>),
    /// Raw bytes of a by-value struct or vector.
    Bytes(Vec<u8>),
    /// An image. Bound, a self-contained one is held as the
    /// [`ArgValue::Buffer`] of its storage; one whose texels are a buffer's
    /// stays an image (the engines lock both storages, and the interpreter
    /// and checked code run on a self-contained copy).
    Image(crate::Image),
    /// A sampler's `CLK_*` bits. Bound, it is held as a 32-bit scalar.
    Sampler(u32),
    /// A pipe. Bound, it is held as the [`ArgValue::Buffer`] of its
    /// storage (kernels get a `__global` pointer to it).
    Pipe(crate::Pipe),
    /// A pointer into memory the application manages (OpenCL shared
    /// virtual memory), given to the kernel as it is: the kernel may also
    /// reach other such memory through pointers stored in it, so nothing
    /// is locked or copied. `allocation` is the allocation it points into
    /// (start address and bytes), if the application made it through the
    /// runtime's caller (`clSVMAlloc`); a system pointer (any host memory)
    /// has none.
    Pointer {
        addr: u64,
        allocation: Option<(u64, u64)>,
    },
}

impl ArgValue {
    fn describe(&self) -> String {
        match self {
            ArgValue::Buffer(s) => format!("a buffer of {} bytes", s.len()),
            ArgValue::Null => "NULL".into(),
            ArgValue::Local(n) => format!("{n} bytes of local memory"),
            ArgValue::Scalar(k, _) => k.to_string(),
            ArgValue::Bytes(b) => format!("{} bytes by value", b.len()),
            ArgValue::Image(i) => format!("an image ({:?})", i.desc().ty),
            ArgValue::Sampler(_) => "a sampler".into(),
            ArgValue::Pipe(p) => format!("a pipe of {}-byte packets", p.packet_size()),
            ArgValue::Pointer { addr, .. } => format!("the pointer {addr:#x}"),
        }
    }
}

impl<T: Pod> From<&Buffer<T>> for ArgValue {
    fn from(b: &Buffer<T>) -> ArgValue {
        ArgValue::Buffer(b.storage.clone())
    }
}

impl From<&crate::Image> for ArgValue {
    fn from(i: &crate::Image) -> ArgValue {
        ArgValue::Image(i.clone())
    }
}

impl From<&crate::Pipe> for ArgValue {
    fn from(p: &crate::Pipe) -> ArgValue {
        ArgValue::Pipe(p.clone())
    }
}

impl From<crate::Sampler> for ArgValue {
    fn from(s: crate::Sampler) -> ArgValue {
        ArgValue::Sampler(s.bits())
    }
}

/// Local memory of a given size in bytes, for a `__local` pointer argument.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LocalMem(pub usize);

impl From<LocalMem> for ArgValue {
    fn from(l: LocalMem) -> ArgValue {
        ArgValue::Local(l.0)
    }
}

/// Raw bytes for a by-value struct or vector argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bytes(pub Vec<u8>);

impl From<Bytes> for ArgValue {
    fn from(b: Bytes) -> ArgValue {
        ArgValue::Bytes(b.0)
    }
}

macro_rules! scalar_arg {
    ($($t:ty => $kind:expr),*) => {
        $(impl From<$t> for ArgValue {
            fn from(x: $t) -> ArgValue {
                ArgValue::Scalar($kind, x.to_le_bytes().to_vec())
            }
        })*
    };
}
scalar_arg!(
    i8 => ScalarKind::Int(8), u8 => ScalarKind::Int(8),
    i16 => ScalarKind::Int(16), u16 => ScalarKind::Int(16),
    i32 => ScalarKind::Int(32), u32 => ScalarKind::Int(32),
    i64 => ScalarKind::Int(64), u64 => ScalarKind::Int(64),
    f32 => ScalarKind::Float(32), f64 => ScalarKind::Float(64)
);

/// Vectors (`float4` as `[f32; 4]`) pass by value as their bytes.
impl<T: Pod, const N: usize> From<[T; N]> for ArgValue {
    fn from(v: [T; N]) -> ArgValue {
        // SAFETY: `T` is Pod, so the array is plain bytes.
        let bytes = unsafe {
            std::slice::from_raw_parts(v.as_ptr() as *const u8, std::mem::size_of_val(&v))
        };
        ArgValue::Bytes(bytes.to_vec())
    }
}

/// A kernel of a built program with its argument bindings.
#[derive(Clone)]
pub struct Kernel {
    pub(crate) program: Arc<ProgramInner>,
    pub(crate) func: FuncId,
    args: Vec<ArgMeta>,
    values: Vec<Option<ArgValue>>,
}

impl Kernel {
    /// The kernel `name` of the program, as the host creates it: a block's
    /// invoke kernel ([`ir::KernelInfo::enqueued_block`]) runs only when a
    /// kernel enqueues it, so the host finds no such kernel.
    pub(crate) fn new(program: Arc<ProgramInner>, name: &str) -> Result<Kernel, LaunchError> {
        let module = &program.module;
        let host_kernels = || {
            module
                .kernels()
                .filter(|(_, f)| !f.kernel.as_ref().is_some_and(|k| k.enqueued_block))
        };
        let Some((func, _)) = host_kernels().find(|(_, f)| f.name == name) else {
            let available: Vec<&str> = host_kernels().map(|(_, f)| f.name.as_str()).collect();
            return Err(LaunchError::NoSuchKernel {
                name: name.to_string(),
                available: available.join(", "),
            });
        };
        Ok(Kernel::for_func(program, func))
    }

    /// Kernel `func` of the program (a kernel of its module), with no
    /// arguments set.
    pub(crate) fn for_func(program: Arc<ProgramInner>, func: FuncId) -> Kernel {
        let f = &program.module.functions[func];
        let default_info = ir::KernelInfo::default();
        let info = f.kernel.as_ref().unwrap_or(&default_info);
        let args: Vec<ArgMeta> = info
            .args
            .iter()
            .zip(&f.signature.params)
            .map(|(a, &ty)| ArgMeta {
                name: a.name.clone(),
                type_name: a.type_name.clone(),
                kind: arg_kind(a, ty),
                is_const: a.qualifiers.is_const,
                is_restrict: a.qualifiers.is_restrict,
                is_volatile: a.qualifiers.is_volatile,
                access: a.access,
            })
            .collect();
        let values = vec![None; args.len()];
        Kernel {
            program: program.clone(),
            func,
            args,
            values,
        }
    }

    pub fn name(&self) -> &str {
        &self.function().name
    }

    fn function(&self) -> &ir::Function {
        &self.program.module.functions[self.func]
    }

    /// The arguments' metadata, in order.
    pub fn args(&self) -> &[ArgMeta] {
        &self.args
    }

    /// Bytes of `__local` memory the program declares in kernel scope
    /// (`CL_KERNEL_LOCAL_MEM_SIZE` without the arguments): every local
    /// variable of the program, an upper bound for this kernel.
    pub fn static_local_mem_size(&self) -> u64 {
        self.program
            .module
            .globals
            .values()
            .filter(|g| g.space == AddrSpace::Local)
            .map(|g| g.size)
            .fold(0, u64::saturating_add)
    }

    /// The `__local` memory a work-group needs: the kernel-scope variables
    /// plus `arg_bytes` of `__local` arguments (saturating). Launches check
    /// it against [`MAX_LOCAL_MEM_SIZE`] on every path (runtime, CLI, ICD).
    pub fn local_mem_size(&self, arg_bytes: u64) -> u64 {
        self.static_local_mem_size().saturating_add(arg_bytes)
    }

    /// Bytes of private memory (arrays, address-taken variables) one
    /// work-item of the kernel uses, each slot rounded up to its alignment.
    pub fn private_mem_size(&self) -> u64 {
        self.function()
            .stack_slots
            .values()
            .map(|s| (s.size as u64).next_multiple_of(s.align.max(1) as u64))
            .fold(0, u64::saturating_add)
    }

    /// The kernel's attributes (`reqd_work_group_size`,
    /// `work_group_size_hint`, `vec_type_hint`,
    /// `intel_reqd_sub_group_size`) as `CL_KERNEL_ATTRIBUTES`
    /// lists them: each as written in OpenCL C, separated by spaces.
    pub fn attributes(&self) -> String {
        let Some(info) = self.function().kernel.as_ref() else {
            return String::new();
        };
        let mut out = Vec::new();
        if let Some([x, y, z]) = info.reqd_work_group_size {
            out.push(format!("reqd_work_group_size({x},{y},{z})"));
        }
        if let Some([x, y, z]) = info.work_group_size_hint {
            out.push(format!("work_group_size_hint({x},{y},{z})"));
        }
        if let Some(ty) = &info.vec_type_hint {
            out.push(format!("vec_type_hint({ty})"));
        }
        if let Some(n) = info.reqd_sub_group_size {
            out.push(format!("intel_reqd_sub_group_size({n})"));
        }
        out.join(" ")
    }

    /// `intel_reqd_sub_group_size`, if the kernel has one: the subgroup
    /// size, and so the SIMD width, it runs at.
    pub fn required_sub_group_size(&self) -> Option<u32> {
        self.function().kernel.as_ref()?.reqd_sub_group_size
    }

    /// True if the kernel uses subgroup builtins.
    pub fn uses_sub_groups(&self) -> bool {
        self.function().uses_sub_groups()
    }

    /// `reqd_work_group_size`, if the kernel has one.
    pub fn required_work_group_size(&self) -> Option<[u64; 3]> {
        let info = self.function().kernel.as_ref()?;
        info.reqd_work_group_size.map(|s| s.map(u64::from))
    }

    /// Binds argument `index`: a `&Buffer`, a scalar (`2.0f32`, `7i32`), a
    /// [`LocalMem`] size, [`Bytes`] or an array for a by-value struct or vector,
    /// a `&Image`, a `Sampler` or a `&Pipe`.
    pub fn set_arg(&mut self, index: usize, value: impl Into<ArgValue>) -> Result<(), LaunchError> {
        let value = value.into();
        let Some(meta) = self.args.get(index) else {
            return Err(LaunchError::ArgIndex {
                kernel: self.name().to_string(),
                index,
                count: self.args.len(),
            });
        };
        let mismatch = |expected: String| LaunchError::ArgKind {
            kernel: self.name().to_string(),
            index,
            name: meta.name.clone(),
            expected,
            given: value.describe(),
        };
        match (&meta.kind, &value) {
            // Any size binds, even less than one element of the pointee
            // type (4 bytes on a `float4*` whose kernel reads `.x`): what
            // the kernel touches is its business, as on pocl and Intel's.
            (ArgKind::GlobalBuffer | ArgKind::ConstantBuffer, ArgValue::Buffer(_)) => {}
            (ArgKind::GlobalBuffer | ArgKind::ConstantBuffer, ArgValue::Null) => {}
            (ArgKind::GlobalBuffer | ArgKind::ConstantBuffer, ArgValue::Pointer { .. }) => {}
            (ArgKind::GlobalBuffer, _) => return Err(mismatch("a global buffer".into())),
            (ArgKind::ConstantBuffer, _) => return Err(mismatch("a constant buffer".into())),
            // Any size, 0 included (OpenCL 3.1): a kernel that never
            // touches the argument needs none.
            (ArgKind::LocalMemory, ArgValue::Local(_)) => {}
            (ArgKind::LocalMemory, _) => {
                return Err(mismatch(
                    "local memory (give its size with LocalMem)".into(),
                ))
            }
            (ArgKind::Scalar(want), ArgValue::Scalar(got, _)) if want == got => {}
            (ArgKind::Scalar(want), ArgValue::Bytes(b)) if b.len() == scalar_bytes(*want) => {}
            (ArgKind::Scalar(want), _) => {
                return Err(mismatch(format!("{want} ({})", meta.type_name)))
            }
            (ArgKind::Image(want), ArgValue::Image(got)) if *want == got.desc().ty => {}
            (ArgKind::Image(want), _) => return Err(mismatch(format!("an image ({want:?})"))),
            (ArgKind::Sampler, ArgValue::Sampler(_)) => {}
            (ArgKind::Sampler, _) => return Err(mismatch("a sampler".into())),
            (ArgKind::Pipe, ArgValue::Pipe(_)) => {}
            (ArgKind::Pipe, _) => return Err(mismatch("a pipe".into())),
            (ArgKind::Queue, ArgValue::Scalar(ScalarKind::Int(64), _)) => {}
            (ArgKind::Queue, ArgValue::Bytes(b)) if b.len() == 8 => {}
            (ArgKind::Queue, _) => return Err(mismatch("a device queue's handle (a u64)".into())),
            (ArgKind::ByValue { size }, ArgValue::Bytes(b)) if b.len() == *size => {}
            (ArgKind::ByValue { size }, _) => {
                return Err(mismatch(format!(
                    "{size} bytes by value ({})",
                    meta.type_name
                )))
            }
        }
        let value = match (&meta.kind, value) {
            (ArgKind::Scalar(kind), ArgValue::Bytes(b)) => ArgValue::Scalar(*kind, b),
            (ArgKind::Queue, ArgValue::Bytes(b)) => ArgValue::Scalar(ScalarKind::Int(64), b),
            (_, ArgValue::Image(image)) if image.is_self_contained() => {
                ArgValue::Buffer(image.storage().clone())
            }
            (_, ArgValue::Sampler(bits)) => {
                ArgValue::Scalar(ScalarKind::Int(32), bits.to_le_bytes().to_vec())
            }
            (_, ArgValue::Pipe(pipe)) => ArgValue::Buffer(pipe.storage().clone()),
            (_, v) => v,
        };
        self.values[index] = Some(value);
        Ok(())
    }

    /// Every argument's value, or the first one not set.
    pub(crate) fn bound_args(&self) -> Result<Vec<ArgValue>, LaunchError> {
        self.values
            .iter()
            .enumerate()
            .map(|(index, v)| {
                v.clone().ok_or_else(|| LaunchError::ArgNotSet {
                    kernel: self.name().to_string(),
                    index,
                    name: self.args[index].name.clone(),
                })
            })
            .collect()
    }

    /// The local size a launch over `global` (`dims` dimensions) gets when
    /// it names none: the kernel's required one, else [`pick_local_size`]'s
    /// choice for gangs of `width`.
    pub fn default_local_size(&self, global: [u64; 3], dims: usize, width: u32) -> [u64; 3] {
        self.required_work_group_size().unwrap_or_else(|| {
            pick_local_size(global, dims, width as u64, self.uniform_groups_required())
        })
    }

    pub(crate) fn uniform_groups_required(&self) -> bool {
        self.program.uniform_groups_required
    }

    /// The first argument bound to a NULL buffer that the kernel may
    /// dereference: one whose parameter has any use other than a comparison
    /// (`if (p)`). Only the interpreter checks accesses, so such launches
    /// run there.
    pub(crate) fn null_buffer_used(&self, bound: &[ArgValue]) -> Option<usize> {
        let f = self.function();
        let params = f.params();
        let mut used = vec![false; params.len()];
        for (_, inst) in f.insts_in_layout() {
            let data = &f.insts[inst];
            if matches!(data, ir::InstData::Icmp { .. }) {
                continue;
            }
            data.visit_args(|v| {
                if let Some(i) = params.iter().position(|&p| p == v) {
                    used[i] = true;
                }
            });
        }
        bound
            .iter()
            .enumerate()
            .find(|(i, a)| matches!(a, ArgValue::Null) && used.get(*i) == Some(&true))
            .map(|(i, _)| i)
    }
}

fn scalar_bytes(kind: ScalarKind) -> usize {
    match kind {
        ScalarKind::Int(bits) | ScalarKind::Float(bits) => bits as usize / 8,
    }
}

fn arg_kind(info: &ir::ArgInfo, ty: Type) -> ArgKind {
    if let Some(byval) = info.byval {
        return ArgKind::ByValue {
            size: byval.size as usize,
        };
    }
    if let Some(image) = image_type(&info.type_name) {
        return ArgKind::Image(image);
    }
    if info.type_name == "sampler_t" && ty == Type::I32 {
        return ArgKind::Sampler;
    }
    if info.qualifiers.is_pipe && ty == Type::Ptr(AddrSpace::Global) {
        return ArgKind::Pipe;
    }
    if info.type_name == "queue_t" && ty == Type::I64 {
        return ArgKind::Queue;
    }
    match ty {
        Type::Ptr(AddrSpace::Local) => ArgKind::LocalMemory,
        Type::Ptr(AddrSpace::Constant) => ArgKind::ConstantBuffer,
        Type::Ptr(_) => ArgKind::GlobalBuffer,
        t if t.is_float() => ArgKind::Scalar(ScalarKind::Float(t.bits())),
        t => ArgKind::Scalar(ScalarKind::Int(t.bits().max(8))),
    }
}

/// The image type an argument's OpenCL C type names, if it is one.
fn image_type(type_name: &str) -> Option<crate::ImageType> {
    use crate::ImageType::*;
    Some(match type_name {
        "image1d_t" => Image1D,
        "image1d_buffer_t" => Image1DBuffer,
        "image1d_array_t" => Image1DArray,
        "image2d_t" => Image2D,
        "image2d_array_t" => Image2DArray,
        "image3d_t" => Image3D,
        _ => return None,
    })
}

/// Checks that the kernel's `__local` variables and arguments together fit
/// the device's local memory.
pub(crate) fn check_local_memory(kernel: &Kernel, bound: &[ArgValue]) -> Result<(), LaunchError> {
    let args = bound
        .iter()
        .map(|a| match a {
            ArgValue::Local(n) => *n as u64,
            _ => 0,
        })
        .fold(0u64, u64::saturating_add);
    let bytes = kernel.local_mem_size(args);
    if bytes > MAX_LOCAL_MEM_SIZE {
        return Err(LaunchError::LocalMemoryTooLarge {
            kernel: kernel.name().to_string(),
            bytes,
            max: MAX_LOCAL_MEM_SIZE,
        });
    }
    Ok(())
}

/// Checks the range against the kernel and the device, and returns the
/// local size to use (picking one when the range has none).
/// Checks `range` for `kernel` and returns its local size (chosen for
/// gangs of `width` when the range gives none).
pub(crate) fn validate_range(
    kernel: &Kernel,
    range: &NDRange,
    width: u32,
) -> Result<[u64; 3], LaunchError> {
    if !(1..=3).contains(&range.dims) {
        return Err(LaunchError::WorkDim(range.dims));
    }
    let dims = range.dims as usize;
    let mut global = [1u64; 3];
    global[..dims].copy_from_slice(&range.global[..dims]);
    if let Some(dim) = global.iter().position(|&g| g == 0) {
        return Err(LaunchError::ZeroGlobalSize { dim });
    }
    // Every index the launch computes (global id + offset, linear ids,
    // group counts) stays below these, so none of them can wrap.
    if global
        .iter()
        .try_fold(1u64, |a, &g| a.checked_mul(g))
        .is_none()
    {
        return Err(LaunchError::RangeTooLarge {
            what: format!("the number of work-items {global:?}"),
        });
    }
    if let Some(dim) = (0..dims).find(|&d| global[d].checked_add(range.offset[d]).is_none()) {
        return Err(LaunchError::RangeTooLarge {
            what: format!(
                "the global size plus the offset in dimension {dim} ({} + {})",
                global[dim], range.offset[dim]
            ),
        });
    }
    let required = kernel.required_work_group_size();
    let local = match (range.local, required) {
        (Some(l), _) => {
            let mut local = [1u64; 3];
            local[..dims].copy_from_slice(&l[..dims]);
            local
        }
        (None, _) => kernel.default_local_size(global, dims, width),
    };
    if let Some(dim) = local.iter().position(|&l| l == 0) {
        return Err(LaunchError::ZeroLocalSize { dim });
    }
    if let Some(r) = required {
        if r != local {
            return Err(LaunchError::ReqdWorkGroupSize {
                kernel: kernel.name().to_string(),
                required: r,
                given: local,
            });
        }
    }
    let total = local
        .iter()
        .try_fold(1u64, |a, &l| a.checked_mul(l))
        .unwrap_or(u64::MAX);
    if total > MAX_WORK_GROUP_SIZE {
        return Err(LaunchError::WorkGroupTooLarge {
            total,
            max: MAX_WORK_GROUP_SIZE,
        });
    }
    if kernel.uniform_groups_required() {
        for dim in 0..dims {
            if global[dim] % local[dim] != 0 {
                return Err(LaunchError::NonUniformWorkGroups {
                    dim,
                    global: global[dim],
                    local: local[dim],
                    why: "OpenCL 1.x programs (and -cl-uniform-work-group-size) need local sizes that divide the global size; build with -cl-std=CL2.0 or later for non-uniform work-groups".into(),
                });
            }
        }
    }
    Ok(local)
}

/// A work-group size for a range given without one. Along the first
/// dimension: the largest multiple of the SIMD width up to 128 that
/// divides the global size, else (when groups may be non-uniform) 64
/// work-items with a smaller last group, else the largest divisor up to
/// 128. The other dimensions take the largest divisor of their size that
/// keeps the group within 128 work-items.
pub fn pick_local_size(global: [u64; 3], dims: usize, width: u64, uniform: bool) -> [u64; 3] {
    const BUDGET: u64 = 128;
    let mut local = [1u64; 3];
    let g0 = global[0];
    let simd_multiple = (1..=BUDGET / width)
        .rev()
        .map(|k| k * width)
        .find(|l| g0.is_multiple_of(*l));
    local[0] = match simd_multiple {
        Some(l) => l,
        None if !uniform => g0.min(64),
        None => (1..=BUDGET.min(g0))
            .rev()
            .find(|l| g0.is_multiple_of(*l))
            .unwrap_or(1),
    };
    let mut budget = BUDGET / local[0];
    for d in 1..dims {
        if budget <= 1 {
            break;
        }
        let l = (1..=budget.min(global[d]))
            .rev()
            .find(|l| global[d].is_multiple_of(*l))
            .unwrap_or(1);
        local[d] = l;
        budget /= l;
    }
    local
}

#[cfg(test)]
mod tests {
    use super::pick_local_size;

    #[test]
    fn picks_simd_multiples_that_divide() {
        assert_eq!(pick_local_size([1024, 1, 1], 1, 8, true), [128, 1, 1]);
        assert_eq!(pick_local_size([24, 1, 1], 1, 8, true), [24, 1, 1]);
        assert_eq!(pick_local_size([7, 1, 1], 1, 8, true), [7, 1, 1]);
        assert_eq!(pick_local_size([1000, 1, 1], 1, 16, false), [64, 1, 1]);
        assert_eq!(pick_local_size([1001, 1, 1], 1, 8, true), [91, 1, 1]);
        assert_eq!(pick_local_size([64, 64, 1], 2, 8, true), [64, 2, 1]);
    }
}
