//! A cursor for building functions: appends instructions to a current block
//! and infers result types where the operands determine them.

use crate::entities::{Block, FuncId, GlobalId, Inst, StackSlot, Value};
use crate::function::{Function, SourceLoc};
use crate::instructions::{
    BinaryOp, BlockCall, ConvertOp, FenceFlags, FloatCC, InstData, IntCC, MemOrder, MemScope,
    TernaryOp, UnaryOp, WorkItemQuery,
};
use crate::types::{AddrSpace, Type};

/// Appends instructions at the end of a current block of `func`.
pub struct FuncBuilder<'f> {
    pub func: &'f mut Function,
    block: Option<Block>,
    srcloc: Option<SourceLoc>,
}

impl<'f> FuncBuilder<'f> {
    pub fn new(func: &'f mut Function) -> FuncBuilder<'f> {
        FuncBuilder {
            func,
            block: None,
            srcloc: None,
        }
    }

    /// Makes `block` the block new instructions are appended to.
    pub fn switch_to_block(&mut self, block: Block) {
        self.block = Some(block);
    }

    pub fn current_block(&self) -> Option<Block> {
        self.block
    }

    /// The source location given to the instructions built from now on.
    pub fn set_srcloc(&mut self, loc: Option<SourceLoc>) {
        self.srcloc = loc;
    }

    /// Appends `data` with a result of type `result` (if any) to the current block.
    ///
    /// # Panics
    /// If no block was selected with [`FuncBuilder::switch_to_block`].
    pub fn ins(&mut self, data: InstData, result: Option<Type>) -> Inst {
        let block = self.block.expect("FuncBuilder: no current block");
        let inst = self.func.create_inst(data, result);
        self.func.append_inst(block, inst);
        self.func.srclocs[inst] = self.srcloc;
        inst
    }

    /// Appends an instruction that has a result and returns the result.
    pub fn value(&mut self, data: InstData, ty: Type) -> Value {
        let inst = self.ins(data, Some(ty));
        self.func.results[inst].expect("instruction was created with a result")
    }

    fn ty(&self, v: Value) -> Type {
        self.func.value_type(v)
    }

    pub fn iconst(&mut self, ty: Type, imm: i64) -> Value {
        self.value(
            InstData::Iconst {
                imm: imm as u64 & ty.int_mask(),
            },
            ty,
        )
    }

    pub fn fconst(&mut self, ty: Type, bits: u64) -> Value {
        self.value(InstData::Fconst { bits }, ty)
    }

    pub fn f32const(&mut self, x: f32) -> Value {
        self.fconst(Type::F32, x.to_bits() as u64)
    }

    pub fn f64const(&mut self, x: f64) -> Value {
        self.fconst(Type::F64, x.to_bits())
    }

    pub fn unary(&mut self, op: UnaryOp, arg: Value) -> Value {
        let ty = self.ty(arg);
        self.value(InstData::Unary { op, arg }, ty)
    }

    pub fn binary(&mut self, op: BinaryOp, a: Value, b: Value) -> Value {
        let ty = self.ty(a);
        self.value(InstData::Binary { op, args: [a, b] }, ty)
    }

    pub fn ternary(&mut self, op: TernaryOp, a: Value, b: Value, c: Value) -> Value {
        let ty = self.ty(a);
        self.value(
            InstData::Ternary {
                op,
                args: [a, b, c],
            },
            ty,
        )
    }

    pub fn icmp(&mut self, cond: IntCC, a: Value, b: Value) -> Value {
        self.value(InstData::Icmp { cond, args: [a, b] }, Type::I1)
    }

    pub fn fcmp(&mut self, cond: FloatCC, a: Value, b: Value) -> Value {
        self.value(InstData::Fcmp { cond, args: [a, b] }, Type::I1)
    }

    pub fn select(&mut self, cond: Value, a: Value, b: Value) -> Value {
        let ty = self.ty(a);
        self.value(InstData::Select { args: [cond, a, b] }, ty)
    }

    /// A conversion to `ty` with the default rounding, not saturating.
    pub fn convert(&mut self, op: ConvertOp, ty: Type, arg: Value) -> Value {
        let rounding = op.default_rounding();
        self.value(
            InstData::Convert {
                op,
                arg,
                rounding,
                saturate: false,
            },
            ty,
        )
    }

    pub fn ptradd(&mut self, ptr: Value, offset: Value) -> Value {
        let ty = self.ty(ptr);
        self.value(
            InstData::PtrAdd {
                args: [ptr, offset],
            },
            ty,
        )
    }

    pub fn load(&mut self, ty: Type, ptr: Value, align: u32) -> Value {
        self.value(
            InstData::Load {
                ptr,
                align,
                volatile: false,
            },
            ty,
        )
    }

    pub fn store(&mut self, value: Value, ptr: Value, align: u32) -> Inst {
        self.ins(
            InstData::Store {
                args: [value, ptr],
                align,
                volatile: false,
            },
            None,
        )
    }

    pub fn stack_addr(&mut self, slot: StackSlot) -> Value {
        self.value(InstData::StackAddr { slot }, Type::Ptr(AddrSpace::Private))
    }

    pub fn global_addr(&mut self, global: GlobalId, space: AddrSpace) -> Value {
        self.value(InstData::GlobalAddr { global }, Type::Ptr(space))
    }

    pub fn work_item(&mut self, query: WorkItemQuery, dim: u8) -> Value {
        self.value(InstData::WorkItem { query, dim }, query.result_type())
    }

    pub fn barrier(&mut self, flags: FenceFlags) -> Inst {
        self.ins(
            InstData::Barrier {
                flags,
                scope: MemScope::WorkGroup,
            },
            None,
        )
    }

    pub fn fence(&mut self, flags: FenceFlags, order: MemOrder, scope: MemScope) -> Inst {
        self.ins(
            InstData::Fence {
                flags,
                order,
                scope,
            },
            None,
        )
    }

    pub fn call(&mut self, func: FuncId, ret: Option<Type>, args: Vec<Value>) -> Option<Value> {
        let inst = self.ins(InstData::Call { func, args }, ret);
        self.func.results[inst]
    }

    pub fn jump(&mut self, block: Block, args: Vec<Value>) -> Inst {
        self.ins(
            InstData::Jump {
                dest: BlockCall { block, args },
            },
            None,
        )
    }

    pub fn brif(&mut self, cond: Value, then_dest: BlockCall, else_dest: BlockCall) -> Inst {
        self.ins(
            InstData::Brif {
                cond,
                then_dest,
                else_dest,
            },
            None,
        )
    }

    pub fn ret(&mut self, arg: Option<Value>) -> Inst {
        self.ins(InstData::Return { arg }, None)
    }
}
