//! Pointer provenance: for every pointer value, the memory object it points
//! into — a kernel argument, a program-scope or `__local` variable, or a
//! stack slot — when every path gives the same one.
//!
//! Checked mode needs it: an access is in bounds when it stays inside the
//! object its pointer came from (not merely inside *some* object), so a
//! bounds check compares the address with that object's start and size.
//! `ptradd` and address-space casts keep their operand's root; block
//! parameters and `select`s join the roots of what flows into them (the
//! same root, or [`Root::Unknown`]); pointers loaded from memory, made from
//! integers or returned by calls are `Unknown`. The analysis iterates to a
//! fixpoint over the block parameters (loops carry pointers around).

use cranelift_entity::SecondaryMap;
use lockstep_ir::{ConvertOp, Function, GlobalId, InstData, StackSlot, Value};

/// What a pointer points into.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Root {
    /// Not known yet (during the fixpoint), or not a pointer.
    #[default]
    None,
    /// Kernel argument (entry-block parameter) `index`.
    Arg(u32),
    /// A program-scope or `__local` variable.
    Global(GlobalId),
    /// A stack slot of the work-item (a private array or variable).
    Stack(StackSlot),
    /// Several objects, or one the analysis cannot name.
    Unknown,
}

impl Root {
    fn join(self, other: Root) -> Root {
        match (self, other) {
            (Root::None, r) | (r, Root::None) => r,
            (a, b) if a == b => a,
            _ => Root::Unknown,
        }
    }
}

/// The root of every pointer value of a function.
#[derive(Clone, Debug)]
pub struct Provenance {
    roots: SecondaryMap<Value, Root>,
}

impl Provenance {
    /// Computes the roots of `func`'s pointer values.
    pub fn compute(func: &Function) -> Provenance {
        let mut roots: SecondaryMap<Value, Root> = SecondaryMap::new();
        if let Some(entry) = func.entry_block() {
            for (i, &p) in func.blocks[entry].params.iter().enumerate() {
                if func.value_type(p).is_ptr() {
                    roots[p] = Root::Arg(i as u32);
                }
            }
        }
        // Block parameters join what every branch passes them; iterate
        // until nothing changes (roots only move up: None → X → Unknown).
        let mut changed = true;
        while changed {
            changed = false;
            for (_, inst) in func.insts_in_layout() {
                let data = &func.insts[inst];
                if let Some(r) = func.results[inst] {
                    if func.value_type(r).is_ptr() {
                        let new = Self::of_inst(func, data, &roots);
                        if new != roots[r] {
                            roots[r] = new;
                            changed = true;
                        }
                    }
                }
                for call in data.branch_dests() {
                    let params = &func.blocks[call.block].params;
                    for (&p, &a) in params.iter().zip(&call.args) {
                        if !func.value_type(p).is_ptr() {
                            continue;
                        }
                        let new = roots[p].join(roots[a]);
                        if new != roots[p] {
                            roots[p] = new;
                            changed = true;
                        }
                    }
                }
            }
        }
        Provenance { roots }
    }

    fn of_inst(func: &Function, data: &InstData, roots: &SecondaryMap<Value, Root>) -> Root {
        match data {
            InstData::PtrAdd { args } => roots[args[0]],
            InstData::StackAddr { slot } => Root::Stack(*slot),
            InstData::GlobalAddr { global } => Root::Global(*global),
            InstData::Select { args } => roots[args[1]].join(roots[args[2]]),
            InstData::Convert {
                op: ConvertOp::AddrSpaceCast | ConvertOp::Bitcast,
                arg,
                ..
            } if func.value_type(*arg).is_ptr() => roots[*arg],
            _ => Root::Unknown,
        }
    }

    /// The root of pointer `v` (`Root::Unknown` if the analysis cannot name one).
    pub fn root(&self, v: Value) -> Root {
        match self.roots[v] {
            Root::None => Root::Unknown,
            r => r,
        }
    }
}
