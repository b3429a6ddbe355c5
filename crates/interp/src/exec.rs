//! Execution: work-groups one after another, work-items of a group
//! interleaved at barriers, one decoded instruction at a time.
//!
//! A work-item's state is its register file (a stack of per-frame windows
//! in one `Vec<u64>`), its call stack of frames (function, resume point,
//! register base, stack slots), and its stack-slot regions. Without a
//! reachable barrier, one state is reused for every work-item in turn. With
//! one, the group gets a state per work-item; each runs until it reaches a
//! barrier or returns, then the next; when all have stopped, they must all
//! be at the same barrier (same call stack of resume points), or all have
//! returned, else the group diverged (an error; checked, a diagnostic, and
//! those at a barrier go on).

use lockstep_ir::print::inst_to_string;
use lockstep_ir::{
    AddrSpace, AtomicRmwOp, BinaryOp, ConvertOp, FuncId, GangOp, Module, Type, WorkItemQuery,
};

use cranelift_entity::EntityRef;

use crate::arith::{
    fcmp_bits, float_binary_bits, float_unary_bits, fma_bits, icmp, int_binary, int_ternary,
    int_unary, mask, sext,
};
use crate::check::{AccessRecord, Checker, FindingKind};
use crate::converge::LoopStack;
use crate::convert::{float_to_float, float_to_int, int_to_float, Format};
use crate::decode::{DecodedFunc, Edge, Op, Program, Reg, NO_REG};
use crate::device_queue::{ChildLaunch, DeviceMemory, DeviceWork};
use crate::error::{AccessKind, Diagnostic, DiagnosticKind, InterpError, Site, WorkItemId};
use crate::memory::{
    addr, offset_of, region_of, signed_offset, AccessMode, Fault, Memory, RegionName, Space,
    OFFSET_MASK,
};
use crate::{KernelArg, NdRange, Options, Report};

mod async_copy;
mod gang;
mod uninit;

/// Calls nest at most this deep (OpenCL C has no recursion).
const MAX_CALL_DEPTH: usize = 1024;

#[derive(Copy, Clone, Debug)]
struct Frame {
    func: u32,
    pc: u32,
    base: u32,
    /// Index of this frame's first stack slot in `Item::slots`.
    slots: u32,
    /// Where the caller wants the result.
    ret: Reg,
}

/// The state of one work-item.
#[derive(Default)]
struct Item {
    id: WorkItemId,
    linear: u32,
    regs: Vec<u64>,
    /// Checked mode: the uninitialized bits of each register of `regs`
    /// (see the `uninit` module).
    shadow: Vec<u64>,
    frames: Vec<Frame>,
    slots: Vec<u32>,
    /// This state's by-value argument copies, one region per byval argument.
    byval: Vec<u32>,
    scratch: Vec<u64>,
    /// Per frame: the loops it is in (subgroup collectives only).
    loops: Vec<LoopStack>,
    state: State,
}

impl Item {
    /// Register `r` of the innermost frame.
    fn reg(&self, r: Reg) -> u64 {
        let base = self.frames.last().map_or(0, |f| f.base as usize);
        self.regs[base + r as usize]
    }

    /// The shadow of register `r` of the innermost frame (checked mode).
    fn shadow_of(&self, r: Reg) -> u64 {
        let base = self.frames.last().map_or(0, |f| f.base as usize);
        self.shadow.get(base + r as usize).copied().unwrap_or(0)
    }
}

/// Where a work-item of a group stands.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
enum State {
    #[default]
    Running,
    AtBarrier,
    /// At a subgroup collective (its frame's `pc` is the collective's).
    AtCollective,
    Done,
}

/// One work-item's view of its registers for one data operation.
struct Lane<'r> {
    regs: &'r mut [u64],
    /// The frame's stack-slot regions.
    slots: &'r [u32],
    id: &'r WorkItemId,
    linear: u32,
}

enum Stop {
    Done,
    Barrier,
    SubGroup,
}

/// The NDRange with every dimension filled in (unused ones are 1-sized).
struct Range {
    dim: u32,
    global: [u64; 3],
    local: [u64; 3],
    offset: [u64; 3],
    groups: [u64; 3],
}

struct Exec<'p, 'm, 'a> {
    module: &'m Module,
    prog: &'p Program,
    mem: Memory<'a>,
    range: Range,
    group_id: [u64; 3],
    group_size: [u64; 3],
    /// Lane refill: how many work-items of the current group `next_item`
    /// handed out.
    items_taken: u64,
    steps: u64,
    max_steps: u64,
    out: String,
    check: Option<Checker>,
    diagnostics: Vec<Diagnostic>,
    /// Checked mode: (instruction, kind) pairs already reported.
    reported: std::collections::HashSet<(u32, DiagnosticKind)>,
    /// Checked mode: the source lines (or instructions) with a report of
    /// an uninitialized value.
    uninit_reported: std::collections::HashSet<(u32, u32)>,
    /// Launch-wide instruction ids: function `i`'s code starts at `site_base[i]`.
    site_base: Vec<u32>,
    kernel: usize,
    /// `(parameter register, bytes)` of each by-value argument.
    byval: Vec<(Reg, Vec<u8>)>,
    template: Vec<u64>,
    /// Regions that are per work-group (`__local`), reset for each group.
    local_regions: Vec<u32>,
    /// Of those, the program-scope `__local` variables (every kernel's).
    local_variables: Vec<u32>,
    /// The subgroup size W.
    sub_group_width: u64,
    /// The device queues, events and commands work-items enqueue (child
    /// kernels run in this launch, after its own work-items).
    device: DeviceWork,
}

/// The interpreter's memory as device enqueue reads and writes it; the
/// writes are noted for checked mode (they initialize what they write).
struct DeviceMem<'m, 'a> {
    mem: &'m mut Memory<'a>,
    written: Vec<(u64, u64)>,
}

impl<'m, 'a> DeviceMem<'m, 'a> {
    fn new(mem: &'m mut Memory<'a>) -> DeviceMem<'m, 'a> {
        DeviceMem {
            mem,
            written: Vec::new(),
        }
    }
}

impl DeviceMemory for DeviceMem<'_, '_> {
    type Error = Fault;

    fn read(&mut self, addr: u64, len: u64) -> Result<Vec<u8>, Fault> {
        self.mem.bytes(addr, len).map(<[u8]>::to_vec)
    }

    fn write(&mut self, addr: u64, bytes: &[u8]) -> Result<(), Fault> {
        self.mem
            .bytes_mut(addr, bytes.len() as u64)
            .map(|b| b.copy_from_slice(bytes))?;
        self.written.push((addr, bytes.len() as u64));
        Ok(())
    }
}

fn normalize_range(r: &NdRange) -> Result<Range, InterpError> {
    if !(1..=3).contains(&r.work_dim) {
        return Err(InterpError::InvalidRange(format!(
            "work_dim is {}, not 1, 2 or 3",
            r.work_dim
        )));
    }
    let mut out = Range {
        dim: r.work_dim,
        global: [1; 3],
        local: [1; 3],
        offset: [0; 3],
        groups: [1; 3],
    };
    for d in 0..r.work_dim as usize {
        if r.local_size[d] == 0 {
            return Err(InterpError::InvalidRange(format!("local size {d} is 0")));
        }
        out.global[d] = r.global_size[d];
        out.local[d] = r.local_size[d];
        out.offset[d] = r.global_offset[d];
        out.groups[d] = r.global_size[d].div_ceil(r.local_size[d]);
    }
    let items = out
        .local
        .iter()
        .try_fold(1u64, |acc, &l| acc.checked_mul(l));
    if items.is_none_or(|n| n > u32::MAX as u64) {
        return Err(InterpError::InvalidRange(
            "the work-group is too large".into(),
        ));
    }
    Ok(out)
}

/// Runs `kernel` over `range`, then the kernels its work-items enqueue on
/// `device`; see [`crate::run_kernel_with_device`].
pub fn launch(
    module: &Module,
    kernel: FuncId,
    args: &mut [KernelArg],
    range: &NdRange,
    opts: &Options,
    device: DeviceWork,
) -> Result<Report, InterpError> {
    let Some(func) = module.functions.get(kernel) else {
        return Err(InterpError::BadKernel(format!(
            "no function {kernel} in the module"
        )));
    };
    let Some(info) = &func.kernel else {
        return Err(InterpError::BadKernel(format!(
            "@{} is not a kernel",
            func.name
        )));
    };
    let range = normalize_range(range)?;
    let params = &func.signature.params;
    if params.len() != args.len() {
        return Err(InterpError::BadKernel(format!(
            "kernel @{} takes {} arguments, {} given",
            func.name,
            params.len(),
            args.len()
        )));
    }
    let mismatch = |index: usize, message: String| InterpError::ArgMismatch {
        kernel: func.name.clone(),
        index,
        message,
    };
    let arg_name = |i: usize| {
        info.args
            .get(i)
            .map(|a| format!(" '{}'", a.name))
            .unwrap_or_default()
    };
    let mut mem = Memory::new();
    let sub_group_width = func
        .gang
        .or(opts.sub_group_size)
        .unwrap_or(crate::DEFAULT_SUB_GROUP_SIZE)
        .max(1);
    let mut checker = opts.checked.then(|| Checker::new(sub_group_width));
    let mut local_regions = Vec::new();
    let mut local_variables = Vec::new();
    let too_many = || InterpError::Unsupported {
        what: "too many memory regions".into(),
        site: None,
    };

    // Program-scope variables first, so that relocations can refer to any.
    let mut global_addrs = Vec::with_capacity(module.globals.len());
    let mut global_regions = Vec::with_capacity(module.globals.len());
    for (_, g) in module.globals.iter() {
        let space = Space::of(g.space);
        let kind = match g.space {
            AddrSpace::Constant => "__constant",
            AddrSpace::Local => "__local",
            AddrSpace::Private => "__private",
            _ => "__global",
        };
        let name = RegionName::Text(format!("{kind} variable @{}", g.name));
        let id = mem.alloc(g.size, name, space).ok_or_else(too_many)?;
        if let Some(init) = &g.init {
            let dst = mem.contents_mut(id);
            let n = dst.len().min(init.len());
            dst[..n].copy_from_slice(&init[..n]);
        }
        match space {
            Space::Local => {
                local_regions.push(id);
                local_variables.push(id);
            }
            Space::Constant => mem.set_read_only(id),
            _ => {}
        }
        if let Some(ck) = &mut checker {
            if matches!(space, Space::Local | Space::Global) {
                ck.track(id, space, g.size);
            }
        }
        global_addrs.push(addr(id, 0));
        global_regions.push(id);
    }
    for (gi, (_, g)) in module.globals.iter().enumerate() {
        for r in &g.relocs {
            let Some(&target) = global_addrs.get(r.target.index()) else {
                return Err(InterpError::InvalidIr {
                    function: format!("(variable @{})", g.name),
                    message: format!("relocation to unknown variable {}", r.target),
                });
            };
            let value =
                (target & !OFFSET_MASK) | (target.wrapping_add(r.addend as u64) & OFFSET_MASK);
            let dst = mem.contents_mut(global_regions[gi]);
            let off = r.offset as usize;
            if off.checked_add(8).is_none_or(|end| end > dst.len()) {
                return Err(InterpError::InvalidIr {
                    function: format!("(variable @{})", g.name),
                    message: format!("relocation at offset {} is outside the variable", r.offset),
                });
            }
            dst[off..off + 8].copy_from_slice(&value.to_le_bytes());
        }
    }

    // Arguments.
    let mut param_values = vec![0u64; params.len()];
    // Which arguments are buffers (what `KernelArg::SameAs` may name).
    let mut buffer_args = vec![false; params.len()];
    let mut byval_args = Vec::new();
    for (i, (arg, &ty)) in args.iter_mut().zip(params.iter()).enumerate() {
        let got = match arg {
            KernelArg::Buffer(b) => format!("a buffer of {} bytes", b.len()),
            KernelArg::Null => "a null buffer".to_string(),
            KernelArg::Local(n) => format!("a __local size of {n} bytes"),
            KernelArg::Scalar(b) => format!("a scalar of {} bytes", b.len()),
            KernelArg::ByVal(b) => format!("a by-value struct of {} bytes", b.len()),
            KernelArg::SameAs(j) => format!("argument {j}'s memory"),
        };
        match (ty, arg) {
            (
                Type::Ptr(AddrSpace::Global | AddrSpace::Constant | AddrSpace::Generic),
                KernelArg::Buffer(b),
            ) => {
                let space = Space::of(ty.addr_space().unwrap_or(AddrSpace::Global));
                let read_only = space == Space::Constant;
                let len = b.len() as u64;
                let name = RegionName::Text(format!("argument {i}{}", arg_name(i)));
                let id = mem.add_borrowed(b, name, space, read_only).ok_or_else(|| {
                    mismatch(i, "the buffer is too large (2^40 bytes at most)".into())
                })?;
                // A pipe's storage is only touched by the builtin
                // library's pipe functions, which hand its packets from
                // work-item to work-item through release and acquire
                // atomics on its sequence words: an order the race
                // checker's epochs do not see, so it is not tracked.
                let is_pipe = info.args.get(i).is_some_and(|a| a.qualifiers.is_pipe);
                if let Some(ck) = &mut checker {
                    if !read_only && !is_pipe {
                        ck.track(id, Space::Global, len);
                    }
                }
                if i < 64 && opts.read_only_args >> i & 1 != 0 {
                    mem.set_mode(id, AccessMode::ReadOnly);
                } else if i < 64 && opts.write_only_args >> i & 1 != 0 {
                    mem.set_mode(id, AccessMode::WriteOnly);
                }
                param_values[i] = addr(id, 0);
                buffer_args[i] = true;
            }
            (
                Type::Ptr(AddrSpace::Global | AddrSpace::Constant | AddrSpace::Generic),
                KernelArg::Null,
            ) => {}
            (
                Type::Ptr(AddrSpace::Global | AddrSpace::Constant | AddrSpace::Generic),
                KernelArg::SameAs(j),
            ) if *j < i && buffer_args[*j] => {
                param_values[i] = param_values[*j];
            }
            (Type::Ptr(AddrSpace::Local), KernelArg::Local(n)) => {
                let name = RegionName::Text(format!("__local argument {i}{}", arg_name(i)));
                let id = mem
                    .alloc(*n as u64, name, Space::Local)
                    .ok_or_else(too_many)?;
                if let Some(ck) = &mut checker {
                    ck.track(id, Space::Local, *n as u64);
                }
                local_regions.push(id);
                param_values[i] = addr(id, 0);
            }
            (Type::Ptr(AddrSpace::Private), KernelArg::ByVal(bytes)) => {
                if let Some(bv) = info.args.get(i).and_then(|a| a.byval) {
                    if bytes.len() != bv.size as usize {
                        return Err(mismatch(
                            i,
                            format!("the struct has {} bytes, {} given", bv.size, bytes.len()),
                        ));
                    }
                }
                byval_args.push((i, bytes.clone()));
            }
            (t, KernelArg::Scalar(bytes)) if !t.is_ptr() => {
                if bytes.len() != t.bytes() as usize {
                    return Err(mismatch(
                        i,
                        format!(
                            "expected {} bytes for a {t}, got {}",
                            t.bytes(),
                            bytes.len()
                        ),
                    ));
                }
                let mut w = [0u8; 8];
                w[..bytes.len()].copy_from_slice(bytes);
                param_values[i] = u64::from_le_bytes(w) & t.int_mask();
            }
            (t, _) => {
                let want = match t {
                    Type::Ptr(AddrSpace::Local) => "a __local size",
                    Type::Ptr(AddrSpace::Private) => "a by-value struct",
                    Type::Ptr(_) => "a buffer or null",
                    _ => "a scalar",
                };
                return Err(mismatch(
                    i,
                    format!("parameter of type {t} needs {want}, got {got}"),
                ));
            }
        }
    }

    let prog = Program::decode(module, kernel, &global_addrs)?;
    let kf = prog.funcs[kernel.index()]
        .as_ref()
        .ok_or_else(|| InterpError::BadKernel("the kernel was not decoded".into()))?;
    if kf.params.len() != params.len() {
        return Err(InterpError::InvalidIr {
            function: func.name.clone(),
            message: format!(
                "the entry block has {} parameters, the signature {}",
                kf.params.len(),
                params.len()
            ),
        });
    }
    let mut template = kf.template.clone();
    for (i, &reg) in kf.params.iter().enumerate() {
        template[reg as usize] = param_values[i];
    }
    let byval = byval_args
        .into_iter()
        .map(|(i, bytes)| (kf.params[i], bytes))
        .collect();
    let mut site_base = Vec::with_capacity(prog.funcs.len());
    let mut next = 0u32;
    for f in &prog.funcs {
        site_base.push(next);
        next += f.as_ref().map_or(0, |f| f.code.len() as u32);
    }
    let mut exec = Exec {
        module,
        prog: &prog,
        mem,
        range,
        group_id: [0; 3],
        group_size: [1; 3],
        items_taken: 0,
        steps: 0,
        max_steps: opts.max_steps.unwrap_or(u64::MAX),
        out: String::new(),
        check: checker,
        diagnostics: Vec::new(),
        reported: Default::default(),
        uninit_reported: Default::default(),
        site_base,
        kernel: kernel.index(),
        byval,
        template,
        local_regions,
        local_variables,
        sub_group_width: u64::from(sub_group_width),
        device,
    };
    exec.run_all()?;
    let kernel_ended = Some(std::time::Instant::now());
    exec.run_children()?;
    Ok(Report {
        kernel_ended,
        enqueued: exec.device.launched(),
        printf_output: exec.out,
        diagnostics: exec.diagnostics,
    })
}

#[inline(always)]
fn take_edge(regs: &mut [u64], copies: &[(Reg, Reg)], e: &Edge, scratch: &mut Vec<u64>) -> usize {
    let pairs = &copies[e.start as usize..(e.start + e.len) as usize];
    if e.parallel {
        scratch.clear();
        scratch.extend(pairs.iter().map(|&(src, _)| regs[src as usize]));
        for (k, &(_, dst)) in pairs.iter().enumerate() {
            regs[dst as usize] = scratch[k];
        }
    } else {
        for &(src, dst) in pairs {
            regs[dst as usize] = regs[src as usize];
        }
    }
    e.pc as usize
}

/// Per lane of a subgroup: the operand `get` reads from its work-item, and
/// whether it takes part (0 and false for the others).
fn lane_operands(
    group: &[Item],
    lanes: &[bool],
    width: usize,
    get: impl Fn(&Item) -> u64,
) -> (Vec<u64>, Vec<bool>) {
    let mut values = vec![0u64; width];
    let mut set = vec![false; width];
    for (l, it) in group.iter().enumerate() {
        if lanes[l] {
            values[l] = get(it);
            set[l] = true;
        }
    }
    (values, set)
}

/// A ballot of flags (bit 0 of `values`): bit `l` for each lane `l` that
/// takes part with its flag set.
fn ballot(values: &[u64], set: &[bool]) -> u64 {
    (0..values.len())
        .filter(|&l| set[l] && values[l] & 1 != 0)
        .fold(0u64, |acc, l| acc | 1 << l)
}

/// A broadcast or shuffle: for each work-item of `group` that takes part,
/// `values` at the lane its register `lane` names (0 for the others).
fn read_lanes(group: &[Item], lanes: &[bool], values: &[u64], lane: Reg) -> Vec<u64> {
    let width = values.len();
    (0..width)
        .map(|l| match group.get(l) {
            Some(it) if lanes[l] => values[it.reg(lane) as usize % width],
            _ => 0,
        })
        .collect()
}

/// Where a work-item of a diverged group stands: the (function, resume
/// point) of each of its frames, or `None` when it returned.
type Place = Option<Vec<(u32, u32)>>;

/// Sorted ids as ranges, each written `first{through}last`: with `-`,
/// `0-3, 6, 8-9`.
pub fn id_ranges<T: Copy + Into<u64>>(ids: &[T], through: &str) -> String {
    let ids: Vec<u64> = ids.iter().map(|&i| i.into()).collect();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ids.len() {
        let mut j = i;
        while j + 1 < ids.len() && ids[j + 1] == ids[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            ids[i].to_string()
        } else {
            format!("{}{through}{}", ids[i], ids[j])
        });
        i = j + 1;
    }
    out.join(", ")
}

/// The shadow of a frame that starts: its `undef` registers uninitialized.
fn init_shadow(f: &DecodedFunc, sh: &mut [u64]) {
    sh.fill(0);
    for &(reg, bits) in &f.undefs {
        sh[reg as usize] = bits;
    }
}

pub(crate) fn convert(
    op: ConvertOp,
    from: Type,
    to: Type,
    rounding: lockstep_ir::Rounding,
    x: u64,
) -> u64 {
    use lockstep_ir::Rounding::*;
    let m = to.int_mask();
    match op {
        ConvertOp::Zext
        | ConvertOp::Bitcast
        | ConvertOp::Trunc
        | ConvertOp::PtrToInt
        | ConvertOp::IntToPtr
        | ConvertOp::AddrSpaceCast => x & m,
        ConvertOp::Sext => sext(x, from.bits()) as u64 & m,
        ConvertOp::FpExt | ConvertOp::FpTrunc => match (from, to, rounding) {
            (Type::F32, Type::F64, _) => (f32::from_bits(x as u32) as f64).to_bits(),
            (Type::F64, Type::F32, Rte) => (f64::from_bits(x) as f32).to_bits() as u64,
            _ => float_to_float(x, Format::of(from), Format::of(to), rounding),
        },
        ConvertOp::SiToFp | ConvertOp::UiToFp => {
            let v = if op == ConvertOp::SiToFp {
                sext(x, from.bits()) as i128
            } else {
                (x & from.int_mask()) as i128
            };
            int_to_float(v, Format::of(to), rounding)
        }
        ConvertOp::FpToSi | ConvertOp::FpToUi => {
            // Out-of-range values saturate and NaN gives 0 whether or not
            // `saturate` is set (OpenCL leaves the unsaturated case
            // unspecified).
            let bits = to.bits();
            let (lo, hi) = if op == ConvertOp::FpToSi {
                let lo = if bits >= 64 {
                    i64::MIN as i128
                } else {
                    -(1i128 << (bits - 1))
                };
                (lo, -lo - 1)
            } else {
                (0, mask(bits) as i128)
            };
            let v = match float_to_int(x, Format::of(from), rounding) {
                None => 0,
                Some(Err(neg)) => {
                    if neg {
                        lo
                    } else {
                        hi
                    }
                }
                Some(Ok(v)) => v.clamp(lo, hi),
            };
            v as u64 & m
        }
    }
}

fn atomic_op(op: AtomicRmwOp, ty: Type, old: u64, v: u64) -> u64 {
    let bits = ty.bits();
    let m = mask(bits);
    let r = match op {
        AtomicRmwOp::Xchg => v,
        AtomicRmwOp::Add => old.wrapping_add(v),
        AtomicRmwOp::Sub => old.wrapping_sub(v),
        AtomicRmwOp::And => old & v,
        AtomicRmwOp::Or => old | v,
        AtomicRmwOp::Xor => old ^ v,
        AtomicRmwOp::Smin => int_binary(BinaryOp::Smin, bits, old, v),
        AtomicRmwOp::Smax => int_binary(BinaryOp::Smax, bits, old, v),
        AtomicRmwOp::Umin => old.min(v),
        AtomicRmwOp::Umax => old.max(v),
        AtomicRmwOp::Fadd => float_binary_bits(BinaryOp::Fadd, ty, old, v),
        AtomicRmwOp::Fmin => float_binary_bits(BinaryOp::Fmin, ty, old, v),
        AtomicRmwOp::Fmax => float_binary_bits(BinaryOp::Fmax, ty, old, v),
    };
    r & m
}

impl<'p, 'a> Exec<'p, '_, 'a> {
    fn func(&self, index: usize) -> Option<&'p DecodedFunc> {
        self.prog.funcs.get(index).and_then(|f| f.as_ref())
    }

    fn site(&self, func: usize, pc: usize, id: &WorkItemId) -> Site {
        let f = &self.module.functions[FuncId::new(func)];
        let inst = self.func(func).and_then(|d| d.insts.get(pc).copied());
        let (text, loc) = match inst {
            Some(i) if i.index() < f.insts.len() => {
                (inst_to_string(Some(self.module), f, i), f.srclocs[i])
            }
            _ => ("<end of block>".to_string(), None),
        };
        Site {
            function: f.name.clone(),
            inst: text,
            loc,
            work_item: *id,
        }
    }

    fn region_name(&self, name: &RegionName) -> String {
        match name {
            RegionName::Text(s) => s.clone(),
            RegionName::StackSlot { func, slot } => {
                let f = &self.module.functions[FuncId::new(*func as usize)];
                format!("stack slot ss{slot} of @{}", f.name)
            }
        }
    }

    fn describe(&self, region: u32) -> (String, Option<u64>) {
        self.mem.describe(region, &|n| self.region_name(n))
    }

    fn fault(
        &self,
        fault: Fault,
        access: AccessKind,
        func: usize,
        pc: usize,
        id: &WorkItemId,
    ) -> InterpError {
        let site = Box::new(self.site(func, pc, id));
        match fault {
            Fault::OutOfBounds {
                region,
                offset,
                size,
            } => {
                let (region, region_size) = self.describe(region);
                InterpError::OutOfBounds {
                    access,
                    region,
                    region_size,
                    offset: signed_offset(offset),
                    size,
                    site,
                }
            }
            Fault::ReadOnly { region } => InterpError::ReadOnly {
                access,
                region: self.describe(region).0,
                site,
            },
        }
    }

    /// Checked mode: reports a finding of `kind` at an instruction, once
    /// per instruction and kind.
    fn report(
        &mut self,
        kind: DiagnosticKind,
        message: String,
        (func, pc): (usize, usize),
        id: &WorkItemId,
    ) {
        const MAX_REPORTS: usize = 1000;
        let site = self.site_base[func] + pc as u32;
        if self.diagnostics.len() < MAX_REPORTS && self.reported.insert((site, kind)) {
            let here = self.site(func, pc, id);
            self.diagnostics.push(Diagnostic {
                kind,
                message,
                site: here,
            });
        }
    }

    /// Checked mode, a faulting access: reports it (as Oclgrind words it)
    /// and lets the caller skip it; unchecked, the launch's error.
    fn invalid_access(
        &mut self,
        fault: Fault,
        access: AccessKind,
        p: u64,
        size: u64,
        at: (usize, usize),
        id: &WorkItemId,
    ) -> Result<(), InterpError> {
        if self.check.is_none() {
            return Err(self.fault(fault, access, at.0, at.1, id));
        }
        let write = matches!(
            access,
            AccessKind::Store | AccessKind::Write | AccessKind::Atomic
        );
        let rw = if write { "write" } else { "read" };
        let message = match fault {
            Fault::OutOfBounds { region, offset, .. } => {
                let space = self.mem.region(region).map_or("global", |r| match r.space {
                    Space::Global => "global",
                    Space::Constant => "constant",
                    Space::Local => "local",
                    Space::Private => "private",
                });
                let (name, len) = self.describe(region);
                let offset = signed_offset(offset);
                let whom = match len {
                    Some(n) => format!("{name} ({n} bytes)"),
                    None => name,
                };
                let place = if offset < 0 {
                    format!("{} bytes before the start of {whom}", -offset)
                } else {
                    format!("byte {offset} of {whom}")
                };
                format!(
                    "Invalid {rw} of size {size} at {space} memory address {p:#x}: {place}; it was skipped"
                )
            }
            Fault::ReadOnly { region } => format!(
                "Invalid {rw} of size {size} to read-only memory: {}; it was skipped",
                self.describe(region).0
            ),
        };
        self.report(DiagnosticKind::InvalidAccess, message, at, id);
        Ok(())
    }

    /// Checked mode, an access that happened: reports a misaligned
    /// address, and a write to a read-only (read of a write-only) buffer.
    fn check_access(
        &mut self,
        p: u64,
        size: u64,
        write: bool,
        at: (usize, usize),
        id: &WorkItemId,
    ) {
        let region = region_of(p);
        if size > 1 && size.is_power_of_two() && offset_of(p) % size != 0 {
            let (name, _) = self.describe(region);
            let rw = if write { "write" } else { "read" };
            let message = format!(
                "Unaligned {rw} of size {size} at byte {} of {name}",
                offset_of(p)
            );
            self.report(DiagnosticKind::Unaligned, message, at, id);
        }
        let mode = self
            .mem
            .region(region)
            .map_or(AccessMode::ReadWrite, |r| r.mode);
        let message = match (mode, write) {
            (AccessMode::ReadOnly, true) => "Invalid write to read-only buffer",
            (AccessMode::WriteOnly, false) => "Invalid read from write-only buffer",
            _ => return,
        };
        let message = format!(
            "{message}: {}, byte {}",
            self.describe(region).0,
            offset_of(p)
        );
        self.report(DiagnosticKind::AccessMode, message, at, id);
    }

    /// Records an access (write or read, atomic or not) by an instruction (function,
    /// code index) of a work-item (id, local linear id) for checked mode, and
    /// turns new findings into diagnostics.
    fn record(
        &mut self,
        p: u64,
        len: u64,
        (write, atomic): (bool, bool),
        (func, pc): (usize, usize),
        (id, linear): (&WorkItemId, u32),
    ) {
        self.async_access((p, len, write), (func, pc), (id, linear));
        let Some(ck) = &mut self.check else {
            return;
        };
        let before = ck.findings.len();
        let site = self.site_base[func] + pc as u32;
        ck.access(AccessRecord {
            region: region_of(p),
            offset: offset_of(p),
            len,
            write,
            atomic,
            site,
            item: linear,
        });
        if ck.findings.len() == before {
            return;
        }
        let new: Vec<_> = ck.findings[before..].to_vec();
        for f in new {
            let here = self.site(func, pc, id);
            let region = self.describe(f.region).0;
            let (kind, message) = match f.kind {
                FindingKind::Race { write, other_write } => {
                    let (of, opc) = self.site_of(f.other.site);
                    let other_group = f.other_group.unwrap_or(self.group_id);
                    let other_local = self.local_id_of(other_group, f.other.item as u64);
                    let other_site = self.site(of, opc, &WorkItemId::default());
                    let loc = other_site
                        .loc
                        .map(|l| format!(" at {}:{}", l.line, l.col))
                        .unwrap_or_default();
                    let when = if f.other_group.is_some() {
                        "in another work-group"
                    } else {
                        "in the same barrier interval"
                    };
                    let rw = |w: bool| if w { "write" } else { "read" };
                    (
                        DiagnosticKind::DataRace,
                        format!(
                            "data race on {region}, byte offset {}: {} here conflicts with {} by work-item local ({}, {}, {}) of group ({}, {}, {}){loc} (`{}`) {when}",
                            f.offset,
                            rw(write),
                            rw(other_write),
                            other_local[0],
                            other_local[1],
                            other_local[2],
                            other_group[0],
                            other_group[1],
                            other_group[2],
                            other_site.inst
                        ),
                    )
                }
            };
            self.diagnostics.push(Diagnostic {
                kind,
                message,
                site: here,
            });
        }
    }

    /// The function and code index of a launch-wide instruction id.
    fn site_of(&self, site: u32) -> (usize, usize) {
        let i = self
            .site_base
            .partition_point(|&b| b <= site)
            .saturating_sub(1);
        // Skip functions without code that share the base.
        let mut f = i;
        while f > 0 && self.func(f).is_none_or(|d| d.code.is_empty()) {
            f -= 1;
        }
        (f, (site - self.site_base[f]) as usize)
    }

    fn group_size_of(&self, group: [u64; 3]) -> [u64; 3] {
        let mut s = [1; 3];
        for d in 0..3 {
            let start = group[d].saturating_mul(self.range.local[d]);
            s[d] = self.range.local[d].min(self.range.global[d].saturating_sub(start));
        }
        s
    }

    fn local_id_of(&self, group: [u64; 3], linear: u64) -> [u64; 3] {
        let s = self.group_size_of(group);
        let (s0, s1) = (s[0].max(1), s[1].max(1));
        [linear % s0, (linear / s0) % s1, linear / (s0 * s1)]
    }

    fn run_all(&mut self) -> Result<(), InterpError> {
        let mut items: Vec<Item> = vec![Item::default()];
        let mut gangs = Vec::new();
        let width = self.func(self.kernel).and_then(|f| f.gang);
        let refill = self.func(self.kernel).is_some_and(|f| f.refill);
        let g = self.range.groups;
        for gz in 0..g[2] {
            for gy in 0..g[1] {
                for gx in 0..g[0] {
                    self.group_id = [gx, gy, gz];
                    self.group_size = self.group_size_of(self.group_id);
                    if self.group_size.contains(&0) {
                        continue;
                    }
                    self.items_taken = 0;
                    for &r in &self.local_regions {
                        self.mem.contents_mut(r).fill(0);
                    }
                    if let Some(ck) = &mut self.check {
                        ck.begin_group(self.group_id);
                    }
                    match width {
                        Some(w) => self.run_group_gangs(w as usize, refill, &mut gangs)?,
                        None => {
                            self.run_group(&mut items)?;
                            self.end_async_group();
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Runs the commands the launch's work-items enqueued, and those they
    /// enqueue, until none is left ([`DeviceWork::next`]).
    fn run_children(&mut self) -> Result<(), InterpError> {
        let device_fault = |e: Fault| InterpError::DeviceEnqueue {
            message: format!("writing a device event's profiling information faulted: {e:?}"),
        };
        loop {
            let mut mem = DeviceMem::new(&mut self.mem);
            let next = self.device.next(&mut mem);
            let written = mem.written;
            self.device_wrote(&written);
            let Some(child) = next.map_err(device_fault)? else {
                break;
            };
            self.run_child(&child)?;
            let mut mem = DeviceMem::new(&mut self.mem);
            let finished = self.device.finish(child.command, &mut mem);
            let written = mem.written;
            self.device_wrote(&written);
            finished.map_err(device_fault)?;
        }
        let waiting = self.device.waiting();
        if waiting > 0 {
            return Err(InterpError::DeviceEnqueue {
                message: format!(
                    "{waiting} enqueued command(s) wait for device events that never complete (a user event no work-item set to CL_COMPLETE), so the launch would never end"
                ),
            });
        }
        Ok(())
    }

    /// Checked mode: memory device enqueue wrote (an event handle, profiling
    /// times) is initialized.
    fn device_wrote(&mut self, written: &[(u64, u64)]) {
        if let Some(ck) = &mut self.check {
            for &(addr, len) in written {
                ck.fill_shadow(region_of(addr), offset_of(addr), len, true);
            }
        }
    }

    /// Runs one enqueued kernel in this launch's memory: its block literal
    /// copied to a region of its own, its `__local` arguments fresh.
    fn run_child(&mut self, child: &ChildLaunch) -> Result<(), InterpError> {
        let k = child.kernel;
        let name = &self.module.functions[k].name;
        let range = normalize_range(&NdRange {
            work_dim: child.work_dim,
            global_size: child.global_size,
            local_size: child.local_size,
            global_offset: child.global_offset,
        })?;
        let kf = self.func(k.index()).ok_or_else(|| InterpError::InvalidIr {
            function: name.clone(),
            message: "an enqueued kernel was not decoded".into(),
        })?;
        if kf.params.len() != 1 + child.local_sizes.len() {
            return Err(InterpError::InvalidIr {
                function: name.clone(),
                message: format!(
                    "enqueued with {} __local sizes for {} parameters",
                    child.local_sizes.len(),
                    kf.params.len()
                ),
            });
        }
        let too_many = || InterpError::Unsupported {
            what: "too many memory regions".into(),
            site: None,
        };
        let block_name = RegionName::Text(format!("block literal of enqueued kernel @{name}"));
        let block = self
            .mem
            .alloc(child.block.len() as u64, block_name, Space::Global)
            .ok_or_else(too_many)?;
        self.mem.contents_mut(block).copy_from_slice(&child.block);
        if let Some(ck) = &mut self.check {
            // Read-only for the child (and the region may be a freed one's
            // with other tracking).
            ck.track(block, Space::Global, child.block.len() as u64);
        }
        let mut template = kf.template.clone();
        template[kf.params[0] as usize] = addr(block, 0);
        let mut locals = Vec::new();
        for (i, &size) in child.local_sizes.iter().enumerate() {
            let region_name = RegionName::Text(format!("__local argument {} of @{name}", i + 1));
            let id = self
                .mem
                .alloc(size, region_name, Space::Local)
                .ok_or_else(too_many)?;
            if let Some(ck) = &mut self.check {
                ck.track(id, Space::Local, size);
            }
            template[kf.params[i + 1] as usize] = addr(id, 0);
            locals.push(id);
        }
        if let Some(ck) = &mut self.check {
            ck.begin_command();
        }
        self.kernel = k.index();
        self.range = range;
        self.template = template;
        self.byval.clear();
        self.local_regions = self.local_variables.clone();
        self.local_regions.extend(&locals);
        self.sub_group_width = self
            .func(k.index())
            .and_then(|f| f.gang)
            .unwrap_or_else(|| self.device.platform().sub_group_size(k))
            .max(1) as u64;
        let result = self.run_all();
        self.mem.free(block);
        for id in locals {
            self.mem.free(id);
        }
        result
    }

    /// The ids of the work-item with local linear id `linear` in the
    /// current group.
    fn work_item_id(&self, linear: u64) -> WorkItemId {
        let local = self.local_id_of(self.group_id, linear);
        let mut global = [0; 3];
        for d in 0..3 {
            global[d] = self.group_id[d]
                .wrapping_mul(self.range.local[d])
                .wrapping_add(local[d])
                .wrapping_add(self.range.offset[d]);
        }
        WorkItemId {
            global_id: global,
            local_id: local,
            group_id: self.group_id,
        }
    }

    fn start_item(&mut self, it: &mut Item, linear: u64) -> Result<(), InterpError> {
        it.id = self.work_item_id(linear);
        it.linear = linear as u32;
        it.state = State::Running;
        for r in it.slots.drain(..) {
            self.mem.free(r);
        }
        it.frames.clear();
        it.loops.clear();
        let n = self.template.len();
        if it.regs.len() < n {
            it.regs.resize(n, 0);
        }
        it.regs[..n].copy_from_slice(&self.template);
        if self.check.is_some() {
            if it.shadow.len() < n {
                it.shadow.resize(n, 0);
            }
            if let Some(kf) = self.prog.funcs[self.kernel].as_ref() {
                init_shadow(kf, &mut it.shadow[..n]);
            }
        }
        for (k, (reg, bytes)) in self.byval.iter().enumerate() {
            if it.byval.len() <= k {
                let name = RegionName::Text(format!("by-value argument copy {k}"));
                let r = self
                    .mem
                    .alloc(bytes.len() as u64, name, Space::Private)
                    .ok_or_else(|| InterpError::Unsupported {
                        what: "too many memory regions".into(),
                        site: None,
                    })?;
                it.byval.push(r);
            }
            let r = it.byval[k];
            self.mem.contents_mut(r).copy_from_slice(bytes);
            it.regs[*reg as usize] = addr(r, 0);
        }
        self.push_frame(it, self.kernel, 0, NO_REG, 0)
    }

    fn push_frame(
        &mut self,
        it: &mut Item,
        func: usize,
        base: usize,
        ret: Reg,
        caller_pc: usize,
    ) -> Result<(), InterpError> {
        let slots = it.slots.len() as u32;
        let sizes = match self.func(func) {
            Some(f) => &f.slot_sizes,
            None => {
                return Err(InterpError::InvalidIr {
                    function: self.module.functions[FuncId::new(func)].name.clone(),
                    message: "function was not decoded".into(),
                })
            }
        };
        for (k, &size) in sizes.iter().enumerate() {
            let name = RegionName::StackSlot {
                func: func as u32,
                slot: k as u32,
            };
            match self.mem.alloc(size as u64, name, Space::Private) {
                Some(r) => {
                    // A fresh frame's slot: nothing written yet.
                    if let Some(ck) = &mut self.check {
                        ck.track(r, Space::Private, size as u64);
                    }
                    it.slots.push(r)
                }
                None => {
                    let caller = it.frames.last().map_or(func, |f| f.func as usize);
                    return Err(InterpError::Unsupported {
                        what: "too many live stack slots".into(),
                        site: Some(Box::new(self.site(caller, caller_pc, &it.id))),
                    });
                }
            }
        }
        it.frames.push(Frame {
            func: func as u32,
            pc: 0,
            base: base as u32,
            slots,
            ret,
        });
        it.loops.push(LoopStack::new());
        Ok(())
    }

    fn run_group(&mut self, items: &mut Vec<Item>) -> Result<(), InterpError> {
        let s = self.group_size;
        let n = (s[0] * s[1] * s[2]) as usize;
        if !self.prog.has_barrier && !self.prog.has_sub_group {
            let it = &mut items[0];
            for lin in 0..n {
                self.start_item(it, lin as u64)?;
                while let Stop::Barrier = self.run_item(it)? {
                    // Only reachable with a barrier-free program... which
                    // this is: treat as a barrier of a one-item group.
                }
            }
            return Ok(());
        }
        while items.len() < n {
            items.push(Item::default());
        }
        for (lin, it) in items[..n].iter_mut().enumerate() {
            self.start_item(it, lin as u64)?;
        }
        loop {
            for it in items[..n].iter_mut() {
                if it.state == State::Running {
                    it.state = match self.run_item(it)? {
                        Stop::Done => State::Done,
                        Stop::Barrier => State::AtBarrier,
                        Stop::SubGroup => State::AtCollective,
                    };
                }
            }
            if self.run_collectives(&mut items[..n])? {
                continue;
            }
            let done = items[..n]
                .iter()
                .filter(|it| it.state == State::Done)
                .count();
            if done == n {
                return Ok(());
            }
            let waiting = items[..n]
                .iter()
                .position(|it| it.state != State::Done)
                .unwrap_or(0);
            let w = &items[waiting];
            let describe_barrier = |it: &Item| {
                let f = it.frames.last().map_or(self.kernel, |f| f.func as usize);
                let pc = it
                    .frames
                    .last()
                    .map_or(0, |f| f.pc as usize)
                    .saturating_sub(1);
                let site = self.site(f, pc, &it.id);
                let loc = site
                    .loc
                    .map(|l| format!(" at {}:{}", l.line, l.col))
                    .unwrap_or_default();
                format!("barrier `{}`{loc} in @{}", site.inst, site.function)
            };
            let lid = |it: &Item| {
                let [a, b, c] = it.id.local_id;
                format!("work-item local ({a}, {b}, {c})")
            };
            let same = |a: &Item, b: &Item| {
                a.frames.len() == b.frames.len()
                    && a.frames
                        .iter()
                        .zip(&b.frames)
                        .all(|(x, y)| x.func == y.func && x.pc == y.pc)
            };
            let divergence = if done > 0 {
                let d = items[..n]
                    .iter()
                    .find(|it| it.state == State::Done)
                    .unwrap_or(w);
                Some(format!(
                    "{} waits at {} but {} returned without reaching it",
                    lid(w),
                    describe_barrier(w),
                    lid(d)
                ))
            } else {
                items[..n].iter().find(|it| !same(w, it)).map(|other| {
                    format!(
                        "{} waits at {} but {} waits at {}",
                        lid(w),
                        describe_barrier(w),
                        lid(other),
                        describe_barrier(other)
                    )
                })
            };
            if let Some(message) = divergence {
                // Unchecked, the launch stops; checked mode reports it and
                // releases the waiting work-items together, as Oclgrind
                // does.
                if self.check.is_none() {
                    return Err(InterpError::BarrierDivergence {
                        group: self.group_id,
                        message,
                    });
                }
                self.report_divergence(&items[..n], waiting);
            }
            if let Some(ck) = &mut self.check {
                ck.barrier();
            }
            for it in items[..n].iter_mut() {
                if it.state == State::AtBarrier {
                    it.state = State::Running;
                }
            }
        }
    }

    /// Checked mode: reports a barrier that not every work-item of the
    /// group reached (or not the same one), listing where each work-item
    /// stands, once per barrier instruction of the work-item `first`.
    fn report_divergence(&mut self, items: &[Item], first: usize) {
        let place = |it: &Item| {
            (it.state != State::Done)
                .then(|| it.frames.iter().map(|f| (f.func, f.pc)).collect::<Vec<_>>())
        };
        let mut places: Vec<(Place, Vec<u32>)> = Vec::new();
        for it in items {
            let p = place(it);
            match places.iter_mut().find(|(q, _)| *q == p) {
                Some((_, ids)) => ids.push(it.linear),
                None => places.push((p, vec![it.linear])),
            }
        }
        // Those that wait first, then those that returned.
        places.sort_by_key(|(p, _)| p.is_none());
        let parts: Vec<String> = places
            .iter()
            .map(|(p, ids)| {
                let s = if ids.len() == 1 { "" } else { "s" };
                let who = format!("local linear id{s} {}", id_ranges(ids, "-"));
                match p.as_ref().and_then(|p| p.last()) {
                    None => format!("{who} returned without reaching it"),
                    Some(&(f, pc)) => {
                        let site =
                            self.site(f as usize, pc.saturating_sub(1) as usize, &items[0].id);
                        let loc = site
                            .loc
                            .map(|l| format!(" at {}:{}", l.line, l.col))
                            .unwrap_or_default();
                        format!("{who} wait at `{}`{loc} in @{}", site.inst, site.function)
                    }
                }
            })
            .collect();
        let [a, b, c] = self.group_id;
        let message = format!(
            "barrier divergence in work-group ({a}, {b}, {c}): {}; the waiting work-items were released together",
            parts.join("; ")
        );
        let w = &items[first];
        let Some(frame) = w.frames.last() else {
            return;
        };
        let at = (frame.func as usize, frame.pc.saturating_sub(1) as usize);
        // A work-group function's barriers share its call's line: one
        // report for the call.
        let loc = self.site(at.0, at.1, &w.id).loc;
        let same_call = |d: &Diagnostic| {
            d.kind == DiagnosticKind::BarrierDivergence && loc.is_some() && d.site.loc == loc
        };
        if self.diagnostics.iter().any(same_call) {
            return;
        }
        self.report(DiagnosticKind::BarrierDivergence, message, at, &w.id);
    }

    /// Runs, in each subgroup of the group whose work-items have all
    /// stopped, the subgroup collective that comes first among those its
    /// work-items wait at, for the work-items that wait there (see the
    /// `converge` module). Returns whether one ran.
    fn run_collectives(&mut self, items: &mut [Item]) -> Result<bool, InterpError> {
        if !self.prog.has_sub_group {
            return Ok(false);
        }
        let width = self.sub_group_width as usize;
        let mut ran = false;
        for group in items.chunks_mut(width) {
            if group.iter().any(|it| it.state == State::Running)
                || !group.iter().any(|it| it.state == State::AtCollective)
            {
                continue;
            }
            let positions: Vec<Option<Vec<(u32, u32)>>> = group
                .iter()
                .map(|it| (it.state == State::AtCollective).then(|| self.position(it)))
                .collect();
            let first = positions.iter().flatten().min().cloned();
            let lanes: Vec<bool> = positions.iter().map(|p| *p == first).collect();
            self.collective(group, &lanes)?;
            ran = true;
        }
        Ok(ran)
    }

    /// Where `it` stands in its gang's schedule (see the `converge` module).
    fn position(&self, it: &Item) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        let depth = it.frames.len();
        for (k, (frame, loops)) in it.frames.iter().zip(&it.loops).enumerate() {
            let f = self
                .func(frame.func as usize)
                .expect("a running function is decoded");
            // Outer frames stand after their call.
            let pc = if k + 1 == depth {
                frame.pc
            } else {
                frame.pc.saturating_sub(1)
            };
            let block = f.blocks.get(pc as usize).copied().unwrap_or(0);
            match &f.convergence {
                Some(cv) => cv.position(loops, block, pc, &mut out),
                None => out.push((0, pc)),
            }
        }
        out
    }

    /// Runs the subgroup collective the work-items `lanes` of the subgroup
    /// `group` wait at, and lets them go on.
    fn collective(&mut self, group: &mut [Item], lanes: &[bool]) -> Result<(), InterpError> {
        let Some(l0) = lanes.iter().position(|&p| p) else {
            return Ok(());
        };
        let frame = *group[l0]
            .frames
            .last()
            .expect("a waiting work-item has a frame");
        let f = self.func(frame.func as usize).expect("decoded");
        let Op::SubGroup {
            op,
            ty,
            dst,
            a,
            b,
            cluster,
        } = f.code[frame.pc as usize]
        else {
            return Err(self.invalid_at(frame, "a work-item waits where there is no collective"));
        };
        let width = self.sub_group_width as usize;
        let (values, set) = lane_operands(group, lanes, width, |it| it.reg(a));
        let flags = || (0..width).filter(|&l| set[l]).map(|l| values[l] & 1 != 0);
        let results: Vec<u64> = match op {
            GangOp::Any => vec![flags().any(|x| x) as u64; width],
            GangOp::All => vec![flags().all(|x| x) as u64; width],
            GangOp::Ballot => vec![ballot(&values, &set); width],
            GangOp::Broadcast | GangOp::Shuffle => read_lanes(group, lanes, &values, b),
            _ => match op.collective() {
                Some((kind, combine)) => crate::collective::collective(
                    kind,
                    combine,
                    ty,
                    &values,
                    &set,
                    cluster as usize,
                ),
                None => {
                    return Err(self.invalid_at(frame, "not a subgroup collective"));
                }
            },
        };
        let shadows = self.collective_shadows(group, lanes, (op, cluster), (a, b));
        if let (Some(ck), Some(it)) = (&mut self.check, group.first()) {
            ck.sub_group_sync(it.linear / self.sub_group_width as u32);
        }
        for (l, it) in group.iter_mut().enumerate() {
            if !lanes[l] {
                continue;
            }
            let fr = it
                .frames
                .last_mut()
                .expect("a waiting work-item has a frame");
            it.regs[fr.base as usize + dst as usize] = results[l];
            if let Some(s) = it.shadow.get_mut(fr.base as usize + dst as usize) {
                *s = shadows.get(l).copied().unwrap_or(0);
            }
            fr.pc += 1;
            it.state = State::Running;
        }
        Ok(())
    }

    fn invalid_at(&self, frame: Frame, message: &str) -> InterpError {
        InterpError::InvalidIr {
            function: f_name(self.module, frame.func as usize),
            message: message.into(),
        }
    }

    fn query(&self, q: WorkItemQuery, dim: u8, id: &WorkItemId, linear: u32) -> u64 {
        let d = dim as usize;
        if d > 2 {
            return match q {
                WorkItemQuery::GlobalSize
                | WorkItemQuery::LocalSize
                | WorkItemQuery::EnqueuedLocalSize
                | WorkItemQuery::NumGroups => 1,
                WorkItemQuery::WorkDim => self.range.dim as u64,
                _ => 0,
            };
        }
        let r = &self.range;
        match q {
            WorkItemQuery::GlobalId => id.global_id[d],
            WorkItemQuery::LocalId => id.local_id[d],
            WorkItemQuery::GroupId => self.group_id[d],
            WorkItemQuery::GlobalSize => r.global[d],
            WorkItemQuery::LocalSize => self.group_size[d],
            WorkItemQuery::EnqueuedLocalSize => r.local[d],
            WorkItemQuery::NumGroups => r.groups[d],
            WorkItemQuery::GlobalOffset => r.offset[d],
            WorkItemQuery::WorkDim => r.dim as u64,
            WorkItemQuery::GlobalLinearId => {
                let g = |k: usize| id.global_id[k].wrapping_sub(r.offset[k]);
                g(2).wrapping_mul(r.global[1])
                    .wrapping_mul(r.global[0])
                    .wrapping_add(g(1).wrapping_mul(r.global[0]))
                    .wrapping_add(g(0))
            }
            WorkItemQuery::LocalLinearId => linear as u64,
            _ => self.sub_group_query(q, linear),
        }
    }

    /// A subgroup query for the work-item of local linear id `linear`.
    fn sub_group_query(&self, q: WorkItemQuery, linear: u32) -> u64 {
        let w = self.sub_group_width;
        let linear = u64::from(linear);
        let items = self.group_size.iter().product::<u64>();
        let enqueued = self.range.local.iter().product::<u64>();
        match q {
            WorkItemQuery::SubGroupSize => w.min(items - linear / w * w),
            WorkItemQuery::MaxSubGroupSize => w.min(enqueued),
            WorkItemQuery::NumSubGroups => items.div_ceil(w),
            WorkItemQuery::EnqueuedNumSubGroups => enqueued.div_ceil(w),
            WorkItemQuery::SubGroupId => linear / w,
            _ => linear % w,
        }
    }

    /// Runs `it` until it returns from the kernel or reaches a barrier.
    fn run_item(&mut self, it: &mut Item) -> Result<Stop, InterpError> {
        if self.check.is_some() {
            self.run::<true>(it)
        } else {
            self.run::<false>(it)
        }
    }

    /// [`Exec::run_item`], compiled twice: with `SHADOW` (checked mode) it
    /// tracks uninitialized values, without it pays nothing for them.
    fn run<const SHADOW: bool>(&mut self, it: &mut Item) -> Result<Stop, InterpError> {
        let prog = self.prog;
        'frames: loop {
            let Some(frame) = it.frames.last().copied() else {
                return Ok(Stop::Done);
            };
            let fidx = frame.func as usize;
            let base = frame.base as usize;
            let slot_base = frame.slots as usize;
            let mut pc = frame.pc as usize;
            let Some(f) = prog.funcs.get(fidx).and_then(|f| f.as_ref()) else {
                return Err(InterpError::InvalidIr {
                    function: self.module.functions[FuncId::new(fidx)].name.clone(),
                    message: "function was not decoded".into(),
                });
            };
            let code = &f.code[..];
            let regs = &mut it.regs[base..base + f.nregs];
            // Checked mode tracks uninitialized values in scalar IR.
            let shadowed = SHADOW && f.gang.is_none();
            let sh: &mut [u64] = if shadowed {
                &mut it.shadow[base..base + f.nregs]
            } else {
                &mut []
            };
            let id = &it.id;
            let linear = it.linear;
            loop {
                let at = pc;
                let op = &code[pc];
                pc += 1;
                self.steps += 1;
                if self.steps > self.max_steps {
                    return Err(InterpError::StepLimit {
                        limit: self.max_steps,
                        site: Box::new(self.site(fidx, at, id)),
                    });
                }
                let r = |x: Reg| x as usize;
                match *op {
                    Op::Barrier { .. } => {
                        if let Some(fr) = it.frames.last_mut() {
                            fr.pc = pc as u32;
                        }
                        return Ok(Stop::Barrier);
                    }
                    Op::SubGroup { op, b, .. } => {
                        // The lane a broadcast or shuffle reads is an index;
                        // the values' shadows go to the results.
                        if shadowed && matches!(op, GangOp::Broadcast | GangOp::Shuffle) {
                            let what = "a subgroup broadcast or shuffle as its lane";
                            self.uninit_operand(sh[r(b)], what, (fidx, at), id);
                        }
                        if let Some(fr) = it.frames.last_mut() {
                            fr.pc = at as u32;
                        }
                        return Ok(Stop::SubGroup);
                    }
                    Op::Nop => {}
                    Op::Jump(ref e) => {
                        if shadowed {
                            take_edge(sh, &f.copies, e, &mut it.scratch);
                        }
                        pc = take_edge(regs, &f.copies, e, &mut it.scratch);
                        track(f, &mut it.loops, e);
                    }
                    Op::Brif {
                        cond,
                        ref then_edge,
                        ref else_edge,
                    } => {
                        let e = if regs[r(cond)] & 1 != 0 {
                            then_edge
                        } else {
                            else_edge
                        };
                        if shadowed {
                            self.uninit_branch(sh[r(cond)] & 1, (fidx, at), id);
                            take_edge(sh, &f.copies, e, &mut it.scratch);
                        }
                        pc = take_edge(regs, &f.copies, e, &mut it.scratch);
                        track(f, &mut it.loops, e);
                    }
                    Op::Switch { arg, index } => {
                        let table = &f.switches[index as usize];
                        let v = regs[r(arg)];
                        let e = table
                            .cases
                            .iter()
                            .find(|(c, _)| *c == v)
                            .map_or(&table.default, |(_, e)| e);
                        if shadowed {
                            self.uninit_branch(sh[r(arg)], (fidx, at), id);
                            take_edge(sh, &f.copies, e, &mut it.scratch);
                        }
                        pc = take_edge(regs, &f.copies, e, &mut it.scratch);
                        track(f, &mut it.loops, e);
                    }
                    Op::Call {
                        func: callee,
                        start,
                        len,
                        dst,
                    } => {
                        let callee = callee as usize;
                        let Some(cf) = self.func(callee) else {
                            return Err(InterpError::InvalidIr {
                                function: f_name(self.module, callee),
                                message: "function was not decoded".into(),
                            });
                        };
                        if it.frames.len() >= MAX_CALL_DEPTH {
                            return Err(InterpError::Unsupported {
                                what: format!(
                                    "calls nested more than {MAX_CALL_DEPTH} deep (recursion?)"
                                ),
                                site: Some(Box::new(self.site(fidx, at, id))),
                            });
                        }
                        it.scratch.clear();
                        let arg_regs = &f.call_args[start as usize..(start + len) as usize];
                        it.scratch.extend(arg_regs.iter().map(|&a| regs[r(a)]));
                        if shadowed {
                            // The arguments' shadows follow their values.
                            it.scratch.extend(arg_regs.iter().map(|&a| sh[r(a)]));
                        }
                        let new_base = base + f.nregs;
                        let need = new_base + cf.nregs;
                        if it.regs.len() < need {
                            it.regs.resize(need, 0);
                        }
                        it.regs[new_base..need].copy_from_slice(&cf.template);
                        for (k, &p) in cf.params.iter().enumerate() {
                            it.regs[new_base + r(p)] = it.scratch[k];
                        }
                        if shadowed {
                            if it.shadow.len() < need {
                                it.shadow.resize(need, 0);
                            }
                            init_shadow(cf, &mut it.shadow[new_base..need]);
                            for (k, &p) in cf.params.iter().enumerate() {
                                it.shadow[new_base + r(p)] = it.scratch[len as usize + k];
                            }
                        }
                        if let Some(fr) = it.frames.last_mut() {
                            fr.pc = pc as u32;
                        }
                        self.push_frame(it, callee, new_base, dst, at)?;
                        continue 'frames;
                    }
                    Op::Return { arg } => {
                        let value = if arg == NO_REG { 0 } else { regs[r(arg)] };
                        let shadow = if shadowed && arg != NO_REG {
                            sh[r(arg)]
                        } else {
                            0
                        };
                        it.frames.pop();
                        it.loops.pop();
                        for region in it.slots.drain(slot_base..) {
                            self.mem.free(region);
                        }
                        match it.frames.last() {
                            None => return Ok(Stop::Done),
                            Some(caller) => {
                                if frame.ret != NO_REG {
                                    it.regs[caller.base as usize + r(frame.ret)] = value;
                                    if shadowed {
                                        it.shadow[caller.base as usize + r(frame.ret)] = shadow;
                                    }
                                }
                            }
                        }
                        continue 'frames;
                    }
                    Op::Unreachable => {
                        return Err(InterpError::Unreachable {
                            site: Box::new(self.site(fidx, at, id)),
                        });
                    }
                    Op::FellOff => {
                        return Err(InterpError::InvalidIr {
                            function: f_name(self.module, fidx),
                            message: "control reached the end of a block without a terminator"
                                .into(),
                        });
                    }
                    _ => {
                        let lane = Lane {
                            regs: &mut *regs,
                            slots: &it.slots[slot_base..],
                            id,
                            linear,
                        };
                        if !self.data_op(op, f, lane, (fidx, at))? {
                            return Err(InterpError::InvalidIr {
                                function: f_name(self.module, fidx),
                                message: "a gang operation outside gang-level IR".into(),
                            });
                        }
                        if shadowed {
                            self.shadow_data(op, f, (regs, sh), (fidx, at), id);
                        }
                    }
                }
            }
        }
    }

    /// Runs `op` for one work-item (or one lane of a gang) if it is a data
    /// operation: anything but control flow, calls, barriers and gang
    /// operations. Returns whether it was one.
    #[inline(always)]
    fn data_op(
        &mut self,
        op: &Op,
        f: &DecodedFunc,
        lane: Lane<'_>,
        (fidx, at): (usize, usize),
    ) -> Result<bool, InterpError> {
        let Lane {
            regs,
            slots,
            id,
            linear,
        } = lane;
        let checked = self.check.is_some();
        let r = |x: Reg| x as usize;
        match *op {
            Op::IntUnary { op, bits, dst, a } => {
                regs[r(dst)] = int_unary(op, bits, regs[r(a)]);
            }
            Op::FloatUnary { op, ty, dst, a } => {
                regs[r(dst)] = float_unary_bits(op, ty, regs[r(a)]);
            }
            Op::IntBinary {
                op,
                bits,
                dst,
                a,
                b,
            } => {
                // Gang-level IR divides in inactive lanes too: only scalar
                // IR's divisions are a work-item's.
                if checked
                    && f.gang.is_none()
                    && matches!(
                        op,
                        BinaryOp::Udiv | BinaryOp::Sdiv | BinaryOp::Urem | BinaryOp::Srem
                    )
                    && regs[r(b)] & mask(bits) == 0
                {
                    self.report(
                        DiagnosticKind::DivisionByZero,
                        "Integer division by zero".to_string(),
                        (fidx, at),
                        id,
                    );
                }
                regs[r(dst)] = int_binary(op, bits, regs[r(a)], regs[r(b)]);
            }
            Op::FloatBinary { op, ty, dst, a, b } => {
                regs[r(dst)] = float_binary_bits(op, ty, regs[r(a)], regs[r(b)]);
            }
            Op::IntTernary {
                op,
                bits,
                dst,
                a,
                b,
                c,
            } => {
                regs[r(dst)] = int_ternary(op, bits, regs[r(a)], regs[r(b)], regs[r(c)]);
            }
            Op::Fma { ty, dst, a, b, c } => {
                regs[r(dst)] = fma_bits(ty, regs[r(a)], regs[r(b)], regs[r(c)]);
            }
            Op::Icmp {
                cond,
                bits,
                dst,
                a,
                b,
            } => {
                regs[r(dst)] = icmp(cond, bits, regs[r(a)], regs[r(b)]) as u64;
            }
            Op::Fcmp {
                cond,
                ty,
                dst,
                a,
                b,
            } => {
                regs[r(dst)] = fcmp_bits(cond, ty, regs[r(a)], regs[r(b)]) as u64;
            }
            Op::Select { dst, c, a, b } => {
                regs[r(dst)] = if regs[r(c)] & 1 != 0 {
                    regs[r(a)]
                } else {
                    regs[r(b)]
                };
            }
            Op::Convert {
                op,
                from,
                to,
                rounding,
                dst,
                a,
            } => {
                regs[r(dst)] = convert(op, from, to, rounding, regs[r(a)]);
            }
            Op::PtrAdd { dst, a, b } => {
                let p = regs[r(a)];
                regs[r(dst)] = (p & !OFFSET_MASK) | (p.wrapping_add(regs[r(b)]) & OFFSET_MASK);
            }
            Op::Load { ty, dst, ptr } => {
                let p = regs[r(ptr)];
                let n = ty.bytes();
                match self.mem.load(p, n) {
                    Ok(v) => {
                        regs[r(dst)] = if ty == Type::I1 { v & 1 } else { v };
                        if checked {
                            self.check_access(p, n as u64, false, (fidx, at), id);
                            let flags = (false, false);
                            self.record(p, n as u64, flags, (fidx, at), (id, linear));
                        }
                    }
                    Err(e) => {
                        self.invalid_access(e, AccessKind::Load, p, n as u64, (fidx, at), id)?;
                        regs[r(dst)] = 0;
                    }
                }
            }
            Op::Store { ty, val, ptr } => {
                let p = regs[r(ptr)];
                let n = ty.bytes();
                match self.mem.store(p, n, regs[r(val)]) {
                    Ok(()) => {
                        if checked {
                            self.check_access(p, n as u64, true, (fidx, at), id);
                            let flags = (true, false);
                            self.record(p, n as u64, flags, (fidx, at), (id, linear));
                        }
                    }
                    Err(e) => {
                        self.invalid_access(e, AccessKind::Store, p, n as u64, (fidx, at), id)?
                    }
                }
            }
            Op::StackAddr { dst, slot } => {
                let region = slots[slot as usize];
                regs[r(dst)] = addr(region, 0);
            }
            Op::MemCopy { dst, src, len } => {
                let (d, s, n) = (regs[r(dst)], regs[r(src)], regs[r(len)]);
                if n != 0 {
                    if let Err(e) = self.mem.bytes(s, n) {
                        self.invalid_access(e, AccessKind::Read, s, n, (fidx, at), id)?;
                        return Ok(true);
                    }
                    if let Err(e) = self.mem.bytes_mut(d, n) {
                        self.invalid_access(e, AccessKind::Write, d, n, (fidx, at), id)?;
                        return Ok(true);
                    }
                    self.mem
                        .copy(d, s, n)
                        .map_err(|e| self.fault(e, AccessKind::Write, fidx, at, id))?;
                    if checked {
                        self.record(s, n, (false, false), (fidx, at), (id, linear));
                        self.record(d, n, (true, false), (fidx, at), (id, linear));
                    }
                }
            }
            Op::MemSet { dst, byte, len } => {
                let (d, b, n) = (regs[r(dst)], regs[r(byte)], regs[r(len)]);
                if n != 0 {
                    match self.mem.bytes_mut(d, n) {
                        Ok(bytes) => bytes.fill(b as u8),
                        Err(e) => {
                            self.invalid_access(e, AccessKind::Write, d, n, (fidx, at), id)?;
                            return Ok(true);
                        }
                    }
                    if checked {
                        self.record(d, n, (true, false), (fidx, at), (id, linear));
                    }
                }
            }
            Op::AtomicRmw {
                op,
                ty,
                dst,
                ptr,
                val,
            } => {
                let p = regs[r(ptr)];
                let n = ty.bytes();
                let old = self.atomic_load(p, n, (fidx, at), id)?;
                let new = atomic_op(op, ty, old, regs[r(val)]);
                self.mem
                    .store(p, n, new)
                    .map_err(|e| self.fault(e, AccessKind::Atomic, fidx, at, id))?;
                regs[r(dst)] = old;
                if checked {
                    self.record(p, n as u64, (true, true), (fidx, at), (id, linear));
                }
            }
            Op::AtomicCas {
                ty,
                dst,
                ptr,
                expected,
                new,
            } => {
                let p = regs[r(ptr)];
                let n = ty.bytes();
                let old = self.atomic_load(p, n, (fidx, at), id)?;
                if old == regs[r(expected)] & ty.int_mask() {
                    self.mem
                        .store(p, n, regs[r(new)])
                        .map_err(|e| self.fault(e, AccessKind::Atomic, fidx, at, id))?;
                }
                regs[r(dst)] = old;
                if checked {
                    self.record(p, n as u64, (true, true), (fidx, at), (id, linear));
                }
            }
            Op::AtomicLoad { ty, dst, ptr } => {
                let p = regs[r(ptr)];
                let n = ty.bytes();
                regs[r(dst)] = self.atomic_load(p, n, (fidx, at), id)?;
                if checked {
                    self.record(p, n as u64, (false, true), (fidx, at), (id, linear));
                }
            }
            Op::AtomicStore { ty, val, ptr } => {
                let p = regs[r(ptr)];
                let n = ty.bytes();
                self.atomic_load(p, n, (fidx, at), id)?;
                self.mem
                    .store(p, n, regs[r(val)])
                    .map_err(|e| self.fault(e, AccessKind::Atomic, fidx, at, id))?;
                if checked {
                    self.record(p, n as u64, (true, true), (fidx, at), (id, linear));
                }
            }
            Op::Nop => {}
            Op::WorkItem { query, dim, dst } => {
                regs[r(dst)] = self.query(query, dim, id, linear);
            }
            Op::NextItem { dst } => {
                let items = self.group_size.iter().product::<u64>();
                regs[r(dst)] = if self.items_taken < items {
                    self.items_taken += 1;
                    self.items_taken - 1
                } else {
                    u32::MAX as u64
                };
            }
            Op::AsyncCopied { index, dst } => {
                let args = &f.async_copies[index as usize];
                regs[r(dst)] = if checked && f.gang.is_none() {
                    self.async_copied(args, regs, (fidx, at), (id, linear))
                } else {
                    regs[r(args.regs[5])]
                };
            }
            Op::AsyncWait { event } => {
                if checked && f.gang.is_none() {
                    self.async_wait(regs[r(event)], (fidx, at), (id, linear));
                }
            }
            Op::DeviceEnqueue { index, dst } => {
                let call = &f.device_calls[index as usize];
                let args: Vec<u64> = call
                    .args
                    .iter()
                    .map(|&(a, t)| regs[r(a)] & t.int_mask())
                    .collect();
                let mut mem = DeviceMem::new(&mut self.mem);
                let result = self
                    .device
                    .call(self.module, call.op, call.kernel, &args, &mut mem);
                let written = mem.written;
                self.device_wrote(&written);
                let result = result.map_err(|e| self.fault(e, AccessKind::Read, fidx, at, id))?;
                if dst != NO_REG {
                    regs[r(dst)] = result;
                }
            }
            Op::Printf { index, dst } => {
                let call = &f.printfs[index as usize];
                let args: Vec<(u64, Type)> =
                    call.args.iter().map(|&(a, t)| (regs[r(a)], t)).collect();
                let mem = &self.mem;
                let result = crate::printf::format(&call.format, &args, &mut |a| mem.c_string(a));
                let status = match result {
                    Ok(text) => {
                        self.out.push_str(&text);
                        0
                    }
                    Err(crate::printf::PrintfError::Format(_)) => u32::MAX as u64,
                    Err(crate::printf::PrintfError::Read(e)) => {
                        return Err(self.fault(e, AccessKind::Read, fidx, at, id));
                    }
                };
                if dst != NO_REG {
                    regs[r(dst)] = status;
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Loads the old value of an atomic access, checking its alignment.
    fn atomic_load(
        &self,
        p: u64,
        n: u32,
        (func, pc): (usize, usize),
        id: &WorkItemId,
    ) -> Result<u64, InterpError> {
        let v = self
            .mem
            .load(p, n)
            .map_err(|e| self.fault(e, AccessKind::Atomic, func, pc, id))?;
        if offset_of(p) & (n as u64 - 1) != 0 {
            return Err(InterpError::MisalignedAtomic {
                region: self.describe(region_of(p)).0,
                offset: offset_of(p) as i64,
                size: n as u64,
                site: Box::new(self.site(func, pc, id)),
            });
        }
        Ok(v)
    }
}

/// Keeps the loop counts of a frame of a function with subgroup
/// collectives as it takes the branch `e`.
#[inline]
fn track(f: &DecodedFunc, loops: &mut [LoopStack], e: &Edge) {
    if let (Some(cv), Some(stack)) = (&f.convergence, loops.last_mut()) {
        cv.enter(stack, e.block);
    }
}

fn f_name(module: &Module, index: usize) -> String {
    module
        .functions
        .get(FuncId::new(index))
        .map_or_else(|| format!("fn{index}"), |f| f.name.clone())
}
