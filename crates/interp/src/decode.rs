//! Decoding: each function the kernel can reach becomes a flat array of
//! compact operations over a dense register file, once per launch.
//!
//! Registers are the function's defined values renumbered densely; each
//! work-item frame owns a window of `u64` registers. Constants
//! (`iconst`, `fconst`, and `global_addr`, whose addresses are fixed for the
//! launch) are not executed at all: they are written into the frame's
//! initial register image, which is copied in when the frame starts. Branch
//! targets are code indices, and block arguments become register copies.

use cranelift_entity::{EntityRef, SecondaryMap};
use lockstep_ir::{
    AtomicRmwOp, BinaryOp, Block, BlockCall, ConvertOp, DeviceOp, FloatCC, FuncId, Function,
    GangOp, Inst, InstData, IntCC, Module, Rounding, TernaryOp, Type, UnaryOp, Value, ValueDef,
    WorkItemQuery,
};

use crate::converge::Convergence;
use crate::error::InterpError;

/// A register index within a frame.
pub type Reg = u32;
/// "No register" (a call without a result, a `return` without a value).
pub const NO_REG: Reg = u32::MAX;

/// A branch: the target's code index and the block-argument copies
/// `copies[start..start + len]` as `(source, destination)` registers.
#[derive(Copy, Clone, Debug)]
pub struct Edge {
    pub pc: u32,
    /// The target block (its index), for the loop counts of subgroups.
    pub block: u32,
    pub start: u32,
    pub len: u32,
    /// Some destination is also a source: copy through a temporary.
    pub parallel: bool,
}

#[derive(Clone, Debug)]
pub enum Op {
    IntUnary {
        op: UnaryOp,
        bits: u32,
        dst: Reg,
        a: Reg,
    },
    FloatUnary {
        op: UnaryOp,
        ty: Type,
        dst: Reg,
        a: Reg,
    },
    IntBinary {
        op: BinaryOp,
        bits: u32,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    FloatBinary {
        op: BinaryOp,
        ty: Type,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    IntTernary {
        op: TernaryOp,
        bits: u32,
        dst: Reg,
        a: Reg,
        b: Reg,
        c: Reg,
    },
    Fma {
        ty: Type,
        dst: Reg,
        a: Reg,
        b: Reg,
        c: Reg,
    },
    Icmp {
        cond: IntCC,
        bits: u32,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    Fcmp {
        cond: FloatCC,
        ty: Type,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    Select {
        dst: Reg,
        c: Reg,
        a: Reg,
        b: Reg,
    },
    Convert {
        op: ConvertOp,
        from: Type,
        to: Type,
        /// `saturate` is not kept: float-to-int conversions always saturate.
        rounding: Rounding,
        dst: Reg,
        a: Reg,
    },
    PtrAdd {
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    Load {
        ty: Type,
        dst: Reg,
        ptr: Reg,
    },
    Store {
        ty: Type,
        val: Reg,
        ptr: Reg,
    },
    StackAddr {
        dst: Reg,
        slot: u32,
    },
    MemCopy {
        dst: Reg,
        src: Reg,
        len: Reg,
    },
    MemSet {
        dst: Reg,
        byte: Reg,
        len: Reg,
    },
    AtomicRmw {
        op: AtomicRmwOp,
        ty: Type,
        dst: Reg,
        ptr: Reg,
        val: Reg,
    },
    AtomicCas {
        ty: Type,
        dst: Reg,
        ptr: Reg,
        expected: Reg,
        new: Reg,
    },
    AtomicLoad {
        ty: Type,
        dst: Reg,
        ptr: Reg,
    },
    AtomicStore {
        ty: Type,
        val: Reg,
        ptr: Reg,
    },
    /// Fences: execution is sequential, so there is nothing to order.
    Nop,
    /// A barrier (a suspend point in gang-level IR). `arriving`: the mask
    /// of the lanes that reach it, which must be every active lane
    /// (`NO_REG`: not gang-level IR).
    Barrier {
        arriving: Reg,
    },
    WorkItem {
        query: WorkItemQuery,
        dim: u8,
        dst: Reg,
    },
    Call {
        func: u32,
        /// Argument registers are `call_args[start..start + len]`.
        start: u32,
        len: u32,
        dst: Reg,
    },
    Printf {
        index: u32,
        dst: Reg,
    },
    /// The end of a work-item's share of an async copy (`async_copies[index]`).
    AsyncCopied {
        index: u32,
        dst: Reg,
    },
    /// `wait_group_events` for the event in `event`.
    AsyncWait {
        event: Reg,
    },
    /// A device enqueue operation: `device_calls[index]`; `dst` is
    /// `NO_REG` for one without a result.
    DeviceEnqueue {
        index: u32,
        dst: Reg,
    },
    /// Lane refill: the next work-item of the work-group nobody started.
    NextItem {
        dst: Reg,
    },
    Jump(Edge),
    Brif {
        cond: Reg,
        then_edge: Edge,
        else_edge: Edge,
    },
    Switch {
        arg: Reg,
        index: u32,
    },
    Return {
        arg: Reg,
    },
    Unreachable,
    /// The end of a block without a terminator (malformed IR).
    FellOff,
    /// Gang-level IR: the next operation is predicated on the mask `mask`:
    /// it acts in the lanes where the mask is set, or (`once`: its operands
    /// and result are uniform) in every lane if the mask is set in any.
    /// Where it does not act, its result is 0.
    IfMask {
        mask: Reg,
        once: bool,
    },
    /// Gang-level IR: an operation across lanes. `ty` is the type of `a`;
    /// `cluster` the cluster size of a clustered reduction, else 0.
    Gang {
        op: GangOp,
        ty: Type,
        dst: Reg,
        a: Reg,
        b: Reg,
        cluster: u32,
    },
    /// Scalar IR: a subgroup collective, `op` without its mask (`a`, and
    /// `b` the lane of a broadcast or shuffle); the work-item stops here
    /// until the others of its subgroup that take part have arrived.
    SubGroup {
        op: GangOp,
        ty: Type,
        dst: Reg,
        a: Reg,
        b: Reg,
        cluster: u32,
    },
}

impl Op {
    /// The register the operation defines, if any.
    pub fn dst(&self) -> Option<Reg> {
        let dst = match *self {
            Op::IntUnary { dst, .. }
            | Op::FloatUnary { dst, .. }
            | Op::IntBinary { dst, .. }
            | Op::FloatBinary { dst, .. }
            | Op::IntTernary { dst, .. }
            | Op::Fma { dst, .. }
            | Op::Icmp { dst, .. }
            | Op::Fcmp { dst, .. }
            | Op::Select { dst, .. }
            | Op::Convert { dst, .. }
            | Op::PtrAdd { dst, .. }
            | Op::Load { dst, .. }
            | Op::StackAddr { dst, .. }
            | Op::AtomicRmw { dst, .. }
            | Op::AtomicCas { dst, .. }
            | Op::AtomicLoad { dst, .. }
            | Op::WorkItem { dst, .. }
            | Op::Call { dst, .. }
            | Op::Printf { dst, .. }
            | Op::AsyncCopied { dst, .. }
            | Op::DeviceEnqueue { dst, .. }
            | Op::NextItem { dst }
            | Op::Gang { dst, .. }
            | Op::SubGroup { dst, .. } => dst,
            _ => NO_REG,
        };
        (dst != NO_REG).then_some(dst)
    }
}

pub struct SwitchTable {
    pub default: Edge,
    pub cases: Vec<(u64, Edge)>,
}

pub struct PrintfCall {
    pub format: String,
    pub args: Vec<(Reg, Type)>,
}

/// An async copy's operands: destination, source, count, source and
/// destination strides, event; and the element size.
pub struct AsyncCopyArgs {
    pub regs: [Reg; 6],
    pub elem: u32,
}

/// A device enqueue operation's operands.
pub struct DeviceCall {
    pub op: DeviceOp,
    pub kernel: Option<FuncId>,
    pub args: Vec<(Reg, Type)>,
}

/// One function, decoded.
pub struct DecodedFunc {
    pub nregs: usize,
    /// The initial register image: constants filled in, the rest zero.
    pub template: Vec<u64>,
    /// The registers `undef` defines, with the bits of their type: what
    /// checked mode counts as uninitialized when a frame starts.
    pub undefs: Vec<(Reg, u64)>,
    pub params: Vec<Reg>,
    pub code: Vec<Op>,
    /// The IR instruction of each operation (for messages).
    pub insts: Vec<Inst>,
    pub copies: Vec<(Reg, Reg)>,
    pub call_args: Vec<Reg>,
    pub switches: Vec<SwitchTable>,
    pub printfs: Vec<PrintfCall>,
    pub async_copies: Vec<AsyncCopyArgs>,
    pub device_calls: Vec<DeviceCall>,
    pub slot_sizes: Vec<u32>,
    pub has_barrier: bool,
    /// Gang-level IR: the gang's width (lanes), else `None`.
    pub gang: Option<u32>,
    /// Lane refill: one gang takes the group's work-items with `next_item`.
    pub refill: bool,
    /// Gang-level IR: whether each register is per-lane (else uniform).
    pub varying: Vec<bool>,
    /// Scalar IR with subgroup collectives: where work-items meet.
    pub convergence: Option<Convergence>,
    /// The block (index) of each operation.
    pub blocks: Vec<u32>,
}

/// The decoded functions reachable from a kernel (by calls and device
/// enqueues), indexed by `FuncId`.
pub struct Program {
    pub funcs: Vec<Option<DecodedFunc>>,
    /// Whether the kernel can reach a barrier (through calls too).
    pub has_barrier: bool,
    /// Whether the kernel can reach a subgroup collective.
    pub has_sub_group: bool,
}

impl Program {
    /// Decodes `kernel` and every function it can call or enqueue (and
    /// those can, transitively). `global_addrs`
    /// gives the launch's address of each program-scope variable.
    pub fn decode(
        module: &Module,
        kernel: FuncId,
        global_addrs: &[u64],
    ) -> Result<Program, InterpError> {
        let mut funcs: Vec<Option<DecodedFunc>> =
            (0..module.functions.len()).map(|_| None).collect();
        let mut work = vec![kernel];
        let mut has_barrier = false;
        let mut has_sub_group = false;
        while let Some(id) = work.pop() {
            if funcs[id.index()].is_some() {
                continue;
            }
            let d = decode_function(module, id, global_addrs)?;
            has_barrier |= d.has_barrier;
            has_sub_group |= d.convergence.is_some();
            for op in &d.code {
                if let Op::Call { func, .. } = op {
                    if funcs[*func as usize].is_none() {
                        work.push(FuncId::new(*func as usize));
                    }
                }
            }
            // The kernels it may enqueue run in the same launch.
            for call in &d.device_calls {
                if let (DeviceOp::EnqueueKernel, Some(k)) = (call.op, call.kernel) {
                    if funcs[k.index()].is_none() {
                        work.push(k);
                    }
                }
            }
            funcs[id.index()] = Some(d);
        }
        // A work-item's place in a caller counts too.
        if has_sub_group {
            for (i, f) in funcs.iter_mut().enumerate() {
                if let Some(f) = f.as_mut().filter(|f| f.convergence.is_none()) {
                    f.convergence = Some(Convergence::compute(&module.functions[FuncId::new(i)]));
                }
            }
        }
        Ok(Program {
            funcs,
            has_barrier,
            has_sub_group,
        })
    }
}

struct Decoder<'f> {
    func: &'f Function,
    regs: SecondaryMap<Value, Reg>,
    nregs: u32,
    block_pc: SecondaryMap<Block, Option<u32>>,
    copies: Vec<(Reg, Reg)>,
}

impl Decoder<'_> {
    /// The cluster size a clustered reduction's operand `c` holds (0: none).
    fn cluster(&self, c: Option<Value>) -> Result<u32, InterpError> {
        let Some(c) = c else { return Ok(0) };
        match self.func.values.get(c).map(|d| d.def) {
            Some(ValueDef::Result(i)) => match self.func.insts[i] {
                InstData::Iconst { imm } if imm.is_power_of_two() && imm <= 32 => Ok(imm as u32),
                _ => self.err(format!(
                    "the cluster size {c} is not a constant power of two"
                )),
            },
            _ => self.err(format!("the cluster size {c} is not a constant")),
        }
    }

    fn err<T>(&self, message: impl Into<String>) -> Result<T, InterpError> {
        Err(InterpError::InvalidIr {
            function: self.func.name.clone(),
            message: message.into(),
        })
    }

    fn reg(&self, v: Value) -> Result<Reg, InterpError> {
        match self.func.values.get(v) {
            Some(d) if d.def != ValueDef::Unused => Ok(self.regs[v]),
            _ => self.err(format!("use of undefined value {v}")),
        }
    }

    fn ty(&self, v: Value) -> Type {
        self.func.values.get(v).map_or(Type::I64, |d| d.ty)
    }

    fn edge(&mut self, call: &BlockCall) -> Result<Edge, InterpError> {
        let Some(pc) = self.block_pc.get(call.block).copied().flatten() else {
            return self.err(format!(
                "branch to {} which is not in the layout",
                call.block
            ));
        };
        let params = &self.func.blocks[call.block].params;
        if params.len() != call.args.len() {
            return self.err(format!(
                "branch to {} passes {} arguments for {} parameters",
                call.block,
                call.args.len(),
                params.len()
            ));
        }
        let start = self.copies.len() as u32;
        let mut pairs = Vec::with_capacity(params.len());
        for (&arg, &param) in call.args.iter().zip(params) {
            let (src, dst) = (self.reg(arg)?, self.reg(param)?);
            if src != dst {
                pairs.push((src, dst));
            }
        }
        let parallel = pairs
            .iter()
            .any(|&(_, dst)| pairs.iter().any(|&(src, _)| src == dst));
        let len = pairs.len() as u32;
        self.copies.extend(pairs);
        Ok(Edge {
            pc,
            block: call.block.index() as u32,
            start,
            len,
            parallel,
        })
    }
}

fn decode_function(
    module: &Module,
    id: FuncId,
    global_addrs: &[u64],
) -> Result<DecodedFunc, InterpError> {
    let func = &module.functions[id];
    let mut d = Decoder {
        func,
        regs: SecondaryMap::with_default(NO_REG),
        nregs: 0,
        block_pc: SecondaryMap::new(),
        copies: Vec::new(),
    };
    for (v, data) in func.values.iter() {
        if data.def != ValueDef::Unused {
            d.regs[v] = d.nregs;
            d.nregs += 1;
        }
    }
    let Some(entry) = func.entry_block() else {
        return d.err("the function has no body");
    };
    let is_constant = |inst: Inst| {
        matches!(
            func.insts[inst],
            InstData::Iconst { .. }
                | InstData::Fconst { .. }
                | InstData::GlobalAddr { .. }
                | InstData::Undef
        )
    };
    // Code indices of the blocks: constants are hoisted, a block without a
    // terminator gets a `FellOff`.
    let mut pc = 0u32;
    for &block in &func.layout {
        if func.blocks.get(block).is_none() {
            return d.err(format!("{block} is in the layout but does not exist"));
        }
        if let Some(&inst) = func.blocks[block]
            .insts
            .iter()
            .find(|&&i| func.insts.get(i).is_none())
        {
            return d.err(format!("{block} lists {inst}, which does not exist"));
        }
        if d.block_pc[block].is_some() {
            return d.err(format!("{block} appears twice in the layout"));
        }
        d.block_pc[block] = Some(pc);
        let insts = &func.blocks[block].insts;
        pc += insts.iter().filter(|&&i| !is_constant(i)).count() as u32;
        // A suspend point runs as a barrier, then a jump.
        pc += insts
            .iter()
            .filter(|&&i| matches!(func.insts[i], InstData::Suspend { .. }))
            .count() as u32;
        // A predicated instruction is two: the mask, then the operation.
        pc += insts
            .iter()
            .filter(|&&i| matches!(func.insts[i], InstData::Predicated { .. }))
            .count() as u32;
        if func.terminator(block).is_none() {
            pc += 1;
        }
    }
    let mut template = vec![0u64; d.nregs as usize];
    let mut undefs = Vec::new();
    let mut code = Vec::with_capacity(pc as usize);
    let mut insts = Vec::with_capacity(pc as usize);
    let mut call_args = Vec::new();
    let mut switches = Vec::new();
    let mut printfs = Vec::new();
    let mut async_copies = Vec::new();
    let mut device_calls = Vec::new();
    let mut has_barrier = false;
    let mut blocks: Vec<u32> = Vec::with_capacity(pc as usize);
    for &block in &func.layout {
        for &inst in &func.blocks[block].insts {
            let result = func.results[inst];
            let dst = match result {
                Some(v) => d.reg(v)?,
                None => NO_REG,
            };
            let rty = result.map_or(Type::I64, |v| d.ty(v));
            let fname = &func.name;
            let need_dst = |what: &str| {
                if dst == NO_REG {
                    Err(InterpError::InvalidIr {
                        function: fname.clone(),
                        message: format!("{what} without a result"),
                    })
                } else {
                    Ok(dst)
                }
            };
            let data = match &func.insts[inst] {
                InstData::Predicated { mask, inst: core } => {
                    let uniform = |v: Value| !func.is_varying(v);
                    let once = !core.acts_per_lane()
                        && core.args().into_iter().all(uniform)
                        && result.is_none_or(uniform);
                    code.push(Op::IfMask {
                        mask: d.reg(*mask)?,
                        once,
                    });
                    insts.push(inst);
                    &**core
                }
                data => data,
            };
            let op = match data {
                InstData::Iconst { imm } => {
                    template[need_dst("iconst")? as usize] = imm & rty.int_mask();
                    continue;
                }
                InstData::Fconst { bits } => {
                    template[need_dst("fconst")? as usize] = *bits;
                    continue;
                }
                // Any value will do: 0, as the template holds.
                InstData::Undef => {
                    undefs.push((need_dst("undef")?, rty.int_mask()));
                    continue;
                }
                InstData::GlobalAddr { global } => {
                    let Some(&a) = global_addrs.get(global.index()) else {
                        return d.err(format!("unknown variable {global}"));
                    };
                    template[need_dst("global_addr")? as usize] = a;
                    continue;
                }
                InstData::Unary { op, arg } => {
                    let a = d.reg(*arg)?;
                    let dst = need_dst("unary operation")?;
                    if rty.is_float() {
                        Op::FloatUnary {
                            op: *op,
                            ty: rty,
                            dst,
                            a,
                        }
                    } else {
                        Op::IntUnary {
                            op: *op,
                            bits: rty.bits(),
                            dst,
                            a,
                        }
                    }
                }
                InstData::Binary { op, args: [a, b] } => {
                    let (a, b) = (d.reg(*a)?, d.reg(*b)?);
                    let dst = need_dst("binary operation")?;
                    if rty.is_float() {
                        Op::FloatBinary {
                            op: *op,
                            ty: rty,
                            dst,
                            a,
                            b,
                        }
                    } else {
                        Op::IntBinary {
                            op: *op,
                            bits: rty.bits(),
                            dst,
                            a,
                            b,
                        }
                    }
                }
                InstData::Ternary {
                    op,
                    args: [a, b, c],
                } => {
                    let (a, b, c) = (d.reg(*a)?, d.reg(*b)?, d.reg(*c)?);
                    let dst = need_dst("ternary operation")?;
                    match op {
                        TernaryOp::Fma => Op::Fma {
                            ty: rty,
                            dst,
                            a,
                            b,
                            c,
                        },
                        _ => Op::IntTernary {
                            op: *op,
                            bits: rty.bits(),
                            dst,
                            a,
                            b,
                            c,
                        },
                    }
                }
                InstData::Icmp { cond, args: [a, b] } => Op::Icmp {
                    cond: *cond,
                    bits: d.ty(*a).bits(),
                    a: d.reg(*a)?,
                    b: d.reg(*b)?,
                    dst: need_dst("icmp")?,
                },
                InstData::Fcmp { cond, args: [a, b] } => Op::Fcmp {
                    cond: *cond,
                    ty: d.ty(*a),
                    a: d.reg(*a)?,
                    b: d.reg(*b)?,
                    dst: need_dst("fcmp")?,
                },
                InstData::Select { args: [c, a, b] } => Op::Select {
                    c: d.reg(*c)?,
                    a: d.reg(*a)?,
                    b: d.reg(*b)?,
                    dst: need_dst("select")?,
                },
                InstData::Convert {
                    op, arg, rounding, ..
                } => Op::Convert {
                    op: *op,
                    from: d.ty(*arg),
                    to: rty,
                    rounding: *rounding,
                    a: d.reg(*arg)?,
                    dst: need_dst("conversion")?,
                },
                InstData::PtrAdd { args: [a, b] } => Op::PtrAdd {
                    a: d.reg(*a)?,
                    b: d.reg(*b)?,
                    dst: need_dst("ptradd")?,
                },
                InstData::Load { ptr, .. } => Op::Load {
                    ty: rty,
                    ptr: d.reg(*ptr)?,
                    dst: need_dst("load")?,
                },
                InstData::Store { args: [v, p], .. } => Op::Store {
                    ty: d.ty(*v),
                    val: d.reg(*v)?,
                    ptr: d.reg(*p)?,
                },
                InstData::StackAddr { slot } => {
                    if slot.index() >= func.stack_slots.len() {
                        return d.err(format!("unknown stack slot {slot}"));
                    }
                    Op::StackAddr {
                        slot: slot.index() as u32,
                        dst: need_dst("stack_addr")?,
                    }
                }
                InstData::MemCopy { args: [a, b, c] } => Op::MemCopy {
                    dst: d.reg(*a)?,
                    src: d.reg(*b)?,
                    len: d.reg(*c)?,
                },
                InstData::MemSet { args: [a, b, c] } => Op::MemSet {
                    dst: d.reg(*a)?,
                    byte: d.reg(*b)?,
                    len: d.reg(*c)?,
                },
                InstData::AtomicRmw {
                    op, args: [p, v], ..
                } => Op::AtomicRmw {
                    op: *op,
                    ty: rty,
                    ptr: d.reg(*p)?,
                    val: d.reg(*v)?,
                    dst: need_dst("atomic_rmw")?,
                },
                InstData::AtomicCas {
                    args: [p, e, n], ..
                } => Op::AtomicCas {
                    ty: rty,
                    ptr: d.reg(*p)?,
                    expected: d.reg(*e)?,
                    new: d.reg(*n)?,
                    dst: need_dst("atomic_cas")?,
                },
                InstData::AtomicLoad { ptr, .. } => Op::AtomicLoad {
                    ty: rty,
                    ptr: d.reg(*ptr)?,
                    dst: need_dst("atomic_load")?,
                },
                InstData::AtomicStore { args: [v, p], .. } => Op::AtomicStore {
                    ty: d.ty(*v),
                    val: d.reg(*v)?,
                    ptr: d.reg(*p)?,
                },
                InstData::Fence { .. } => Op::Nop,
                InstData::Barrier { .. } => {
                    has_barrier = true;
                    Op::Barrier { arriving: NO_REG }
                }
                InstData::NextItem => Op::NextItem {
                    dst: need_dst("next_item")?,
                },
                InstData::WorkItem { query, dim } => Op::WorkItem {
                    query: *query,
                    dim: *dim,
                    dst: need_dst("work-item query")?,
                },
                InstData::Call { func: callee, args } => {
                    let Some(cf) = module.functions.get(*callee) else {
                        return d.err(format!("call to unknown function {callee}"));
                    };
                    if cf.entry_block().is_none() {
                        return d.err(format!("call to @{} which has no body", cf.name));
                    }
                    if cf.params().len() != args.len() {
                        return d.err(format!(
                            "call to @{} passes {} arguments for {} parameters",
                            cf.name,
                            args.len(),
                            cf.params().len()
                        ));
                    }
                    let start = call_args.len() as u32;
                    for &a in args {
                        call_args.push(d.reg(a)?);
                    }
                    Op::Call {
                        func: callee.index() as u32,
                        start,
                        len: args.len() as u32,
                        dst,
                    }
                }
                InstData::AsyncCopied { args, elem } => {
                    let mut regs = [NO_REG; 6];
                    for (r, &a) in regs.iter_mut().zip(args) {
                        *r = d.reg(a)?;
                    }
                    async_copies.push(AsyncCopyArgs { regs, elem: *elem });
                    Op::AsyncCopied {
                        index: async_copies.len() as u32 - 1,
                        dst,
                    }
                }
                InstData::AsyncWait { arg } => Op::AsyncWait {
                    event: d.reg(*arg)?,
                },
                InstData::Printf { format, args } => {
                    let mut regs = Vec::with_capacity(args.len());
                    for &a in args {
                        regs.push((d.reg(a)?, d.ty(a)));
                    }
                    printfs.push(PrintfCall {
                        format: format.clone(),
                        args: regs,
                    });
                    Op::Printf {
                        index: printfs.len() as u32 - 1,
                        dst,
                    }
                }
                InstData::DeviceEnqueue { op, kernel, args } => {
                    let mut regs = Vec::with_capacity(args.len());
                    for &a in args {
                        regs.push((d.reg(a)?, d.ty(a)));
                    }
                    if let Some(k) = kernel {
                        if module.functions.get(*k).is_none_or(|f| !f.is_kernel()) {
                            return d.err(format!("{op} names {k}, which is not a kernel"));
                        }
                    }
                    device_calls.push(DeviceCall {
                        op: *op,
                        kernel: *kernel,
                        args: regs,
                    });
                    Op::DeviceEnqueue {
                        index: device_calls.len() as u32 - 1,
                        dst,
                    }
                }
                InstData::Gang { op, args } => {
                    let a = args.first().copied();
                    Op::Gang {
                        op: *op,
                        ty: a.map_or(Type::I32, |a| d.ty(a)),
                        a: a.map_or(Ok(NO_REG), |a| d.reg(a))?,
                        b: args.get(1).map_or(Ok(NO_REG), |&b| d.reg(b))?,
                        dst: need_dst("gang operation")?,
                        cluster: d.cluster(args.get(2).copied())?,
                    }
                }
                InstData::SubGroup { op, args } => {
                    let reduce = op.collective().is_some();
                    let second = args.get(1).copied().filter(|_| !reduce);
                    Op::SubGroup {
                        op: *op,
                        ty: d.ty(args[0]),
                        a: d.reg(args[0])?,
                        b: second.map_or(Ok(NO_REG), |b| d.reg(b))?,
                        dst: need_dst("subgroup collective")?,
                        cluster: d.cluster(args.get(1).copied().filter(|_| reduce))?,
                    }
                }
                InstData::Predicated { .. } => {
                    return d.err("a predicated instruction inside a predicated instruction");
                }
                InstData::Jump { dest } => Op::Jump(d.edge(dest)?),
                InstData::Suspend { dest, arriving, .. } => {
                    has_barrier = true;
                    let arriving = arriving.map_or(Ok(NO_REG), |m| d.reg(m))?;
                    code.push(Op::Barrier { arriving });
                    insts.push(inst);
                    Op::Jump(d.edge(dest)?)
                }
                InstData::Brif {
                    cond,
                    then_dest,
                    else_dest,
                } => Op::Brif {
                    cond: d.reg(*cond)?,
                    then_edge: d.edge(then_dest)?,
                    else_edge: d.edge(else_dest)?,
                },
                InstData::Switch {
                    arg,
                    default,
                    cases,
                } => {
                    let mask = d.ty(*arg).int_mask();
                    let default = d.edge(default)?;
                    let mut table = Vec::with_capacity(cases.len());
                    for (value, dest) in cases {
                        table.push((value & mask, d.edge(dest)?));
                    }
                    switches.push(SwitchTable {
                        default,
                        cases: table,
                    });
                    Op::Switch {
                        arg: d.reg(*arg)?,
                        index: switches.len() as u32 - 1,
                    }
                }
                InstData::Return { arg } => Op::Return {
                    arg: match arg {
                        Some(a) => d.reg(*a)?,
                        None => NO_REG,
                    },
                },
                InstData::Unreachable => Op::Unreachable,
            };
            code.push(op);
            insts.push(inst);
        }
        if func.terminator(block).is_none() {
            code.push(Op::FellOff);
            insts.push(
                func.blocks[block]
                    .insts
                    .last()
                    .copied()
                    .unwrap_or(Inst::new(0)),
            );
        }
        blocks.resize(code.len(), block.index() as u32);
    }
    if d.block_pc[entry] != Some(0) {
        return d.err("the entry block must come first");
    }
    let params = func
        .params()
        .iter()
        .map(|&p| d.reg(p))
        .collect::<Result<Vec<_>, _>>()?;
    let convergence = code
        .iter()
        .any(|op| matches!(op, Op::SubGroup { .. }))
        .then(|| Convergence::compute(func));
    Ok(DecodedFunc {
        nregs: d.nregs as usize,
        template,
        undefs,
        params,
        code,
        insts,
        copies: d.copies,
        call_args,
        switches,
        printfs,
        async_copies,
        device_calls,
        slot_sizes: func.stack_slots.values().map(|s| s.size).collect(),
        has_barrier,
        gang: func.gang,
        refill: func.refill,
        varying: func
            .values
            .keys()
            .filter(|&v| d.regs[v] != NO_REG)
            .map(|v| func.is_varying(v))
            .collect(),
        convergence,
        blocks,
    })
}
