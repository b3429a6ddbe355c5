//! How memory accesses through per-lane addresses (gathers and scatters)
//! are best done, decided on gang-level IR for the code generator:
//!
//! * **32-bit offsets in an object.** An address `ptradd base, off` (or a
//!   chain of them, `ptradd (ptradd base, a), b`) whose `base` is the same
//!   in every lane and points into an object — a kernel's pointer argument
//!   or a program-scope variable, or an address computed from one by
//!   `ptradd` (a row of an image) — can be gathered as `base + 32-bit
//!   offset` (x86's `vpgatherdd`: one instruction for 16 lanes) instead of
//!   from 64-bit pointers (two `vpgatherqd`, and the 64-bit address
//!   arithmetic before them), when every such object is smaller than
//!   2 GiB: an access inside the object is then less than 2³¹ bytes from
//!   any address in it. The runtime knows the buffers' sizes and says so in
//!   the specialization ([`crate::pipeline::Spec::small_buffers`]).
//! * **A run-time test for consecutive lanes.** An address the analysis
//!   could not prove consecutive may still be at run time (an index clamped
//!   at a border, computed with bit operations); the code generator then
//!   tests for it and does one vector access. An address computed from
//!   loaded data (`x[col[k]]`, a pointer walking a record per lane) is never
//!   worth the test: it gets none.

use cranelift_entity::SecondaryMap;
use lockstep_ir::{Function, GlobalId, Inst, InstData, Value, ValueDef};

/// Objects smaller than this have every in-bounds offset fit in a signed
/// 32-bit index.
pub const SMALL_OBJECT: u64 = 1 << 31;

/// The plan for the per-lane memory accesses of one function.
pub struct Gathers {
    /// Values whose computation reads memory: a load, an atomic, or a value
    /// built from one (through operations and block parameters).
    loaded: SecondaryMap<Value, bool>,
    /// Values that are the start of an object no larger than
    /// [`SMALL_OBJECT`] in this specialization.
    small_object_starts: SecondaryMap<Value, bool>,
}

impl Gathers {
    /// The plan for `func`; `global_size` gives a program-scope variable's
    /// size, and `small_buffers` says every buffer a kernel argument points
    /// to is smaller than [`SMALL_OBJECT`].
    pub fn compute(
        func: &Function,
        global_size: impl Fn(GlobalId) -> u64,
        small_buffers: bool,
    ) -> Gathers {
        let mut small_object_starts = SecondaryMap::new();
        if small_buffers && func.is_kernel() {
            for &p in func.params() {
                if func.value_type(p).is_ptr() {
                    small_object_starts[p] = true;
                }
            }
        }
        for (_, inst) in func.insts_in_layout() {
            if let (InstData::GlobalAddr { global }, Some(r)) =
                (&func.insts[inst], func.results[inst])
            {
                small_object_starts[r] = global_size(*global) < SMALL_OBJECT;
            }
        }
        Gathers {
            loaded: loaded_values(func),
            small_object_starts,
        }
    }

    /// For an access through `ptr`, if it can use 32-bit offsets: an
    /// address in a small object that is the same in every lane (by
    /// `is_uniform`), and the byte offsets whose sum is `ptr`'s distance
    /// from it (the offsets of the `ptradd`s between, innermost last).
    pub fn object_offset(
        &self,
        func: &Function,
        ptr: Value,
        is_uniform: impl Fn(Value) -> bool,
    ) -> Option<ObjectOffset> {
        let mut offsets = Vec::new();
        let mut at = ptr;
        while let Some([base, off]) = ptr_add(func, at) {
            offsets.push(off);
            if is_uniform(base) && self.in_small_object(func, base) {
                return Some(ObjectOffset { base, offsets });
            }
            at = base;
        }
        None
    }

    /// True if `ptr` is the start of a small object or a `ptradd` from an
    /// address in one.
    fn in_small_object(&self, func: &Function, mut ptr: Value) -> bool {
        loop {
            if self.small_object_starts[ptr] {
                return true;
            }
            match ptr_add(func, ptr) {
                Some([base, _]) => ptr = base,
                None => return false,
            }
        }
    }

    /// True if an access through `ptr`, whose lanes' addresses were not
    /// proved consecutive, is worth a run-time test for consecutive ones:
    /// its address is not computed from loaded data.
    pub fn worth_consecutive_test(&self, ptr: Value) -> bool {
        !self.loaded[ptr]
    }
}

/// An address in a small object, the same in every lane, and the byte
/// offsets that added to it give a gather's or scatter's lane addresses
/// ([`Gathers::object_offset`]).
pub struct ObjectOffset {
    pub base: Value,
    pub offsets: Vec<Value>,
}

/// The operands of `ptr`'s definition if it is a `ptradd`.
fn ptr_add(func: &Function, ptr: Value) -> Option<[Value; 2]> {
    let ValueDef::Result(inst) = func.values[ptr].def else {
        return None;
    };
    match func.insts[inst] {
        InstData::PtrAdd { args } => Some(args),
        _ => None,
    }
}

/// True for an instruction whose result comes from memory.
fn reads_memory(data: &InstData) -> bool {
    match data {
        InstData::Predicated { inst, .. } => reads_memory(inst),
        InstData::Load { .. }
        | InstData::AtomicRmw { .. }
        | InstData::AtomicCas { .. }
        | InstData::AtomicLoad { .. }
        | InstData::Call { .. } => true,
        _ => false,
    }
}

/// Per value: whether it is computed from a memory read (a fixed point
/// over operations and block parameters).
fn loaded_values(func: &Function) -> SecondaryMap<Value, bool> {
    let mut loaded = SecondaryMap::new();
    // Block parameters receive the arguments of the branches to them.
    let mut incoming: Vec<(Value, Value)> = Vec::new();
    let mut defs: Vec<(Inst, Value)> = Vec::new();
    for (_, inst) in func.insts_in_layout() {
        let data = &func.insts[inst];
        for dest in data.branch_dests() {
            let params = &func.blocks[dest.block].params;
            incoming.extend(params.iter().copied().zip(dest.args.iter().copied()));
        }
        if let Some(r) = func.results[inst] {
            if reads_memory(data) {
                loaded[r] = true;
            } else {
                defs.push((inst, r));
            }
        }
    }
    let mut changed = true;
    while changed {
        changed = false;
        for &(inst, r) in &defs {
            if !loaded[r] && func.insts[inst].args().iter().any(|&a| loaded[a]) {
                loaded[r] = true;
                changed = true;
            }
        }
        for &(param, arg) in &incoming {
            if !loaded[param] && loaded[arg] {
                loaded[param] = true;
                changed = true;
            }
        }
    }
    loaded
}
