//! Liveness: the values live into and out of every block, and the values
//! live across every `barrier`.
//!
//! The work-group function splits a kernel at its barriers; every value live
//! across a barrier must be saved in a per-gang context array before it and
//! reloaded after it (pocl's context arrays, Karrenberg & Hack's
//! continuations). Liveness says which, and how many, values that is.
//!
//! Conventions (block-parameter SSA): a block's parameters are defined at
//! its entry, so they are never live into it; the arguments a branch passes
//! are uses by the terminator at the end of the predecessor, so they are
//! live up to it but not out of it (unless a successor uses them itself).
//! Only blocks reachable from the entry take part; unreachable blocks have
//! empty sets and their uses are ignored.
//!
//! The classic backward data-flow problem, iterated over the postorder until
//! nothing changes, with sets as dense bit vectors over value numbers.

use cranelift_entity::{EntityRef, SecondaryMap};
use lockstep_ir::{Block, Function, Inst, InstData, Value};

use super::cfg::ControlFlowGraph;

/// A set of values as a bit vector over value numbers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ValueSet {
    words: Vec<u64>,
}

impl ValueSet {
    pub fn new() -> ValueSet {
        ValueSet::default()
    }

    pub fn contains(&self, v: Value) -> bool {
        let i = v.index();
        self.words
            .get(i / 64)
            .is_some_and(|w| w & (1u64 << (i % 64)) != 0)
    }

    /// Adds `v`; true if it was not there.
    pub fn insert(&mut self, v: Value) -> bool {
        let i = v.index();
        if self.words.len() <= i / 64 {
            self.words.resize(i / 64 + 1, 0);
        }
        let bit = 1u64 << (i % 64);
        let new = self.words[i / 64] & bit == 0;
        self.words[i / 64] |= bit;
        new
    }

    pub fn remove(&mut self, v: Value) {
        let i = v.index();
        if let Some(w) = self.words.get_mut(i / 64) {
            *w &= !(1u64 << (i % 64));
        }
    }

    /// Adds every value of `other`; true if that changed `self`.
    pub fn union_with(&mut self, other: &ValueSet) -> bool {
        if self.words.len() < other.words.len() {
            self.words.resize(other.words.len(), 0);
        }
        let mut changed = false;
        for (w, o) in self.words.iter_mut().zip(&other.words) {
            let new = *w | o;
            changed |= new != *w;
            *w = new;
        }
        changed
    }

    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The values in increasing number order.
    pub fn iter(&self) -> impl Iterator<Item = Value> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            (0..64)
                .filter(move |b| w & (1u64 << b) != 0)
                .map(move |b| Value::new(i * 64 + b))
        })
    }
}

/// Live-in and live-out sets of the reachable blocks, and what is live
/// across each barrier.
#[derive(Clone, Debug, Default)]
pub struct Liveness {
    live_in: SecondaryMap<Block, ValueSet>,
    live_out: SecondaryMap<Block, ValueSet>,
    barriers: Vec<(Inst, ValueSet)>,
}

impl Liveness {
    pub fn compute(func: &Function, cfg: &ControlFlowGraph) -> Liveness {
        let mut lv = Liveness::default();
        // Per block: values used before any definition in it (upward
        // exposed), and values it defines (params and results).
        let mut uses: SecondaryMap<Block, ValueSet> = SecondaryMap::new();
        let mut defs: SecondaryMap<Block, ValueSet> = SecondaryMap::new();
        for &b in cfg.rpo() {
            let (mut u, mut d) = (ValueSet::new(), ValueSet::new());
            for &p in &func.blocks[b].params {
                d.insert(p);
            }
            for &inst in &func.blocks[b].insts {
                func.insts[inst].visit_args(|v| {
                    if !d.contains(v) {
                        u.insert(v);
                    }
                });
                if let Some(r) = func.results[inst] {
                    d.insert(r);
                }
            }
            uses[b] = u;
            defs[b] = d;
        }
        let postorder: Vec<Block> = cfg.rpo().iter().rev().copied().collect();
        let mut changed = true;
        while changed {
            changed = false;
            for &b in &postorder {
                let mut out = ValueSet::new();
                for &s in cfg.succs(b) {
                    out.union_with(&lv.live_in[s]);
                }
                let mut inn = out.clone();
                for v in defs[b].iter() {
                    inn.remove(v);
                }
                inn.union_with(&uses[b]);
                if inn != lv.live_in[b] {
                    lv.live_in[b] = inn;
                    changed = true;
                }
                lv.live_out[b] = out;
            }
        }
        // Values live immediately after each barrier: walk each block
        // backwards from its live-out set.
        for &b in cfg.rpo() {
            let insts = &func.blocks[b].insts;
            if !insts
                .iter()
                .any(|&i| matches!(func.insts[i], InstData::Barrier { .. }))
            {
                continue;
            }
            let mut live = lv.live_out[b].clone();
            let mut found = Vec::new();
            for &inst in insts.iter().rev() {
                if matches!(func.insts[inst], InstData::Barrier { .. }) {
                    found.push((inst, live.clone()));
                }
                if let Some(r) = func.results[inst] {
                    live.remove(r);
                }
                func.insts[inst].visit_args(|v| {
                    live.insert(v);
                });
            }
            found.reverse();
            lv.barriers.extend(found);
        }
        lv
    }

    /// The values live on entry to `block` (never its own parameters).
    pub fn live_in(&self, block: Block) -> &ValueSet {
        &self.live_in[block]
    }

    /// The values live on exit from `block` (live into some successor).
    pub fn live_out(&self, block: Block) -> &ValueSet {
        &self.live_out[block]
    }

    /// Every barrier of a reachable block, in RPO and then program order,
    /// with the values live immediately after it.
    pub fn barriers(&self) -> &[(Inst, ValueSet)] {
        &self.barriers
    }

    /// The values live across `barrier` (live immediately after it).
    pub fn live_across(&self, barrier: Inst) -> Option<&ValueSet> {
        self.barriers
            .iter()
            .find(|(i, _)| *i == barrier)
            .map(|(_, s)| s)
    }
}
