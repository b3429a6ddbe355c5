//! Property test of the text format: random valid modules, built through
//! the builder API, verify; print → parse → print gives the same text; and
//! the parsed module verifies and holds the same instructions, values,
//! blocks and metadata as the one that was built.
//!
//! The generator reads its decisions from a stream of numbers that proptest
//! generates and shrinks: a shorter stream, or smaller numbers, give a
//! smaller module (an exhausted stream answers 0: no more blocks,
//! instructions or options). Modules have globals (with initializers and
//! relocations, including forward ones), functions and kernels calling each
//! other in any order, stack slots, kernel metadata, random CFGs (loops,
//! irreducible cycles, unreachable blocks, blocks laid out in any order)
//! with block parameters, gaps in value and block numbering, source
//! locations, and every instruction with operands of the right types.

mod common;

use cranelift_entity::EntityRef;
use lockstep_ir::device_op::DeviceOperand;
use lockstep_ir::{
    module_to_string, parse_module, verify_module, AccessQual, AddrSpace, ArgInfo, AtomicRmwOp,
    BinaryOp, Block, BlockCall, ByVal, ConvertOp, DeviceOp, FenceFlags, FloatCC, FuncBuilder,
    FuncId, Function, GlobalData, GlobalId, InstData, IntCC, KernelInfo, MemOrder, MemScope,
    Module, Phase, Reloc, Rounding, Signature, SourceLoc, StackSlot, StackSlotData, TernaryOp,
    Type, TypeQuals, UnaryOp, Value, WorkItemQuery,
};
use proptest::prelude::*;

const INTS: [Type; 5] = [Type::I1, Type::I8, Type::I16, Type::I32, Type::I64];
const FLOATS: [Type; 3] = [Type::F16, Type::F32, Type::F64];

fn ptr(space: AddrSpace) -> Type {
    Type::Ptr(space)
}

/// The decision stream.
struct Choices<'a> {
    data: &'a [u32],
    pos: usize,
}

impl Choices<'_> {
    fn next(&mut self) -> u32 {
        let x = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        x
    }

    /// A number in `0..n` (0 once the stream is exhausted).
    fn below(&mut self, n: usize) -> usize {
        self.next() as usize % n.max(1)
    }

    /// True with probability `percent`% (false once the stream is exhausted).
    fn flip(&mut self, percent: usize) -> bool {
        99 - self.below(100) < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    fn u64(&mut self) -> u64 {
        (self.next() as u64) << 32 | self.next() as u64
    }

    /// Integer bits, often a boundary value.
    fn int_bits(&mut self) -> u64 {
        match self.below(8) {
            0 => 0,
            1 => 1,
            2 => u64::MAX,
            3 => 1 << 63,
            4 => i64::MAX as u64,
            5 => self.below(300) as u64,
            _ => self.u64(),
        }
    }

    /// IEEE bits of a float of type `ty`, often a special value.
    fn float_bits(&mut self, ty: Type) -> u64 {
        let bits = ty.bits();
        let sign = 1u64 << (bits - 1);
        let exp_bits = match ty {
            Type::F16 => 5,
            Type::F32 => 8,
            _ => 11,
        };
        let inf = ((1u64 << exp_bits) - 1) << (bits - 1 - exp_bits);
        let raw = match self.below(8) {
            0 => 0,
            1 => sign,
            2 => inf,
            3 => inf | sign,
            4 => inf | 1 << (bits - 2 - exp_bits),
            5 => 1,
            _ => self.u64(),
        };
        raw & ty.int_mask()
    }

    fn pow2(&mut self, max_log: usize) -> u32 {
        1 << self.below(max_log + 1)
    }

    /// A string with characters the printer must escape.
    fn string(&mut self) -> String {
        const PIECES: [&str; 16] = [
            "a", "Z", "0", " ", "%d", "%f", "\n", "\t", "\"", "\\", "\u{1}", "\u{7f}", "é", "→",
            "x", "_",
        ];
        (0..self.below(8)).map(|_| self.pick(&PIECES)).collect()
    }

    fn name(&mut self, prefix: &str, i: usize) -> String {
        const SUFFIXES: [&str; 5] = ["", "_x", ".v2", "$t", "kernel"];
        format!("{prefix}{i}{}", self.pick(&SUFFIXES))
    }

    fn any_type(&mut self) -> Type {
        match self.below(3) {
            0 => self.pick(&INTS),
            1 => self.pick(&FLOATS),
            _ => ptr(self.pick(&AddrSpace::ALL)),
        }
    }
}

/// What the functions of the module can refer to.
struct ModuleShape {
    sigs: Vec<Signature>,
    globals: Vec<AddrSpace>,
    /// The functions that are kernels (what device enqueue operations name).
    kernels: Vec<FuncId>,
}

fn gen_module(c: &mut Choices) -> Module {
    let mut module = Module::new();
    let n_globals = c.below(4);
    let globals: Vec<AddrSpace> = (0..n_globals)
        .map(|_| c.pick(&[AddrSpace::Constant, AddrSpace::Global, AddrSpace::Local]))
        .collect();
    for (i, &space) in globals.iter().enumerate() {
        let size = 8 * (1 + c.below(6)) as u64;
        let writable_init = space != AddrSpace::Local;
        let init =
            (writable_init && c.flip(60)).then(|| (0..size).map(|_| c.next() as u8).collect());
        let relocs = if writable_init && c.flip(40) {
            (0..1 + c.below(3))
                .map(|_| Reloc {
                    offset: 8 * c.below(size as usize / 8) as u64,
                    target: GlobalId::new(c.below(n_globals)),
                    addend: c.int_bits() as i64,
                })
                .collect()
        } else {
            Vec::new()
        };
        module.globals.push(GlobalData {
            name: c.name("g", i),
            space,
            size,
            align: c.pow2(4),
            init,
            relocs,
        });
    }
    let n_funcs = 1 + c.below(4);
    let kinds: Vec<bool> = (0..n_funcs).map(|_| c.flip(40)).collect();
    let sigs: Vec<Signature> = kinds
        .iter()
        .map(|&is_kernel| Signature {
            params: (0..c.below(5)).map(|_| c.any_type()).collect(),
            ret: (!is_kernel && c.flip(60)).then(|| c.any_type()),
        })
        .collect();
    let kernels = (0..n_funcs)
        .filter(|&i| kinds[i])
        .map(FuncId::new)
        .collect();
    let shape = ModuleShape {
        sigs,
        globals,
        kernels,
    };
    for (i, &is_kernel) in kinds.iter().enumerate() {
        let name = c.name(if is_kernel { "k" } else { "f" }, i);
        let func = gen_function(c, &shape, name, i, is_kernel);
        module.functions.push(func);
    }
    module
}

fn gen_kernel_info(c: &mut Choices, params: &[Type]) -> KernelInfo {
    let dims =
        |c: &mut Choices| [1 + c.below(64), 1 + c.below(8), 1 + c.below(4)].map(|d| d as u32);
    KernelInfo {
        args: params
            .iter()
            .map(|&ty| ArgInfo {
                name: c.string(),
                type_name: c.string(),
                access: c.pick(&AccessQual::ALL),
                qualifiers: TypeQuals {
                    is_const: c.flip(30),
                    is_restrict: c.flip(30),
                    is_volatile: c.flip(30),
                    is_pipe: c.flip(10),
                },
                byval: (ty == ptr(AddrSpace::Private) && c.flip(50)).then(|| ByVal {
                    size: 1 + c.below(64) as u32,
                    align: c.pow2(4),
                }),
            })
            .collect(),
        reqd_work_group_size: c.flip(30).then(|| dims(c)),
        work_group_size_hint: c.flip(30).then(|| dims(c)),
        vec_type_hint: c.flip(30).then(|| c.string()),
        reqd_sub_group_size: c.flip(30).then(|| c.pick(&[4, 8, 16, 32])),
        enqueued_block: c.flip(20),
    }
}

/// How a block ends, decided before any instruction is generated.
#[derive(Clone)]
enum Exit {
    Return,
    Unreachable,
    Jump(usize),
    /// A suspend point (from the `split` phase on) resuming at the block.
    Suspend(usize),
    Brif(usize, usize),
    /// Default, then one target per case.
    Switch(usize, Vec<usize>),
}

impl Exit {
    fn targets(&self) -> Vec<usize> {
        match self {
            Exit::Return | Exit::Unreachable => Vec::new(),
            Exit::Jump(t) | Exit::Suspend(t) => vec![*t],
            Exit::Brif(a, b) => vec![*a, *b],
            Exit::Switch(d, cases) => std::iter::once(*d).chain(cases.iter().copied()).collect(),
        }
    }
}

fn gen_function(
    c: &mut Choices,
    shape: &ModuleShape,
    name: String,
    index: usize,
    is_kernel: bool,
) -> Function {
    let sig = shape.sigs[index].clone();
    let mut func = Function::new(name, sig.clone());
    func.phase = c.pick(&[
        Phase::Imported,
        Phase::Imported,
        Phase::Imported,
        Phase::Normalized,
        Phase::Split,
        Phase::Linearized,
    ]);
    let imported = func.phase == Phase::Imported;
    if is_kernel {
        func.kernel = Some(gen_kernel_info(c, &sig.params));
    }
    for _ in 0..c.below(4) {
        func.stack_slots.push(StackSlotData {
            size: 1 + c.below(128) as u32,
            align: c.pow2(4),
            interleave: None,
        });
    }

    // Blocks: created in one order, laid out in another, with an occasional
    // block that is never laid out (a gap in block numbering).
    let n = 1 + c.below(6);
    let created = n + c.below(2);
    let ids: Vec<Block> = (0..created).map(|_| func.create_block()).collect();
    let mut perm: Vec<usize> = (0..created).collect();
    for i in (1..created).rev() {
        perm.swap(i, c.below(i + 1));
    }
    let blocks: Vec<Block> = perm[..n].iter().map(|&i| ids[i]).collect();
    func.layout = blocks.clone();

    // Block parameters; the entry block's are the function's.
    let mut params: Vec<Vec<Value>> = Vec::new();
    for (i, &b) in blocks.iter().enumerate() {
        let tys: Vec<Type> = if i == 0 {
            sig.params.clone()
        } else {
            (0..c.below(4)).map(|_| c.any_type()).collect()
        };
        params.push(tys.iter().map(|&t| func.append_block_param(b, t)).collect());
    }

    // The CFG: targets are any block but the entry. Outside the imported
    // phase there is no switch and at most one return.
    let mut returned = false;
    let exits: Vec<Exit> = (0..n)
        .map(|_| {
            let kind = if n == 1 {
                0
            } else {
                c.below(if imported { 5 } else { 4 })
            };
            let target = |c: &mut Choices| 1 + c.below(n - 1);
            match kind {
                0 | 1 => {
                    if (imported || !returned) && (kind == 0 || !c.flip(30)) {
                        returned = true;
                        Exit::Return
                    } else {
                        Exit::Unreachable
                    }
                }
                2 if !imported && func.phase >= Phase::Split && c.flip(30) => {
                    Exit::Suspend(target(c))
                }
                2 => Exit::Jump(target(c)),
                3 => Exit::Brif(target(c), target(c)),
                _ => {
                    let default = target(c);
                    Exit::Switch(default, (0..c.below(4)).map(|_| target(c)).collect())
                }
            }
        })
        .collect();
    let succs: Vec<Vec<usize>> = exits.iter().map(Exit::targets).collect();
    let doms = common::Doms::compute(&succs);

    // Generate blocks with their dominators first, so each block starts with
    // the values available at the end of its immediate dominator.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&b| (!doms.reachable[b], doms.dom[b].count_ones()));
    let mut avail_end: Vec<Vec<Value>> = vec![Vec::new(); n];
    let allow_calls = imported;
    let func_phase = func.phase;
    for b in order {
        let mut avail = match doms.reachable[b].then(|| doms.idom(b)).flatten() {
            Some(idom) => avail_end[idom].clone(),
            None => Vec::new(),
        };
        avail.extend(&params[b]);
        let mut g = Gen {
            c: &mut *c,
            shape,
            builder: FuncBuilder::new(&mut func),
            avail,
            allow_calls,
            allow_barriers: func_phase < Phase::Split,
        };
        g.builder.switch_to_block(blocks[b]);
        for _ in 0..g.c.below(10) {
            g.srcloc();
            g.inst();
            if g.c.flip(5) {
                // An instruction that is never placed: a gap in numbering.
                g.builder
                    .func
                    .create_inst(InstData::Iconst { imm: 0 }, Some(Type::I32));
            }
        }
        g.srcloc();
        let call = |g: &mut Gen, t: usize| BlockCall {
            block: blocks[t],
            args: params[t]
                .iter()
                .map(|&p| {
                    let ty = g.builder.func.value_type(p);
                    g.value(ty)
                })
                .collect(),
        };
        let term = match &exits[b] {
            Exit::Return => InstData::Return {
                arg: sig.ret.map(|t| g.value(t)),
            },
            Exit::Unreachable => InstData::Unreachable,
            Exit::Jump(t) => InstData::Jump {
                dest: call(&mut g, *t),
            },
            Exit::Suspend(t) => InstData::Suspend {
                flags: FenceFlags(g.c.below(8) as u8),
                scope: g.c.pick(MemScope::ALL),
                dest: call(&mut g, *t),
                arriving: None,
            },
            Exit::Brif(t, e) => {
                let cond = g.value(Type::I1);
                InstData::Brif {
                    cond,
                    then_dest: call(&mut g, *t),
                    else_dest: call(&mut g, *e),
                }
            }
            Exit::Switch(d, targets) => {
                let ty = g.c.pick(&INTS);
                let arg = g.value(ty);
                let default = call(&mut g, *d);
                let mut cases: Vec<(u64, BlockCall)> = Vec::new();
                for &t in targets {
                    let value = g.c.int_bits() & ty.int_mask();
                    if cases.iter().all(|(v, _)| *v != value) {
                        cases.push((value, call(&mut g, t)));
                    }
                }
                InstData::Switch {
                    arg,
                    default,
                    cases,
                }
            }
        };
        g.builder.ins(term, None);
        avail_end[b] = g.avail;
    }
    func
}

/// Generates the instructions of one block.
struct Gen<'a, 'c, 'f> {
    c: &'a mut Choices<'c>,
    shape: &'a ModuleShape,
    builder: FuncBuilder<'f>,
    /// The values that dominate the current position.
    avail: Vec<Value>,
    allow_calls: bool,
    /// Before `split_barriers`: barriers, not suspend points.
    allow_barriers: bool,
}

impl Gen<'_, '_, '_> {
    fn srcloc(&mut self) {
        let loc = self.c.flip(30).then(|| SourceLoc {
            line: self.c.below(5000) as u32,
            col: self.c.below(120) as u32,
        });
        self.builder.set_srcloc(loc);
    }

    /// An available value of type `ty`, or a new constant.
    fn value(&mut self, ty: Type) -> Value {
        let func = &self.builder.func;
        let candidates: Vec<Value> = (self.avail.iter().copied())
            .filter(|&v| func.value_type(v) == ty)
            .collect();
        if !candidates.is_empty() && !self.c.flip(15) {
            return self.c.pick(&candidates);
        }
        self.constant(ty)
    }

    fn constant(&mut self, ty: Type) -> Value {
        let v = if ty.is_float() {
            let bits = self.c.float_bits(ty);
            self.builder.fconst(ty, bits)
        } else {
            let bits = self.c.int_bits();
            self.builder.iconst(ty, bits as i64)
        };
        self.avail.push(v);
        v
    }

    fn pointer(&mut self, spaces: &[AddrSpace]) -> Value {
        let space = self.c.pick(spaces);
        self.value(ptr(space))
    }

    fn result(&mut self, data: InstData, ty: Type) {
        let v = self.builder.value(data, ty);
        self.avail.push(v);
    }

    fn order_scope(&mut self) -> (MemOrder, MemScope) {
        (self.c.pick(MemOrder::ALL), self.c.pick(MemScope::ALL))
    }

    /// One random instruction (or none, when its prerequisites are missing).
    fn inst(&mut self) {
        use AddrSpace::*;
        const WRITABLE: [AddrSpace; 4] = [Private, Global, Local, Generic];
        const ATOMIC: [AddrSpace; 3] = [Global, Local, Generic];
        let c = &mut *self.c;
        match c.below(28) {
            0 => {
                let ty = if c.flip(80) {
                    c.pick(&INTS)
                } else {
                    ptr(c.pick(&AddrSpace::ALL))
                };
                self.constant(ty);
            }
            1 => {
                let ty = c.pick(&FLOATS);
                self.constant(ty);
            }
            2 => {
                let op = c.pick(UnaryOp::ALL);
                let ty = if unary_is_int(op) {
                    match op {
                        UnaryOp::Bnot => c.pick(&INTS),
                        UnaryOp::Bswap => c.pick(&[Type::I16, Type::I32, Type::I64]),
                        _ => c.pick(&INTS[1..]),
                    }
                } else {
                    c.pick(&FLOATS)
                };
                let arg = self.value(ty);
                self.result(InstData::Unary { op, arg }, ty);
            }
            3 | 4 => {
                let op = c.pick(BinaryOp::ALL);
                let ty = if binary_is_float(op) {
                    c.pick(&FLOATS)
                } else if matches!(op, BinaryOp::Band | BinaryOp::Bor | BinaryOp::Bxor) {
                    c.pick(&INTS)
                } else {
                    c.pick(&INTS[1..])
                };
                let args = [self.value(ty), self.value(ty)];
                self.result(InstData::Binary { op, args }, ty);
            }
            5 => {
                let op = c.pick(TernaryOp::ALL);
                let ty = match op {
                    TernaryOp::Fma => c.pick(&FLOATS),
                    _ => c.pick(&INTS[1..]),
                };
                let args = [self.value(ty), self.value(ty), self.value(ty)];
                self.result(InstData::Ternary { op, args }, ty);
            }
            6 => {
                let cond = c.pick(IntCC::ALL);
                let ty = if c.flip(80) {
                    c.pick(&INTS)
                } else {
                    ptr(c.pick(&AddrSpace::ALL))
                };
                let args = [self.value(ty), self.value(ty)];
                self.result(InstData::Icmp { cond, args }, Type::I1);
            }
            7 => {
                let cond = c.pick(FloatCC::ALL);
                let ty = c.pick(&FLOATS);
                let args = [self.value(ty), self.value(ty)];
                self.result(InstData::Fcmp { cond, args }, Type::I1);
            }
            8 => {
                let ty = c.any_type();
                let args = [self.value(Type::I1), self.value(ty), self.value(ty)];
                self.result(InstData::Select { args }, ty);
            }
            9 | 10 => self.convert(),
            11 => {
                let p = self.pointer(&AddrSpace::ALL);
                let offset = self.value(Type::I64);
                let ty = self.builder.func.value_type(p);
                self.result(InstData::PtrAdd { args: [p, offset] }, ty);
            }
            12 => {
                let ty = c.any_type();
                let (align, volatile) = (c.pow2(4), c.flip(30));
                let p = self.pointer(&AddrSpace::ALL);
                self.result(
                    InstData::Load {
                        ptr: p,
                        align,
                        volatile,
                    },
                    ty,
                );
            }
            13 => {
                let ty = c.any_type();
                let (align, volatile) = (c.pow2(4), c.flip(30));
                let args = [self.value(ty), self.pointer(&WRITABLE)];
                self.builder.ins(
                    InstData::Store {
                        args,
                        align,
                        volatile,
                    },
                    None,
                );
            }
            14 => {
                let slots = self.builder.func.stack_slots.len();
                if slots > 0 {
                    let v = self.builder.stack_addr(StackSlot::new(c.below(slots)));
                    self.avail.push(v);
                }
            }
            15 => {
                if !self.shape.globals.is_empty() {
                    let i = c.below(self.shape.globals.len());
                    let v = self
                        .builder
                        .global_addr(GlobalId::new(i), self.shape.globals[i]);
                    self.avail.push(v);
                }
            }
            16 => {
                let memset = c.flip(50);
                let dest = self.pointer(&WRITABLE);
                let middle = if memset {
                    self.value(Type::I8)
                } else {
                    self.pointer(&AddrSpace::ALL)
                };
                let args = [dest, middle, self.value(Type::I64)];
                let data = if memset {
                    InstData::MemSet { args }
                } else {
                    InstData::MemCopy { args }
                };
                self.builder.ins(data, None);
            }
            17 => {
                let op = c.pick(AtomicRmwOp::ALL);
                let float = matches!(
                    op,
                    AtomicRmwOp::Fadd | AtomicRmwOp::Fmin | AtomicRmwOp::Fmax
                );
                let ty = if float {
                    c.pick(&[Type::F32, Type::F64])
                } else {
                    c.pick(&[Type::I32, Type::I64])
                };
                let (order, scope) = self.order_scope();
                let args = [self.pointer(&ATOMIC), self.value(ty)];
                self.result(
                    InstData::AtomicRmw {
                        op,
                        args,
                        order,
                        scope,
                    },
                    ty,
                );
            }
            18 => {
                let ty = c.pick(&[Type::I32, Type::I64]);
                let (order, scope) = self.order_scope();
                let args = [self.pointer(&ATOMIC), self.value(ty), self.value(ty)];
                self.result(InstData::AtomicCas { args, order, scope }, ty);
            }
            19 => {
                let ty = c.pick(&[Type::I32, Type::I64, Type::F32, Type::F64]);
                let (order, scope) = self.order_scope();
                if self.c.flip(50) {
                    let p = self.pointer(&ATOMIC);
                    self.result(
                        InstData::AtomicLoad {
                            ptr: p,
                            order,
                            scope,
                        },
                        ty,
                    );
                } else {
                    let args = [self.value(ty), self.pointer(&ATOMIC)];
                    self.builder
                        .ins(InstData::AtomicStore { args, order, scope }, None);
                }
            }
            20 => {
                let flags = FenceFlags(c.below(8) as u8);
                let (order, scope) = self.order_scope();
                self.builder.fence(flags, order, scope);
            }
            21 if self.allow_barriers => {
                let flags = FenceFlags(c.below(8) as u8);
                let scope = c.pick(MemScope::ALL);
                self.builder.ins(InstData::Barrier { flags, scope }, None);
            }
            22 => {
                let query = c.pick(WorkItemQuery::ALL);
                let dim = if query.takes_dim() {
                    c.below(3) as u8
                } else {
                    0
                };
                let v = self.builder.work_item(query, dim);
                self.avail.push(v);
            }
            23 => {
                if self.allow_calls {
                    // Any function, including later ones and this one.
                    let shape = self.shape;
                    let callee = c.below(shape.sigs.len());
                    let sig = &shape.sigs[callee];
                    let args = sig.params.iter().map(|&t| self.value(t)).collect();
                    let r = self.builder.call(FuncId::new(callee), sig.ret, args);
                    self.avail.extend(r);
                }
            }
            25 => {
                // A device enqueue operation; those that name a kernel only
                // when the module has one.
                let kernels = &self.shape.kernels;
                let ops: Vec<DeviceOp> = DeviceOp::ALL
                    .iter()
                    .copied()
                    .filter(|op| !op.names_kernel() || !kernels.is_empty())
                    .collect();
                let op = c.pick(&ops);
                let kernel = op.names_kernel().then(|| c.pick(kernels));
                let mut args = Vec::new();
                for &operand in op.operands() {
                    args.push(match operand {
                        DeviceOperand::Int(t) => self.value(t),
                        DeviceOperand::Ptr => self.pointer(&[Private, Global, Generic]),
                    });
                }
                let data = InstData::DeviceEnqueue { op, kernel, args };
                match op.result_type() {
                    Some(t) => self.result(data, t),
                    None => {
                        self.builder.ins(data, None);
                    }
                }
            }
            24 => {
                let c = &mut *self.c;
                let format = c.string();
                let tys: Vec<Type> = (0..c.below(4)).map(|_| c.any_type()).collect();
                let args = tys.into_iter().map(|t| self.value(t)).collect();
                self.result(InstData::Printf { format, args }, Type::I32);
            }
            26 => {
                let elem = 1 << c.below(4);
                let (dst, src) = (self.pointer(&WRITABLE), self.pointer(&AddrSpace::ALL));
                let count = self.value(Type::I64);
                let args = [dst, src, count, count, count, self.value(Type::I64)];
                self.result(InstData::AsyncCopied { args, elem }, Type::I64);
                let event = self.value(Type::I64);
                self.builder.ins(InstData::AsyncWait { arg: event }, None);
            }
            _ => {
                // Reuse a value: a chain of same-typed operations.
                let ty = c.pick(&INTS[1..]);
                let a = self.value(ty);
                let b = self.value(ty);
                let v = self.builder.binary(BinaryOp::Iadd, a, b);
                self.avail.push(v);
            }
        }
    }

    fn convert(&mut self) {
        let c = &mut *self.c;
        let op = c.pick(ConvertOp::ALL);
        let widths = |c: &mut Choices, tys: &[Type]| {
            let i = c.below(tys.len() - 1);
            let j = i + 1 + c.below(tys.len() - 1 - i);
            (tys[i], tys[j])
        };
        let int_no_i1 = &INTS[1..];
        let (from, to) = match op {
            ConvertOp::Zext | ConvertOp::Sext => widths(c, &INTS),
            ConvertOp::Trunc => {
                let (a, b) = widths(c, &INTS);
                (b, a)
            }
            ConvertOp::FpExt => widths(c, &FLOATS),
            ConvertOp::FpTrunc => {
                let (a, b) = widths(c, &FLOATS);
                (b, a)
            }
            ConvertOp::FpToSi | ConvertOp::FpToUi => (c.pick(&FLOATS), c.pick(&INTS)),
            ConvertOp::SiToFp | ConvertOp::UiToFp => (c.pick(&INTS), c.pick(&FLOATS)),
            ConvertOp::Bitcast => {
                let same_width: [&[Type]; 4] = [
                    &[Type::I8],
                    &[Type::I16, Type::F16],
                    &[Type::I32, Type::F32],
                    &[Type::I64, Type::F64],
                ];
                let class = c.pick(&same_width);
                (c.pick(class), c.pick(class))
            }
            ConvertOp::PtrToInt => (ptr(c.pick(&AddrSpace::ALL)), c.pick(int_no_i1)),
            ConvertOp::IntToPtr => (c.pick(int_no_i1), ptr(c.pick(&AddrSpace::ALL))),
            ConvertOp::AddrSpaceCast => {
                let a = c.pick(&AddrSpace::ALL);
                let others: Vec<AddrSpace> =
                    AddrSpace::ALL.into_iter().filter(|&s| s != a).collect();
                (ptr(a), ptr(c.pick(&others)))
            }
        };
        let rounding = if from.is_float() || to.is_float() {
            c.pick(Rounding::ALL)
        } else {
            op.default_rounding()
        };
        let saturate = matches!(op, ConvertOp::FpToSi | ConvertOp::FpToUi) && c.flip(40);
        let arg = self.value(from);
        let data = InstData::Convert {
            op,
            arg,
            rounding,
            saturate,
        };
        self.result(data, to);
    }
}

fn unary_is_int(op: UnaryOp) -> bool {
    use UnaryOp::*;
    matches!(
        op,
        Ineg | Bnot | Clz | Ctz | Popcount | Bswap | Bitreverse | Iabs
    )
}

fn binary_is_float(op: BinaryOp) -> bool {
    use BinaryOp::*;
    matches!(
        op,
        Fadd | Fsub | Fmul | Fdiv | Frem | Fmin | Fmax | Copysign | Pow | Atan2 | Hypot | Remainder
    )
}

/// Asserts that `parsed` holds what `built` holds: the same globals,
/// signatures, metadata, stack slots, layout, block parameters and, in
/// layout order, the same instructions with the same results and source
/// locations. (Instruction ids may differ: unplaced instructions do not
/// survive printing.)
fn assert_same(built: &Module, parsed: &Module) {
    assert!(built.globals.values().eq(parsed.globals.values()));
    assert_eq!(built.functions.len(), parsed.functions.len());
    for (a, b) in built.functions.values().zip(parsed.functions.values()) {
        let name = &a.name;
        assert_eq!(a.name, b.name);
        assert_eq!(a.signature, b.signature, "@{name}");
        assert_eq!(a.kernel, b.kernel, "@{name}");
        assert_eq!(a.phase, b.phase, "@{name}");
        assert!(a.stack_slots.values().eq(b.stack_slots.values()), "@{name}");
        assert_eq!(a.layout, b.layout, "@{name}");
        for &block in &a.layout {
            let (pa, pb) = (&a.blocks[block].params, &b.blocks[block].params);
            assert_eq!(pa, pb, "@{name} {block}");
            for &p in pa {
                assert_eq!(a.value_type(p), b.value_type(p), "@{name} {p}");
            }
            let (ia, ib) = (&a.blocks[block].insts, &b.blocks[block].insts);
            assert_eq!(ia.len(), ib.len(), "@{name} {block}");
            for (&x, &y) in ia.iter().zip(ib) {
                assert_eq!(a.insts[x], b.insts[y], "@{name} {block}");
                assert_eq!(a.results[x], b.results[y], "@{name} {block}");
                if let Some(r) = a.results[x] {
                    assert_eq!(a.value_type(r), b.value_type(r), "@{name} {r}");
                }
                assert_eq!(a.srclocs[x], b.srclocs[y], "@{name} {block}");
            }
        }
    }
}

fn check_roundtrip(data: &[u32]) {
    let module = gen_module(&mut Choices { data, pos: 0 });
    let text = module_to_string(&module);
    if let Err(e) = verify_module(&module) {
        panic!("generated module does not verify:\n{e}\n\n{text}");
    }
    let parsed = match parse_module(&text) {
        Ok(m) => m,
        Err(e) => panic!("printed module does not parse: {e}\n\n{text}"),
    };
    let again = module_to_string(&parsed);
    assert_eq!(text, again, "print → parse → print changed the text");
    if let Err(e) = verify_module(&parsed) {
        panic!("parsed module does not verify:\n{e}\n\n{text}");
    }
    assert_same(&module, &parsed);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn print_parse_roundtrip(data in prop::collection::vec(any::<u32>(), 0..1500)) {
        check_roundtrip(&data);
    }
}

/// The generator reaches every instruction, operation and option, so the
/// property above is about the whole IR. (Deterministic: a fixed stream.)
#[test]
fn generator_covers_the_ir() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut covered = std::collections::BTreeSet::new();
    for _ in 0..300 {
        let data: Vec<u32> = (0..1500)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 32) as u32
            })
            .collect();
        let module = gen_module(&mut Choices {
            data: &data,
            pos: 0,
        });
        covered.extend(common::coverage(&module));
        check_roundtrip(&data);
    }
    let missing = common::missing(&common::required_coverage(), &covered);
    assert!(
        missing.is_empty(),
        "the generator never makes: {}",
        missing.join(", ")
    );
}
