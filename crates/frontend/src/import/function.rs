//! Imports one LLVM function body: blocks become IR blocks (phis become
//! block parameters), every value is scalarized into its leaves (a `<4 x
//! float>` is four `f32` values, a struct its fields' scalars), and each
//! LLVM instruction becomes the IR instructions that compute its leaves.

use std::collections::{HashMap, HashSet};

use llvm_sys::{
    LLVMAtomicOrdering, LLVMAtomicRMWBinOp, LLVMIntPredicate, LLVMOpcode, LLVMRealPredicate,
    LLVMTypeKind,
};

use lockstep_ir::{
    self as ir, AddrSpace, AtomicRmwOp, BinaryOp, BlockCall, ConvertOp, FloatCC, InstData, IntCC,
    MemOrder, MemScope, Type, UnaryOp,
};

use super::types::{leaf_types, memory_leaves, odd_int_width, scalar_type};
use super::{sign_extend, Importer};
use crate::error::{CompileError, CompileResult};
use crate::llvm::{Bb, Ty, Val};

/// Per-function import state.
pub(super) struct FnImp<'a> {
    pub imp: &'a Importer,
    pub func: ir::Function,
    /// The leaves of each imported LLVM value.
    vals: HashMap<Val, Vec<ir::Value>>,
    blocks: HashMap<Bb, ir::Block>,
    cur: ir::Block,
    entry: ir::Block,
    /// The hoisted constants, in order: they go to the top of the entry
    /// block once it is imported (inserting each there at once would move
    /// the whole block every time).
    hoisted: Vec<ir::Inst>,
    /// While true, `emit` adds to `hoisted` (constant expressions).
    in_const: bool,
    consts: HashMap<Val, Vec<ir::Value>>,
    /// Hoisted integer and float constants by type and bits.
    scalar_consts: HashMap<(Type, bool, u64), ir::Value>,
    /// The hoisted `undef` of each type.
    undefs: HashMap<Type, ir::Value>,
    /// Each phi's incoming value per predecessor, gathered on first use (a
    /// search of the incoming list per edge is quadratic at a phi of
    /// thousands of predecessors, a big `switch`'s join).
    phi_incoming: HashMap<Val, HashMap<Bb, Val>>,
    /// Debug location of the instruction being imported.
    pub loc: Option<(u32, u32)>,
}

pub(super) fn import_kernel(imp: &mut Importer, f: Val) -> CompileResult<ir::Function> {
    let name = f.name();
    let mut fi = FnImp {
        imp,
        func: ir::Function::new(name.clone(), ir::Signature::default()),
        vals: HashMap::new(),
        blocks: HashMap::new(),
        cur: ir::Block::from_u32(0),
        entry: ir::Block::from_u32(0),
        hoisted: Vec::new(),
        in_const: false,
        consts: HashMap::new(),
        scalar_consts: HashMap::new(),
        undefs: HashMap::new(),
        phi_incoming: HashMap::new(),
        loc: None,
    };
    fi.body(f).map_err(|e| match e {
        CompileError::Unsupported {
            construct,
            location,
            ..
        } => CompileError::Unsupported {
            construct,
            location,
            in_function: Some(name.clone()),
        },
        other => other,
    })?;
    fi.func.kernel = Some(super::kernel_info::kernel_info(imp, f, &fi.func)?);
    Ok(fi.func)
}

impl<'a> FnImp<'a> {
    fn unsupported(&self, what: impl Into<String>) -> CompileError {
        self.imp.unsupported(what, self.loc)
    }

    fn body(&mut self, f: Val) -> CompileResult<()> {
        let bbs = f.basic_blocks();
        let Some(&llvm_entry) = bbs.first() else {
            return Err(self.unsupported("a kernel without a body"));
        };
        let order = reverse_postorder(llvm_entry);
        let reachable: HashSet<Bb> = order.iter().copied().collect();
        for &bb in &bbs {
            if !reachable.contains(&bb) {
                continue;
            }
            let block = self.func.append_new_block();
            self.blocks.insert(bb, block);
        }
        self.entry = self.blocks[&llvm_entry];
        self.cur = self.entry;
        self.kernel_params(f)?;
        for &bb in &bbs {
            if !reachable.contains(&bb) {
                continue;
            }
            let block = self.blocks[&bb];
            for inst in bb.instructions() {
                if inst.opcode() != LLVMOpcode::LLVMPHI {
                    break;
                }
                let Some(tys) = leaf_types(inst.ty()) else {
                    self.loc = inst.debug_loc();
                    return Err(self.unsupported(format!("a value of type {}", inst.ty().print())));
                };
                let params = tys
                    .into_iter()
                    .map(|t| self.func.append_block_param(block, t))
                    .collect();
                self.vals.insert(inst, params);
            }
        }
        for &bb in &order {
            self.cur = self.blocks[&bb];
            for inst in bb.instructions() {
                self.loc = inst.debug_loc();
                self.instruction(inst, bb)?;
            }
        }
        let mut insts = std::mem::take(&mut self.hoisted);
        for &inst in &insts {
            self.func.inst_block[inst] = Some(self.entry);
        }
        insts.append(&mut self.func.blocks[self.entry].insts);
        self.func.blocks[self.entry].insts = insts;
        Ok(())
    }

    /// Creates the kernel's IR parameters. Pointers and scalars pass as they
    /// are; structs (`byval`) and by-value vectors pass as a `ptr.private`
    /// to a copy the runtime makes, whose scalars are loaded here.
    fn kernel_params(&mut self, f: Val) -> CompileResult<()> {
        for (i, p) in f.params().into_iter().enumerate() {
            let ty = p.ty();
            let byval = f.param_type_attribute(i as u32, "byval");
            let scalar = if byval.is_none() {
                scalar_type(ty).filter(|&t| t != Type::I1)
            } else {
                None
            };
            let param_ty = scalar.unwrap_or(Type::Ptr(AddrSpace::Private));
            self.func.signature.params.push(param_ty);
            let v = self.func.append_block_param(self.entry, param_ty);
            if scalar.is_none() && byval.is_none() {
                // A vector or aggregate passed by value: load its scalars.
                let leaves = self.load_leaves(v, ty, self.imp.layout.abi_align(ty), false)?;
                self.vals.insert(p, leaves);
            } else {
                self.vals.insert(p, vec![v]);
            }
        }
        Ok(())
    }

    // ---- Emitting IR ---------------------------------------------------

    /// A new IR block (for control flow a call expands into).
    pub fn new_block(&mut self) -> ir::Block {
        self.func.append_new_block()
    }

    /// Makes `block` the one instructions are appended to.
    pub fn switch_to(&mut self, block: ir::Block) {
        self.cur = block;
    }

    pub fn emit(&mut self, data: InstData, ty: Option<Type>) -> Option<ir::Value> {
        let inst = self.func.create_inst(data, ty);
        if self.in_const {
            self.hoisted.push(inst);
        } else {
            self.func.append_inst(self.cur, inst);
            self.func.srclocs[inst] = self.loc.map(|(line, col)| ir::SourceLoc { line, col });
        }
        self.func.results[inst]
    }

    pub fn val(&mut self, data: InstData, ty: Type) -> ir::Value {
        self.emit(data, Some(ty)).expect("created with a result")
    }

    /// A constant, hoisted to the top of the entry block.
    fn hoisted(&mut self, data: InstData, ty: Type) -> ir::Value {
        let was = std::mem::replace(&mut self.in_const, true);
        let v = self.val(data, ty);
        self.in_const = was;
        v
    }

    pub fn iconst(&mut self, ty: Type, bits: u64) -> ir::Value {
        let bits = bits & ty.int_mask();
        self.scalar_const(ty, false, bits)
    }

    fn fconst(&mut self, ty: Type, bits: u64) -> ir::Value {
        self.scalar_const(ty, true, bits)
    }

    fn scalar_const(&mut self, ty: Type, float: bool, bits: u64) -> ir::Value {
        if let Some(&v) = self.scalar_consts.get(&(ty, float, bits)) {
            return v;
        }
        let data = if float {
            InstData::Fconst { bits }
        } else {
            InstData::Iconst { imm: bits }
        };
        let v = self.hoisted(data, ty);
        self.scalar_consts.insert((ty, float, bits), v);
        v
    }

    /// An `undef` of `ty`, hoisted like the constants.
    fn undef(&mut self, ty: Type) -> ir::Value {
        if let Some(&v) = self.undefs.get(&ty) {
            return v;
        }
        let v = self.hoisted(InstData::Undef, ty);
        self.undefs.insert(ty, v);
        v
    }

    /// `v`, or zero if it is an `undef` (a constant one: not a value
    /// computed at run time from an `undef`).
    fn frozen(&mut self, v: ir::Value) -> ir::Value {
        let ty = self.ty(v);
        if self.undefs.get(&ty) == Some(&v) {
            self.zero(ty)
        } else {
            v
        }
    }

    /// Whether `v` is a constant (hoisted: nothing to freeze).
    fn is_constant(&self, v: ir::Value) -> bool {
        match self.func.values[v].def {
            ir::ValueDef::Result(i) => matches!(
                self.func.insts[i],
                InstData::Iconst { .. } | InstData::Fconst { .. } | InstData::GlobalAddr { .. }
            ),
            _ => false,
        }
    }

    pub fn zero(&mut self, ty: Type) -> ir::Value {
        if ty.is_float() {
            self.fconst(ty, 0)
        } else {
            self.iconst(ty, 0)
        }
    }

    pub fn ty(&self, v: ir::Value) -> Type {
        self.func.value_type(v)
    }

    pub fn binary(&mut self, op: BinaryOp, a: ir::Value, b: ir::Value) -> ir::Value {
        let ty = self.ty(a);
        self.val(InstData::Binary { op, args: [a, b] }, ty)
    }

    pub fn unary(&mut self, op: UnaryOp, a: ir::Value) -> ir::Value {
        let ty = self.ty(a);
        self.val(InstData::Unary { op, arg: a }, ty)
    }

    pub fn icmp(&mut self, cond: IntCC, a: ir::Value, b: ir::Value) -> ir::Value {
        self.val(InstData::Icmp { cond, args: [a, b] }, Type::I1)
    }

    pub fn select(&mut self, c: ir::Value, a: ir::Value, b: ir::Value) -> ir::Value {
        let ty = self.ty(a);
        self.val(InstData::Select { args: [c, a, b] }, ty)
    }

    pub fn convert(&mut self, op: ConvertOp, to: Type, a: ir::Value) -> ir::Value {
        let rounding = op.default_rounding();
        self.val(
            InstData::Convert {
                op,
                arg: a,
                rounding,
                saturate: false,
            },
            to,
        )
    }

    /// `ptr + offset` (no instruction when the offset is the constant 0).
    fn offset_ptr(&mut self, ptr: ir::Value, offset: u64) -> ir::Value {
        if offset == 0 {
            return ptr;
        }
        let off = self.iconst(Type::I64, offset);
        let ty = self.ty(ptr);
        self.val(InstData::PtrAdd { args: [ptr, off] }, ty)
    }

    /// Reinterprets a scalar as an integer of its width.
    fn as_int(&mut self, v: ir::Value) -> ir::Value {
        let ty = self.ty(v);
        match ty {
            Type::Ptr(_) => self.convert(ConvertOp::PtrToInt, Type::I64, v),
            t if t.is_float() => {
                let int = Type::int_of_bits(t.bits()).expect("float widths have int twins");
                self.convert(ConvertOp::Bitcast, int, v)
            }
            _ => v,
        }
    }

    /// Reinterprets an integer as `to` (same width).
    fn int_as(&mut self, v: ir::Value, to: Type) -> ir::Value {
        match to {
            Type::Ptr(_) => self.convert(ConvertOp::IntToPtr, to, v),
            t if t.is_float() => self.convert(ConvertOp::Bitcast, to, v),
            _ => v,
        }
    }

    // ---- Operands --------------------------------------------------------

    /// The leaves of an LLVM operand.
    pub fn operand(&mut self, v: Val) -> CompileResult<Vec<ir::Value>> {
        if let Some(leaves) = self.vals.get(&v) {
            return Ok(leaves.clone());
        }
        if let Some(leaves) = self.consts.get(&v) {
            return Ok(leaves.clone());
        }
        if v.is_instruction() {
            return Err(CompileError::Internal(format!(
                "use of {} before its definition",
                v.print()
            )));
        }
        let leaves = self.constant(v)?;
        self.consts.insert(v, leaves.clone());
        Ok(leaves)
    }

    /// A scalar operand.
    pub fn scalar(&mut self, v: Val) -> CompileResult<ir::Value> {
        let leaves = self.operand(v)?;
        match leaves.as_slice() {
            [one] => Ok(*one),
            _ => Err(self.unsupported(format!(
                "a vector or aggregate where a scalar is expected: {}",
                v.print()
            ))),
        }
    }

    fn leaf_types_of(&self, ty: Ty) -> CompileResult<Vec<Type>> {
        leaf_types(ty).ok_or_else(|| self.unsupported(format!("a value of type {}", ty.print())))
    }

    /// The leaves of a constant, emitted at the top of the entry block.
    fn constant(&mut self, c: Val) -> CompileResult<Vec<ir::Value>> {
        let ty = c.ty();
        if let Some(&global) = self.imp.globals.get(&c) {
            let space = self.imp.module.globals[global].space;
            return Ok(vec![
                self.hoisted(InstData::GlobalAddr { global }, Type::Ptr(space))
            ]);
        }
        if c.is_function() {
            let Some(token) = self.imp.function_address(c) else {
                return Err(self.unsupported(format!("a pointer to function '{}'", c.name())));
            };
            let ty = self.leaf_types_of(ty)?[0];
            return Ok(vec![self.iconst(ty, token)]);
        }
        let tys = self.leaf_types_of(ty)?;
        // `undef` and `poison` are `undef`, what the interpreter's checked
        // mode tracks as uninitialized (the SIMD engine makes it zero).
        if c.is_undef_or_poison() {
            return Ok(tys.into_iter().map(|t| self.undef(t)).collect());
        }
        if c.is_null_value() && !c.is_global_variable() {
            return Ok(tys.into_iter().map(|t| self.zero(t)).collect());
        }
        if let Some(bits) = c.const_int() {
            return Ok(vec![self.iconst(tys[0], bits)]);
        }
        if let Some(x) = c.const_fp() {
            let bits = super::types::float_bits(x, tys[0]);
            return Ok(vec![self.fconst(tys[0], bits)]);
        }
        match ty.kind() {
            LLVMTypeKind::LLVMVectorTypeKind
            | LLVMTypeKind::LLVMArrayTypeKind
            | LLVMTypeKind::LLVMStructTypeKind
                if !c.is_instruction()
                    && c.kind() != llvm_sys::LLVMValueKind::LLVMConstantExprValueKind =>
            {
                let n = match ty.kind() {
                    LLVMTypeKind::LLVMVectorTypeKind => ty.vector_len() as usize,
                    LLVMTypeKind::LLVMArrayTypeKind => ty.array_len() as usize,
                    _ => ty.struct_fields().len(),
                };
                let mut out = Vec::new();
                for i in 0..n {
                    let e = c
                        .const_element(i as u32)
                        .ok_or_else(|| self.unsupported(format!("constant {}", c.print())))?;
                    out.extend(self.operand(e)?);
                }
                Ok(out)
            }
            _ => self.constant_expr(c),
        }
    }

    /// A constant expression: its instruction, emitted among the hoisted constants.
    fn constant_expr(&mut self, c: Val) -> CompileResult<Vec<ir::Value>> {
        if c.kind() != llvm_sys::LLVMValueKind::LLVMConstantExprValueKind {
            return Err(self.unsupported(format!("constant {}", c.print())));
        }
        let was = std::mem::replace(&mut self.in_const, true);
        let result = self.operation(c, c.const_opcode());
        self.in_const = was;
        result
    }

    // ---- Instructions ----------------------------------------------------

    fn define(&mut self, inst: Val, leaves: Vec<ir::Value>) {
        self.vals.insert(inst, leaves);
    }

    fn instruction(&mut self, inst: Val, bb: Bb) -> CompileResult<()> {
        use LLVMOpcode::*;
        match inst.opcode() {
            LLVMPHI => Ok(()),
            LLVMRet => {
                let arg = if inst.num_operands() == 0 {
                    None
                } else {
                    Some(self.scalar(inst.operand(0))?)
                };
                if arg.is_some() {
                    return Err(self.unsupported("a kernel returning a value"));
                }
                self.emit(InstData::Return { arg: None }, None);
                Ok(())
            }
            LLVMBr => {
                let succs = inst.successors();
                if succs.len() == 1 {
                    let dest = self.block_call(bb, succs[0])?;
                    self.emit(InstData::Jump { dest }, None);
                } else {
                    // Operand 0 is the condition; successors are [then, else].
                    let cond = self.scalar(inst.operand(0))?;
                    let then_dest = self.block_call(bb, succs[0])?;
                    let else_dest = self.block_call(bb, succs[1])?;
                    self.emit(
                        InstData::Brif {
                            cond,
                            then_dest,
                            else_dest,
                        },
                        None,
                    );
                }
                Ok(())
            }
            LLVMSwitch => {
                let arg = self.scalar(inst.operand(0))?;
                let succs = inst.successors();
                let default = self.block_call(bb, succs[0])?;
                let mut cases = Vec::new();
                let mut seen = HashSet::new();
                for (k, &succ) in succs.iter().enumerate().skip(1) {
                    let value = inst
                        .operand(2 * k as u32)
                        .const_int()
                        .ok_or_else(|| self.unsupported("a switch case wider than 64 bits"))?;
                    if seen.insert(value) {
                        cases.push((value, self.block_call(bb, succ)?));
                    }
                }
                self.emit(
                    InstData::Switch {
                        arg,
                        default,
                        cases,
                    },
                    None,
                );
                Ok(())
            }
            LLVMUnreachable => {
                self.emit(InstData::Unreachable, None);
                Ok(())
            }
            LLVMAlloca => {
                let count = inst.operand(0).const_int().ok_or_else(|| {
                    self.unsupported("a variable-length array (dynamically sized private memory)")
                })?;
                let elem = inst.allocated_type();
                // Opaque handles (`event_t`) have no size in the data layout; they
                // are held as 64-bit values.
                let elem_size = match elem.kind() {
                    LLVMTypeKind::LLVMTargetExtTypeKind => 8,
                    _ => self.imp.layout.alloc_size(elem),
                };
                let size = count * elem_size;
                let align = inst.alignment().max(self.imp.layout.abi_align(elem)).max(1);
                let size = u32::try_from(size.max(1))
                    .map_err(|_| self.unsupported("a private array larger than 4 GiB"))?;
                let slot = self.func.stack_slots.push(ir::StackSlotData {
                    size,
                    align,
                    interleave: None,
                });
                let v = self.val(InstData::StackAddr { slot }, Type::Ptr(AddrSpace::Private));
                self.define(inst, vec![v]);
                Ok(())
            }
            LLVMLoad => {
                let ptr = self.scalar(inst.operand(0))?;
                let leaves = if inst.ordering() != LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic {
                    let ty = self.leaf_types_of(inst.ty())?[0];
                    let order = mem_order(inst.ordering());
                    vec![self.atomic_load(ptr, ty, order)?]
                } else {
                    self.load_leaves(ptr, inst.ty(), inst.alignment(), inst.is_volatile())?
                };
                self.define(inst, leaves);
                Ok(())
            }
            LLVMStore => {
                let values = self.operand(inst.operand(0))?;
                let ptr = self.scalar(inst.operand(1))?;
                if inst.ordering() != LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic {
                    let v = values[0];
                    let order = mem_order(inst.ordering());
                    let v = if self.ty(v).is_ptr() {
                        self.as_int(v)
                    } else {
                        v
                    };
                    self.emit(
                        InstData::AtomicStore {
                            args: [v, ptr],
                            order,
                            scope: MemScope::Device,
                        },
                        None,
                    );
                    return Ok(());
                }
                let ty = inst.operand(0).ty();
                let leaves = memory_leaves(&self.imp.layout, ty)
                    .ok_or_else(|| self.unsupported(format!("a store of type {}", ty.print())))?;
                for ((offset, _), v) in leaves.into_iter().zip(values) {
                    // An `undef` lane of a stored vector is padding (a
                    // `float3` stored as four floats) or leaves memory
                    // undefined: zero, as before, and not a report.
                    let v = self.frozen(v);
                    let p = self.offset_ptr(ptr, offset);
                    let align = align_at(inst.alignment(), offset);
                    self.emit(
                        InstData::Store {
                            args: [v, p],
                            align,
                            volatile: inst.is_volatile(),
                        },
                        None,
                    );
                }
                Ok(())
            }
            LLVMAtomicRMW => {
                let leaves = self.atomic_rmw(inst)?;
                self.define(inst, leaves);
                Ok(())
            }
            LLVMAtomicCmpXchg => {
                let ptr = self.scalar(inst.operand(0))?;
                let expected = self.scalar(inst.operand(1))?;
                let new = self.scalar(inst.operand(2))?;
                let ty = self.ty(expected);
                let (e, n) = (self.as_int(expected), self.as_int(new));
                let order = mem_order(inst.cmpxchg_success_ordering());
                let int_ty = self.ty(e);
                let old = self.val(
                    InstData::AtomicCas {
                        args: [ptr, e, n],
                        order,
                        scope: MemScope::Device,
                    },
                    int_ty,
                );
                let ok = self.icmp(IntCC::Eq, old, e);
                let old = self.int_as(old, ty);
                self.define(inst, vec![old, ok]);
                Ok(())
            }
            LLVMFence => {
                let order = mem_order(inst.ordering());
                let flags = ir::FenceFlags(ir::FenceFlags::LOCAL.0 | ir::FenceFlags::GLOBAL.0);
                self.emit(
                    InstData::Fence {
                        flags,
                        order,
                        scope: MemScope::Device,
                    },
                    None,
                );
                Ok(())
            }
            LLVMCall => {
                let leaves = super::calls::call(self, inst)?;
                self.define(inst, leaves);
                Ok(())
            }
            op => {
                let leaves = self.operation(inst, op)?;
                self.define(inst, leaves);
                Ok(())
            }
        }
    }

    /// Instructions that are also constant expressions: arithmetic,
    /// comparisons, casts, GEPs, vector and aggregate shuffling.
    fn operation(&mut self, inst: Val, op: LLVMOpcode) -> CompileResult<Vec<ir::Value>> {
        use LLVMOpcode::*;
        match op {
            LLVMAdd | LLVMSub | LLVMMul | LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem | LLVMShl
            | LLVMLShr | LLVMAShr | LLVMAnd | LLVMOr | LLVMXor | LLVMFAdd | LLVMFSub | LLVMFMul
            | LLVMFDiv | LLVMFRem => {
                let a = self.operand(inst.operand(0))?;
                let b = self.operand(inst.operand(1))?;
                if let Some(n) = odd_int_width(inst.ty()) {
                    return Ok(self.odd_binary(op, n, &a, &b));
                }
                let mut out = Vec::with_capacity(a.len());
                for (&x, &y) in a.iter().zip(&b) {
                    let binop = match (op, self.ty(x) == Type::I1) {
                        (LLVMAdd | LLVMSub | LLVMXor, true) => BinaryOp::Bxor,
                        (LLVMMul | LLVMAnd, true) => BinaryOp::Band,
                        (LLVMOr, true) => BinaryOp::Bor,
                        (_, true) => return Err(self.unsupported(format!("{op:?} on i1 values"))),
                        // `or disjoint` (no common bits) is an addition: say
                        // so, and `base + 2 * id | 1` stays consecutive.
                        (LLVMOr, false) if inst.is_disjoint_or() => BinaryOp::Iadd,
                        (op, false) => binary_op(op),
                    };
                    out.push(self.binary(binop, x, y));
                }
                Ok(out)
            }
            LLVMFNeg => {
                let a = self.operand(inst.operand(0))?;
                Ok(a.into_iter()
                    .map(|x| self.unary(UnaryOp::Fneg, x))
                    .collect())
            }
            LLVMICmp | LLVMFCmp => {
                let mut a = self.operand(inst.operand(0))?;
                let mut b = self.operand(inst.operand(1))?;
                if let (Some(n), LLVMICmp) = (odd_int_width(inst.operand(0).ty()), op) {
                    if is_signed(int_cc(inst.icmp_predicate())) {
                        a = a.into_iter().map(|x| self.sext_in_place(x, n)).collect();
                        b = b.into_iter().map(|x| self.sext_in_place(x, n)).collect();
                    }
                }
                let mut out = Vec::with_capacity(a.len());
                for (&x, &y) in a.iter().zip(&b) {
                    let v = if op == LLVMICmp {
                        self.icmp(int_cc(inst.icmp_predicate()), x, y)
                    } else {
                        match float_cc(inst.fcmp_predicate()) {
                            Ok(cond) => self.val(InstData::Fcmp { cond, args: [x, y] }, Type::I1),
                            Err(always) => self.iconst(Type::I1, always as u64),
                        }
                    };
                    out.push(v);
                }
                Ok(out)
            }
            LLVMSelect => {
                let c = self.operand(inst.operand(0))?;
                let a = self.operand(inst.operand(1))?;
                let b = self.operand(inst.operand(2))?;
                let mut out = Vec::with_capacity(a.len());
                for i in 0..a.len() {
                    let cond = if c.len() == 1 { c[0] } else { c[i] };
                    out.push(self.select(cond, a[i], b[i]));
                }
                Ok(out)
            }
            LLVMTrunc | LLVMZExt | LLVMSExt | LLVMFPToUI | LLVMFPToSI | LLVMUIToFP | LLVMSIToFP
            | LLVMFPTrunc | LLVMFPExt | LLVMPtrToInt | LLVMIntToPtr | LLVMAddrSpaceCast => {
                let a = self.operand(inst.operand(0))?;
                let to = self.leaf_types_of(inst.ty())?;
                let conv = cast_op(op);
                let from_odd = odd_int_width(inst.operand(0).ty());
                let to_odd = odd_int_width(inst.ty());
                if from_odd.is_some() || to_odd.is_some() {
                    return Ok(a
                        .into_iter()
                        .zip(to)
                        .map(|(x, t)| self.odd_cast(conv, x, t, from_odd, to_odd))
                        .collect());
                }
                Ok(a.into_iter()
                    .zip(to)
                    .map(|(x, t)| self.convert(conv, t, x))
                    .collect())
            }
            LLVMBitCast => {
                let a = self.operand(inst.operand(0))?;
                let to = self.leaf_types_of(inst.ty())?;
                self.bitcast(a, &to)
            }
            // `freeze undef` is some fixed value: zero; a value computed
            // at run time is frozen where it is (checked mode then counts
            // it initialized).
            LLVMFreeze => {
                let leaves = self.operand(inst.operand(0))?;
                Ok(leaves
                    .into_iter()
                    .map(|v| {
                        let z = self.frozen(v);
                        if z != v || self.is_constant(v) {
                            z
                        } else {
                            self.unary(UnaryOp::Freeze, v)
                        }
                    })
                    .collect())
            }
            LLVMGetElementPtr => Ok(vec![self.gep(inst)?]),
            LLVMExtractElement => {
                let v = self.operand(inst.operand(0))?;
                let index = inst.operand(1);
                Ok(vec![self.pick(&v, index)?])
            }
            LLVMInsertElement => {
                let mut v = self.operand(inst.operand(0))?;
                let x = self.scalar(inst.operand(1))?;
                let index = inst.operand(2);
                match index.const_int() {
                    Some(i) if (i as usize) < v.len() => v[i as usize] = x,
                    Some(_) => {}
                    None => {
                        let idx = self.scalar(index)?;
                        for (i, slot) in v.iter_mut().enumerate() {
                            let k = self.iconst(self.func.value_type(idx), i as u64);
                            let hit = self.icmp(IntCC::Eq, idx, k);
                            *slot = self.select(hit, x, *slot);
                        }
                    }
                }
                Ok(v)
            }
            LLVMShuffleVector => {
                let mut both = self.operand(inst.operand(0))?;
                both.extend(self.operand(inst.operand(1))?);
                let elem = self.leaf_types_of(inst.ty())?[0];
                let mut out = Vec::new();
                for m in inst.shuffle_mask() {
                    out.push(match m {
                        Some(i) if (i as usize) < both.len() => both[i as usize],
                        _ => self.zero(elem),
                    });
                }
                Ok(out)
            }
            LLVMExtractValue => {
                let agg = self.operand(inst.operand(0))?;
                let (start, len) = self.leaf_range(inst.operand(0).ty(), &inst.indices())?;
                Ok(agg[start..start + len].to_vec())
            }
            LLVMInsertValue => {
                let mut agg = self.operand(inst.operand(0))?;
                let x = self.operand(inst.operand(1))?;
                let (start, len) = self.leaf_range(inst.operand(0).ty(), &inst.indices())?;
                agg.splice(start..start + len, x);
                Ok(agg)
            }
            other => {
                Err(self.unsupported(format!("the LLVM instruction '{}'", opcode_name(other))))
            }
        }
    }

    /// Keeps only the low `n` bits (an odd-width integer's normal form).
    fn mask_to(&mut self, v: ir::Value, n: u32) -> ir::Value {
        let ty = self.ty(v);
        let m = self.iconst(ty, (1u64 << n) - 1);
        self.binary(BinaryOp::Band, v, m)
    }

    /// Sign-extends the low `n` bits of `v` across its container.
    fn sext_in_place(&mut self, v: ir::Value, n: u32) -> ir::Value {
        let ty = self.ty(v);
        let k = self.iconst(ty, (ty.bits() - n) as u64);
        let up = self.binary(BinaryOp::Ishl, v, k);
        self.binary(BinaryOp::Sshr, up, k)
    }

    /// A binary operation on `iN` values held zero-extended in a wider type.
    fn odd_binary(
        &mut self,
        op: LLVMOpcode,
        n: u32,
        a: &[ir::Value],
        b: &[ir::Value],
    ) -> Vec<ir::Value> {
        use LLVMOpcode::*;
        let mut out = Vec::with_capacity(a.len());
        for (&x, &y) in a.iter().zip(b) {
            let (x, y) = match op {
                LLVMSDiv | LLVMSRem => (self.sext_in_place(x, n), self.sext_in_place(y, n)),
                LLVMAShr => (self.sext_in_place(x, n), y),
                _ => (x, y),
            };
            let r = self.binary(binary_op(op), x, y);
            let stays_normal = matches!(
                op,
                LLVMAnd | LLVMOr | LLVMXor | LLVMUDiv | LLVMURem | LLVMLShr
            );
            out.push(if stays_normal { r } else { self.mask_to(r, n) });
        }
        out
    }

    /// A cast whose source or destination is an odd-width integer.
    fn odd_cast(
        &mut self,
        op: ConvertOp,
        x: ir::Value,
        to: Type,
        from_odd: Option<u32>,
        to_odd: Option<u32>,
    ) -> ir::Value {
        let from = self.ty(x);
        let x = match (op, from_odd) {
            (ConvertOp::Sext | ConvertOp::SiToFp, Some(n)) => self.sext_in_place(x, n),
            _ => x,
        };
        let r = match op {
            ConvertOp::Trunc | ConvertOp::Zext | ConvertOp::Sext => {
                let resize = if to.bits() > from.bits() {
                    if op == ConvertOp::Sext {
                        ConvertOp::Sext
                    } else {
                        ConvertOp::Zext
                    }
                } else {
                    ConvertOp::Trunc
                };
                if to == from {
                    x
                } else {
                    self.convert(resize, to, x)
                }
            }
            _ => self.convert(op, to, x),
        };
        match to_odd {
            Some(n) if op != ConvertOp::Zext || from_odd.is_none() => self.mask_to(r, n),
            _ => r,
        }
    }

    /// Element `index` (constant or not) of a scalarized vector.
    pub fn pick(&mut self, v: &[ir::Value], index: Val) -> CompileResult<ir::Value> {
        if let Some(i) = index.const_int() {
            return Ok(match v.get(i as usize) {
                Some(&x) => x,
                None => self.zero(self.ty(v[0])),
            });
        }
        let idx = self.scalar(index)?;
        let idx_ty = self.ty(idx);
        let mut r = v[0];
        for (i, &x) in v.iter().enumerate().skip(1) {
            let k = self.iconst(idx_ty, i as u64);
            let hit = self.icmp(IntCC::Eq, idx, k);
            r = self.select(hit, x, r);
        }
        Ok(r)
    }

    /// The arguments a branch from `from` passes to `to`'s parameters (its phis).
    fn block_call(&mut self, from: Bb, to: Bb) -> CompileResult<BlockCall> {
        let block = self.blocks[&to];
        let mut args = Vec::new();
        for phi in to.instructions() {
            if phi.opcode() != LLVMOpcode::LLVMPHI {
                break;
            }
            let incoming = self
                .phi_incoming
                .entry(phi)
                .or_insert_with(|| {
                    let mut by_pred = HashMap::new();
                    for (v, b) in phi.incoming() {
                        by_pred.entry(b).or_insert(v);
                    }
                    by_pred
                })
                .get(&from)
                .copied()
                .ok_or_else(|| {
                    CompileError::Internal(format!(
                        "phi without an entry for a predecessor: {}",
                        phi.print()
                    ))
                })?;
            args.extend(self.operand(incoming)?);
        }
        Ok(BlockCall { block, args })
    }

    /// Leaves `[start, start+len)` of the aggregate `ty` reached by `indices`.
    fn leaf_range(&self, ty: Ty, indices: &[u32]) -> CompileResult<(usize, usize)> {
        let count = |t: Ty| {
            leaf_types(t)
                .map(|v| v.len())
                .ok_or_else(|| self.unsupported(format!("type {}", t.print())))
        };
        let mut start = 0;
        let mut ty = ty;
        for &i in indices {
            match ty.kind() {
                LLVMTypeKind::LLVMStructTypeKind => {
                    let fields = ty.struct_fields();
                    for &f in &fields[..i as usize] {
                        start += count(f)?;
                    }
                    ty = fields[i as usize];
                }
                _ => {
                    ty = ty.element();
                    start += i as usize * count(ty)?;
                }
            }
        }
        Ok((start, count(ty)?))
    }

    /// Bitcast between scalarized shapes (e.g. `<4 x i8>` to `i32`), little-endian.
    fn bitcast(&mut self, src: Vec<ir::Value>, to: &[Type]) -> CompileResult<Vec<ir::Value>> {
        if src.len() == to.len() {
            let mut out = Vec::new();
            for (v, &t) in src.into_iter().zip(to) {
                let from = self.ty(v);
                out.push(if from == t {
                    v
                } else if from.is_ptr() || t.is_ptr() {
                    let i = self.as_int(v);
                    self.int_as(i, t)
                } else {
                    self.convert(ConvertOp::Bitcast, t, v)
                });
            }
            return Ok(out);
        }
        let s = self.ty(src[0]).bits();
        let d = to[0].bits();
        let ints: Vec<ir::Value> = src.into_iter().map(|v| self.as_int(v)).collect();
        let mut out = Vec::new();
        if s > d {
            let piece = Type::int_of_bits(d)
                .ok_or_else(|| self.unsupported("a bitcast to this vector type"))?;
            for x in ints {
                for k in 0..s / d {
                    let shifted = if k == 0 {
                        x
                    } else {
                        let amount = self.iconst(self.ty(x), (k * d) as u64);
                        self.binary(BinaryOp::Ushr, x, amount)
                    };
                    let p = self.convert(ConvertOp::Trunc, piece, shifted);
                    out.push(self.int_as(p, to[out.len()]));
                }
            }
        } else {
            let wide = Type::int_of_bits(d)
                .ok_or_else(|| self.unsupported("a bitcast to this vector type"))?;
            let r = (d / s) as usize;
            for (j, chunk) in ints.chunks(r).enumerate() {
                let mut acc = self.convert(ConvertOp::Zext, wide, chunk[0]);
                for (k, &x) in chunk.iter().enumerate().skip(1) {
                    let z = self.convert(ConvertOp::Zext, wide, x);
                    let amount = self.iconst(wide, (k as u32 * s) as u64);
                    let sh = self.binary(BinaryOp::Ishl, z, amount);
                    acc = self.binary(BinaryOp::Bor, acc, sh);
                }
                out.push(self.int_as(acc, to[j]));
            }
        }
        Ok(out)
    }

    /// `getelementptr`: base + constant and scaled dynamic offsets.
    fn gep(&mut self, inst: Val) -> CompileResult<ir::Value> {
        let ops = inst.operands();
        if inst.ty().kind() == LLVMTypeKind::LLVMVectorTypeKind {
            return Err(self.unsupported("a getelementptr on a vector of pointers"));
        }
        let base = self.scalar(ops[0])?;
        let layout = &self.imp.layout;
        let mut ty = inst.gep_source_type();
        let mut const_off: i64 = 0;
        let mut dynamic: Option<ir::Value> = None;
        for (n, &index) in ops[1..].iter().enumerate() {
            let stride: i64;
            if n == 0 {
                stride = layout.alloc_size(ty) as i64;
            } else {
                match ty.kind() {
                    LLVMTypeKind::LLVMStructTypeKind => {
                        let field = index.const_int().ok_or_else(|| {
                            CompileError::Internal("non-constant struct index".into())
                        })?;
                        const_off += layout.field_offset(ty, field as u32) as i64;
                        ty = ty.struct_fields()[field as usize];
                        continue;
                    }
                    LLVMTypeKind::LLVMVectorTypeKind => {
                        ty = ty.element();
                        stride = scalar_type(ty).map_or(0, |t| t.bytes() as i64);
                    }
                    _ => {
                        ty = ty.element();
                        stride = layout.alloc_size(ty) as i64;
                    }
                }
            }
            if let Some(c) = index.const_int() {
                const_off = const_off
                    .wrapping_add(sign_extend(c, index.ty().int_width()).wrapping_mul(stride));
                continue;
            }
            let idx = self.scalar(index)?;
            let idx = match self.ty(idx) {
                Type::I64 => idx,
                _ => self.convert(ConvertOp::Sext, Type::I64, idx),
            };
            let term = if stride == 1 {
                idx
            } else {
                let s = self.iconst(Type::I64, stride as u64);
                self.binary(BinaryOp::Imul, idx, s)
            };
            dynamic = Some(match dynamic {
                None => term,
                Some(d) => self.binary(BinaryOp::Iadd, d, term),
            });
        }
        let offset = match (dynamic, const_off) {
            (None, 0) => return Ok(base),
            (None, c) => self.iconst(Type::I64, c as u64),
            (Some(d), 0) => d,
            (Some(d), c) => {
                let k = self.iconst(Type::I64, c as u64);
                self.binary(BinaryOp::Iadd, d, k)
            }
        };
        let ty = self.ty(base);
        Ok(self.val(
            InstData::PtrAdd {
                args: [base, offset],
            },
            ty,
        ))
    }

    /// Loads the scalars of a value of LLVM type `ty` stored at `ptr`.
    fn load_leaves(
        &mut self,
        ptr: ir::Value,
        ty: Ty,
        align: u32,
        volatile: bool,
    ) -> CompileResult<Vec<ir::Value>> {
        let leaves = memory_leaves(&self.imp.layout, ty)
            .ok_or_else(|| self.unsupported(format!("a load of type {}", ty.print())))?;
        let mut out = Vec::with_capacity(leaves.len());
        for (offset, t) in leaves {
            let p = self.offset_ptr(ptr, offset);
            let align = align_at(align.max(1), offset);
            out.push(self.val(
                InstData::Load {
                    ptr: p,
                    align,
                    volatile,
                },
                t,
            ));
        }
        Ok(out)
    }

    fn atomic_load(
        &mut self,
        ptr: ir::Value,
        ty: Type,
        order: MemOrder,
    ) -> CompileResult<ir::Value> {
        let int_ty = if ty.is_ptr() { Type::I64 } else { ty };
        let v = self.val(
            InstData::AtomicLoad {
                ptr,
                order,
                scope: MemScope::Device,
            },
            int_ty,
        );
        Ok(if ty.is_ptr() { self.int_as(v, ty) } else { v })
    }

    fn atomic_rmw(&mut self, inst: Val) -> CompileResult<Vec<ir::Value>> {
        use LLVMAtomicRMWBinOp::*;
        let ptr = self.scalar(inst.operand(0))?;
        let value = self.scalar(inst.operand(1))?;
        let order = mem_order(inst.ordering());
        let ty = self.ty(value);
        let (op, operand) = match inst.atomic_rmw_op() {
            LLVMAtomicRMWBinOpXchg => (AtomicRmwOp::Xchg, self.as_int(value)),
            LLVMAtomicRMWBinOpAdd => (AtomicRmwOp::Add, value),
            LLVMAtomicRMWBinOpSub => (AtomicRmwOp::Sub, value),
            LLVMAtomicRMWBinOpAnd => (AtomicRmwOp::And, value),
            LLVMAtomicRMWBinOpOr => (AtomicRmwOp::Or, value),
            LLVMAtomicRMWBinOpXor => (AtomicRmwOp::Xor, value),
            LLVMAtomicRMWBinOpMax => (AtomicRmwOp::Smax, value),
            LLVMAtomicRMWBinOpMin => (AtomicRmwOp::Smin, value),
            LLVMAtomicRMWBinOpUMax => (AtomicRmwOp::Umax, value),
            LLVMAtomicRMWBinOpUMin => (AtomicRmwOp::Umin, value),
            LLVMAtomicRMWBinOpFAdd => (AtomicRmwOp::Fadd, value),
            LLVMAtomicRMWBinOpFSub => (AtomicRmwOp::Fadd, self.unary(UnaryOp::Fneg, value)),
            LLVMAtomicRMWBinOpFMax => (AtomicRmwOp::Fmax, value),
            LLVMAtomicRMWBinOpFMin => (AtomicRmwOp::Fmin, value),
            other => return Err(self.unsupported(format!("the atomic operation {other:?}"))),
        };
        let result_ty = self.ty(operand);
        let old = self.val(
            InstData::AtomicRmw {
                op,
                args: [ptr, operand],
                order,
                scope: MemScope::Device,
            },
            result_ty,
        );
        Ok(vec![if result_ty != ty {
            self.int_as(old, ty)
        } else {
            old
        }])
    }
}

/// The alignment known for `offset` bytes past an `align`-aligned address.
fn align_at(align: u32, offset: u64) -> u32 {
    if offset == 0 {
        return align.max(1);
    }
    let off_align = 1u64 << offset.trailing_zeros().min(31);
    (align.max(1) as u64).min(off_align) as u32
}

fn reverse_postorder(entry: Bb) -> Vec<Bb> {
    let mut post = Vec::new();
    let mut seen = HashSet::new();
    let successors = |bb: Bb| bb.terminator().map(|t| t.successors()).unwrap_or_default();
    // Each block with its successors (listed once: a `switch` has thousands)
    // and the next one to visit.
    let mut stack = vec![(entry, successors(entry), 0usize)];
    seen.insert(entry);
    while let Some((bb, succs, i)) = stack.last_mut() {
        if let Some(&s) = succs.get(*i) {
            *i += 1;
            if seen.insert(s) {
                stack.push((s, successors(s), 0));
            }
        } else {
            post.push(*bb);
            stack.pop();
        }
    }
    post.reverse();
    post
}

pub(super) fn mem_order(o: LLVMAtomicOrdering) -> MemOrder {
    use LLVMAtomicOrdering::*;
    match o {
        LLVMAtomicOrderingAcquire => MemOrder::Acquire,
        LLVMAtomicOrderingRelease => MemOrder::Release,
        LLVMAtomicOrderingAcquireRelease => MemOrder::AcqRel,
        LLVMAtomicOrderingSequentiallyConsistent => MemOrder::SeqCst,
        _ => MemOrder::Relaxed,
    }
}

fn binary_op(op: LLVMOpcode) -> BinaryOp {
    use LLVMOpcode::*;
    match op {
        LLVMAdd => BinaryOp::Iadd,
        LLVMSub => BinaryOp::Isub,
        LLVMMul => BinaryOp::Imul,
        LLVMUDiv => BinaryOp::Udiv,
        LLVMSDiv => BinaryOp::Sdiv,
        LLVMURem => BinaryOp::Urem,
        LLVMSRem => BinaryOp::Srem,
        LLVMShl => BinaryOp::Ishl,
        LLVMLShr => BinaryOp::Ushr,
        LLVMAShr => BinaryOp::Sshr,
        LLVMAnd => BinaryOp::Band,
        LLVMOr => BinaryOp::Bor,
        LLVMXor => BinaryOp::Bxor,
        LLVMFAdd => BinaryOp::Fadd,
        LLVMFSub => BinaryOp::Fsub,
        LLVMFMul => BinaryOp::Fmul,
        LLVMFDiv => BinaryOp::Fdiv,
        _ => BinaryOp::Frem,
    }
}

fn cast_op(op: LLVMOpcode) -> ConvertOp {
    use LLVMOpcode::*;
    match op {
        LLVMTrunc => ConvertOp::Trunc,
        LLVMZExt => ConvertOp::Zext,
        LLVMSExt => ConvertOp::Sext,
        LLVMFPToUI => ConvertOp::FpToUi,
        LLVMFPToSI => ConvertOp::FpToSi,
        LLVMUIToFP => ConvertOp::UiToFp,
        LLVMSIToFP => ConvertOp::SiToFp,
        LLVMFPTrunc => ConvertOp::FpTrunc,
        LLVMFPExt => ConvertOp::FpExt,
        LLVMPtrToInt => ConvertOp::PtrToInt,
        LLVMIntToPtr => ConvertOp::IntToPtr,
        _ => ConvertOp::AddrSpaceCast,
    }
}

fn is_signed(cc: IntCC) -> bool {
    matches!(cc, IntCC::Slt | IntCC::Sle | IntCC::Sgt | IntCC::Sge)
}

fn int_cc(p: LLVMIntPredicate) -> IntCC {
    use LLVMIntPredicate::*;
    match p {
        LLVMIntEQ => IntCC::Eq,
        LLVMIntNE => IntCC::Ne,
        LLVMIntUGT => IntCC::Ugt,
        LLVMIntUGE => IntCC::Uge,
        LLVMIntULT => IntCC::Ult,
        LLVMIntULE => IntCC::Ule,
        LLVMIntSGT => IntCC::Sgt,
        LLVMIntSGE => IntCC::Sge,
        LLVMIntSLT => IntCC::Slt,
        LLVMIntSLE => IntCC::Sle,
    }
}

/// The float condition, or the constant result for `false`/`true` predicates.
fn float_cc(p: LLVMRealPredicate) -> Result<FloatCC, bool> {
    use LLVMRealPredicate::*;
    Ok(match p {
        LLVMRealPredicateFalse => return Err(false),
        LLVMRealPredicateTrue => return Err(true),
        LLVMRealOEQ => FloatCC::Oeq,
        LLVMRealOGT => FloatCC::Ogt,
        LLVMRealOGE => FloatCC::Oge,
        LLVMRealOLT => FloatCC::Olt,
        LLVMRealOLE => FloatCC::Ole,
        LLVMRealONE => FloatCC::One,
        LLVMRealORD => FloatCC::Ord,
        LLVMRealUNO => FloatCC::Uno,
        LLVMRealUEQ => FloatCC::Ueq,
        LLVMRealUGT => FloatCC::Ugt,
        LLVMRealUGE => FloatCC::Uge,
        LLVMRealULT => FloatCC::Ult,
        LLVMRealULE => FloatCC::Ule,
        LLVMRealUNE => FloatCC::Une,
    })
}

fn opcode_name(op: LLVMOpcode) -> String {
    let s = format!("{op:?}");
    s.strip_prefix("LLVM").unwrap_or(&s).to_lowercase()
}
