//! Functions: blocks, instructions and values in dense maps, plus the block layout.

use cranelift_entity::{PrimaryMap, SecondaryMap};

use crate::entities::{Block, Inst, StackSlot, Value};
use crate::instructions::InstData;
use crate::module::KernelInfo;
use crate::types::Type;

/// Parameter and return types of a function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Signature {
    pub params: Vec<Type>,
    pub ret: Option<Type>,
}

/// Where a value comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ValueDef {
    /// The result of an instruction.
    Result(Inst),
    /// The `n`th parameter of a block.
    Param(Block, u32),
    /// A number with no definition: a gap left by a pass that removed the
    /// value, kept so that value numbers stay stable. Never used by a valid function.
    Unused,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ValueData {
    pub ty: Type,
    pub def: ValueDef,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockData {
    /// The block parameters; a branch passes one argument for each.
    pub params: Vec<Value>,
    /// The instructions in order; a block in the layout ends with its only terminator.
    pub insts: Vec<Inst>,
}

/// A region of private memory of one work-item (a private array, or a local
/// variable whose address is taken).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct StackSlotData {
    pub size: u32,
    pub align: u32,
    /// Gang-level IR: the slot is interleaved across lanes by elements of
    /// this many bytes (see [`crate::private`]); `None`: each lane's copy is
    /// contiguous.
    pub interleave: Option<u32>,
}

/// A position in the OpenCL C source, from debug info (`-g`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SourceLoc {
    pub line: u32,
    pub col: u32,
}

/// What a function may contain, by how far down the pipeline it is. The
/// verifier checks the rules of the function's phase.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Phase {
    /// As the front end produced it: any construct of the instruction set.
    #[default]
    Imported,
    /// Calls inlined, a single `return`, `switch` only on values uniform
    /// across a gang (the others lowered to `brif`s): what the analyses and
    /// the later passes expect.
    Normalized,
    /// Barriers are suspend points (`suspend`), each passing exactly the
    /// gang state live across it to its resume block; no `barrier` remains.
    Split,
    /// Divergent control flow replaced by masks: every remaining branch is
    /// uniform across a gang.
    Linearized,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Imported => "imported",
            Phase::Normalized => "normalized",
            Phase::Split => "split",
            Phase::Linearized => "linearized",
        }
    }

    pub fn from_name(name: &str) -> Option<Phase> {
        [
            Phase::Imported,
            Phase::Normalized,
            Phase::Split,
            Phase::Linearized,
        ]
        .into_iter()
        .find(|p| p.name() == name)
    }
}

/// A kernel or helper function.
#[derive(Clone, Debug, Default)]
pub struct Function {
    pub name: String,
    pub signature: Signature,
    /// Kernel metadata; `None` for helper functions.
    pub kernel: Option<KernelInfo>,
    pub phase: Phase,
    pub blocks: PrimaryMap<Block, BlockData>,
    pub insts: PrimaryMap<Inst, InstData>,
    pub values: PrimaryMap<Value, ValueData>,
    /// The result of each instruction, if it has one.
    pub results: SecondaryMap<Inst, Option<Value>>,
    /// The block each instruction is in (meaningful for instructions in the layout).
    pub inst_block: SecondaryMap<Inst, Option<Block>>,
    pub stack_slots: PrimaryMap<StackSlot, StackSlotData>,
    pub srclocs: SecondaryMap<Inst, Option<SourceLoc>>,
    /// The blocks in program order; the first is the entry block, whose
    /// parameters are the function's parameters. Blocks not listed here are
    /// not part of the function.
    pub layout: Vec<Block>,
    /// Gang-level IR (phase `linearized`): the function runs a gang of this
    /// many work-items (4, 8, 16 or 32), one per lane.
    pub gang: Option<u32>,
    /// Lane refill (set by the `refill` pass): one call of the kernel runs
    /// a range of work-groups, each lane taking the next work-item with
    /// `next_item` when its previous one is done, so the work-item queries
    /// are computed from the item a lane holds. Printed `refill`.
    pub refill: bool,
    /// Gang-level IR: the values with one element per lane (printed `<T>`);
    /// the others are uniform across the gang.
    pub varying: SecondaryMap<Value, bool>,
}

impl Function {
    pub fn new(name: impl Into<String>, signature: Signature) -> Function {
        Function {
            name: name.into(),
            signature,
            ..Function::default()
        }
    }

    /// The entry block, if the function has any block.
    pub fn entry_block(&self) -> Option<Block> {
        self.layout.first().copied()
    }

    /// The function's parameters (the entry block's parameters).
    pub fn params(&self) -> &[Value] {
        match self.entry_block() {
            Some(entry) => &self.blocks[entry].params,
            None => &[],
        }
    }

    pub fn value_type(&self, v: Value) -> Type {
        self.values[v].ty
    }

    /// True if `v` has one element per lane (gang-level IR).
    pub fn is_varying(&self, v: Value) -> bool {
        self.varying[v]
    }

    pub fn inst_result(&self, inst: Inst) -> Option<Value> {
        self.results[inst]
    }

    /// Creates a block (not yet in the layout).
    pub fn create_block(&mut self) -> Block {
        self.blocks.push(BlockData::default())
    }

    /// Creates a block and appends it to the layout.
    pub fn append_new_block(&mut self) -> Block {
        let block = self.create_block();
        self.layout.push(block);
        block
    }

    /// Adds a parameter of type `ty` to `block`.
    pub fn append_block_param(&mut self, block: Block, ty: Type) -> Value {
        let n = self.blocks[block].params.len() as u32;
        let v = self.values.push(ValueData {
            ty,
            def: ValueDef::Param(block, n),
        });
        self.blocks[block].params.push(v);
        v
    }

    /// Creates an instruction (not in any block) with a result of type
    /// `result`, if given.
    pub fn create_inst(&mut self, data: InstData, result: Option<Type>) -> Inst {
        let inst = self.insts.push(data);
        if let Some(ty) = result {
            let v = self.values.push(ValueData {
                ty,
                def: ValueDef::Result(inst),
            });
            self.results[inst] = Some(v);
        }
        inst
    }

    /// Appends `inst` to the end of `block`.
    pub fn append_inst(&mut self, block: Block, inst: Inst) {
        self.blocks[block].insts.push(inst);
        self.inst_block[inst] = Some(block);
    }

    /// Inserts `inst` into `block` at position `index`.
    pub fn insert_inst(&mut self, block: Block, index: usize, inst: Inst) {
        self.blocks[block].insts.insert(index, inst);
        self.inst_block[inst] = Some(block);
    }

    /// Removes `inst` from its block (the instruction and its result stay
    /// allocated but unreachable; its result must no longer be used).
    pub fn remove_inst(&mut self, inst: Inst) {
        if let Some(block) = self.inst_block[inst].take() {
            self.blocks[block].insts.retain(|&i| i != inst);
        }
    }

    /// The terminator of `block`, if its last instruction is one.
    pub fn terminator(&self, block: Block) -> Option<Inst> {
        let last = *self.blocks[block].insts.last()?;
        self.insts[last].is_terminator().then_some(last)
    }

    /// The successors of `block`, in terminator order, with repeats.
    pub fn successors(&self, block: Block) -> Vec<Block> {
        self.terminator(block)
            .map(|t| self.insts[t].successors())
            .unwrap_or_default()
    }

    /// Replaces every use of `from` by `to`, in all instructions of the layout.
    pub fn replace_uses(&mut self, from: Value, to: Value) {
        for &block in &self.layout {
            for &inst in &self.blocks[block].insts {
                self.insts[inst].map_args(|v| if v == from { to } else { v });
            }
        }
    }

    /// The instructions of the layout, in program order, with their blocks.
    pub fn insts_in_layout(&self) -> impl Iterator<Item = (Block, Inst)> + '_ {
        self.layout
            .iter()
            .flat_map(move |&b| self.blocks[b].insts.iter().map(move |&i| (b, i)))
    }

    pub fn is_kernel(&self) -> bool {
        self.kernel.is_some()
    }

    /// True if any instruction in the layout is a barrier.
    pub fn has_barrier(&self) -> bool {
        self.insts_in_layout()
            .any(|(_, i)| matches!(self.insts[i], InstData::Barrier { .. }))
    }

    /// True if the function uses subgroups: a subgroup collective or a
    /// subgroup query (its work-items' subgroup must be the gang they run
    /// in).
    pub fn uses_sub_groups(&self) -> bool {
        self.insts_in_layout().any(|(_, i)| match &self.insts[i] {
            InstData::SubGroup { .. } => true,
            InstData::WorkItem { query, .. } => query.is_sub_group(),
            _ => false,
        })
    }
}
