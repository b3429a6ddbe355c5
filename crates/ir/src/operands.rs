//! Generic access to instruction operands and branch targets, so passes can
//! walk and rewrite uses without matching every instruction format.

use crate::entities::{Block, Value};
use crate::instructions::{BlockCall, InstData};

/// Calls `$each` on each operand slice of `$inst`, in operand order; `$one`
/// is `from_ref` or `from_mut` and `$iter` `iter` or `iter_mut`, so that one
/// match serves both the shared and the mutable walk.
macro_rules! walk_operands {
    ($inst:expr, $each:ident, $one:ident, $iter:ident, $slice:ident) => {
        match $inst {
            InstData::Iconst { .. }
            | InstData::Fconst { .. }
            | InstData::Undef
            | InstData::StackAddr { .. }
            | InstData::GlobalAddr { .. }
            | InstData::Fence { .. }
            | InstData::Barrier { .. }
            | InstData::WorkItem { .. }
            | InstData::NextItem
            | InstData::Unreachable => {}
            InstData::Unary { arg, .. } | InstData::Convert { arg, .. } => {
                $each(std::slice::$one(arg))
            }
            InstData::Load { ptr, .. } | InstData::AtomicLoad { ptr, .. } => {
                $each(std::slice::$one(ptr))
            }
            InstData::Binary { args, .. }
            | InstData::Icmp { args, .. }
            | InstData::Fcmp { args, .. }
            | InstData::PtrAdd { args }
            | InstData::Store { args, .. }
            | InstData::AtomicRmw { args, .. }
            | InstData::AtomicStore { args, .. } => $each(args),
            InstData::Ternary { args, .. }
            | InstData::Select { args }
            | InstData::MemCopy { args }
            | InstData::MemSet { args }
            | InstData::AtomicCas { args, .. } => $each(args),
            InstData::AsyncCopied { args, .. } => $each(args),
            InstData::AsyncWait { arg } => $each(std::slice::$one(arg)),
            InstData::Call { args, .. }
            | InstData::Printf { args, .. }
            | InstData::DeviceEnqueue { args, .. }
            | InstData::Gang { args, .. }
            | InstData::SubGroup { args, .. } => $each(args),
            InstData::Predicated { .. } => unreachable!("handled before the walk"),
            InstData::Return { arg } => {
                if let Some(arg) = arg {
                    $each(std::slice::$one(arg))
                }
            }
            InstData::Jump { dest } => $each(dest.args.$slice()),
            InstData::Suspend { dest, arriving, .. } => {
                $each(dest.args.$slice());
                if let Some(arriving) = arriving {
                    $each(std::slice::$one(arriving))
                }
            }
            InstData::Brif {
                cond,
                then_dest,
                else_dest,
            } => {
                $each(std::slice::$one(cond));
                $each(then_dest.args.$slice());
                $each(else_dest.args.$slice());
            }
            InstData::Switch {
                arg,
                default,
                cases,
            } => {
                $each(std::slice::$one(arg));
                $each(default.args.$slice());
                for (_, dest) in cases.$iter() {
                    $each(dest.args.$slice());
                }
            }
        }
    };
}

impl InstData {
    /// The value operands, in order (for branches: the condition or switch
    /// argument first, then block-call arguments in target order).
    pub fn args(&self) -> Vec<Value> {
        let mut out = Vec::new();
        self.visit_args(|v| out.push(v));
        out
    }

    /// Calls `f` on every value operand, in the order of [`InstData::args`].
    pub fn visit_args(&self, mut f: impl FnMut(Value)) {
        if let InstData::Predicated { mask, inst } = self {
            f(*mask);
            return inst.visit_args(f);
        }
        let mut each = |vs: &[Value]| vs.iter().for_each(|v| f(*v));
        walk_operands!(self, each, from_ref, iter, as_slice);
    }

    /// Replaces every value operand by `f(operand)`, in the order of [`InstData::args`].
    pub fn map_args(&mut self, mut f: impl FnMut(Value) -> Value) {
        if let InstData::Predicated { mask, inst } = self {
            *mask = f(*mask);
            return inst.map_args(f);
        }
        let mut each = |vs: &mut [Value]| vs.iter_mut().for_each(|v| *v = f(*v));
        walk_operands!(self, each, from_mut, iter_mut, as_mut_slice);
    }

    /// True for the instructions that end a block.
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            InstData::Jump { .. }
                | InstData::Brif { .. }
                | InstData::Switch { .. }
                | InstData::Return { .. }
                | InstData::Suspend { .. }
                | InstData::Unreachable
        )
    }

    /// The branch targets of a terminator, in order (empty for other instructions).
    pub fn branch_dests(&self) -> Vec<&BlockCall> {
        match self {
            InstData::Jump { dest } | InstData::Suspend { dest, .. } => vec![dest],
            InstData::Brif {
                then_dest,
                else_dest,
                ..
            } => vec![then_dest, else_dest],
            InstData::Switch { default, cases, .. } => std::iter::once(default)
                .chain(cases.iter().map(|(_, d)| d))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Mutable access to the branch targets of a terminator.
    pub fn branch_dests_mut(&mut self) -> Vec<&mut BlockCall> {
        match self {
            InstData::Jump { dest } | InstData::Suspend { dest, .. } => vec![dest],
            InstData::Brif {
                then_dest,
                else_dest,
                ..
            } => vec![then_dest, else_dest],
            InstData::Switch { default, cases, .. } => std::iter::once(default)
                .chain(cases.iter_mut().map(|(_, d)| d))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The successor blocks of a terminator, in order, with repeats (a `brif`
    /// whose two targets are the same block lists it twice).
    pub fn successors(&self) -> Vec<Block> {
        self.branch_dests().iter().map(|d| d.block).collect()
    }

    /// True for atomics, `printf` and device enqueue operations: in
    /// gang-level IR they act in each lane on its own (in lane order), even
    /// with uniform operands.
    pub fn acts_per_lane(&self) -> bool {
        match self {
            InstData::Predicated { inst, .. } => inst.acts_per_lane(),
            _ => matches!(
                self,
                InstData::AtomicRmw { .. }
                    | InstData::AtomicCas { .. }
                    | InstData::AtomicLoad { .. }
                    | InstData::AtomicStore { .. }
                    | InstData::Printf { .. }
                    | InstData::DeviceEnqueue { .. }
                    | InstData::NextItem
            ),
        }
    }

    /// True if the instruction reads or writes memory or has another effect
    /// beyond its result (so it may not be removed or reordered freely); a
    /// subgroup collective counts, since moving it changes who takes part.
    pub fn has_side_effects(&self) -> bool {
        matches!(
            self,
            InstData::Store { .. }
                | InstData::Load { volatile: true, .. }
                | InstData::MemCopy { .. }
                | InstData::MemSet { .. }
                | InstData::AtomicRmw { .. }
                | InstData::AtomicCas { .. }
                | InstData::AtomicLoad { .. }
                | InstData::AtomicStore { .. }
                | InstData::Fence { .. }
                | InstData::Barrier { .. }
                | InstData::Suspend { .. }
                | InstData::Call { .. }
                | InstData::Printf { .. }
                | InstData::DeviceEnqueue { .. }
                | InstData::NextItem
                | InstData::SubGroup { .. }
                | InstData::AsyncCopied { .. }
                | InstData::AsyncWait { .. }
        ) || self.is_terminator()
            || matches!(self, InstData::Predicated { inst, .. } if inst.has_side_effects())
    }

    /// The mnemonic of the instruction in the text format, without suffixes.
    pub fn mnemonic(&self) -> &'static str {
        match self {
            InstData::Iconst { .. } => "iconst",
            InstData::Undef => "undef",
            InstData::Fconst { .. } => "fconst",
            InstData::Unary { op, .. } => op.name(),
            InstData::Binary { op, .. } => op.name(),
            InstData::Ternary { op, .. } => op.name(),
            InstData::Icmp { .. } => "icmp",
            InstData::Fcmp { .. } => "fcmp",
            InstData::Select { .. } => "select",
            InstData::Convert { op, .. } => op.name(),
            InstData::PtrAdd { .. } => "ptradd",
            InstData::Load { .. } => "load",
            InstData::Store { .. } => "store",
            InstData::StackAddr { .. } => "stack_addr",
            InstData::GlobalAddr { .. } => "global_addr",
            InstData::MemCopy { .. } => "memcpy",
            InstData::MemSet { .. } => "memset",
            InstData::AtomicRmw { .. } => "atomic_rmw",
            InstData::AtomicCas { .. } => "atomic_cas",
            InstData::AtomicLoad { .. } => "atomic_load",
            InstData::AtomicStore { .. } => "atomic_store",
            InstData::Fence { .. } => "fence",
            InstData::Barrier { .. } => "barrier",
            InstData::WorkItem { query, .. } => query.name(),
            InstData::Call { .. } => "call",
            InstData::NextItem => "next_item",
            InstData::Gang { op, .. } => op.name(),
            InstData::SubGroup { .. } => "sub_group",
            InstData::Predicated { inst, .. } => inst.mnemonic(),
            InstData::Printf { .. } => "printf",
            InstData::AsyncCopied { .. } => "async_copied",
            InstData::AsyncWait { .. } => "async_wait",
            InstData::DeviceEnqueue { op, .. } => op.name(),
            InstData::Jump { .. } => "jump",
            InstData::Brif { .. } => "brif",
            InstData::Switch { .. } => "switch",
            InstData::Return { .. } => "return",
            InstData::Suspend { .. } => "suspend",
            InstData::Unreachable => "unreachable",
        }
    }
}

impl crate::instructions::ConvertOp {
    /// The rounding a conversion uses when none is written: toward zero for
    /// float-to-int (C's rule), to nearest even otherwise.
    pub fn default_rounding(self) -> crate::instructions::Rounding {
        use crate::instructions::{ConvertOp, Rounding};
        match self {
            ConvertOp::FpToSi | ConvertOp::FpToUi => Rounding::Rtz,
            _ => Rounding::Rte,
        }
    }
}
