//! SSA repair: a value that a pass gives further definitions (a copy made
//! at a resume point, say) is renamed at each use to the definition that
//! reaches it, with block parameters where definitions meet.
//!
//! The classic construction for one variable (Cytron et al.): parameters go
//! to the iterated dominance frontier of the defining blocks, pruned to the
//! blocks where the variable is live in, then a walk down the dominator tree
//! renames each use to the innermost definition above it and passes that
//! definition along each edge into a new parameter.

use cranelift_entity::SecondaryMap;
use lockstep_ir::{Block, Function, Inst, InstData, Value, ValueDef};

use crate::analysis::{ControlFlowGraph, DominanceFrontiers, DominatorTree, Liveness};

/// The analyses of the function being repaired. They describe its CFG,
/// which repair does not change (it only adds parameters and renames uses).
pub(crate) struct Analyses<'a> {
    pub cfg: &'a ControlFlowGraph,
    pub domtree: &'a DominatorTree,
    pub frontiers: &'a DominanceFrontiers,
    /// Liveness as it was before any new definition was added.
    pub liveness: &'a Liveness,
}

/// Makes `func` valid SSA again after `value` gained `new_defs`: each a
/// block and the value that, from the start of that block on, stands for
/// `value` (a parameter of the block, or the result of an instruction at its
/// start). Uses are renamed; blocks where definitions meet get parameters.
/// The instructions that define the new values are not renamed.
///
/// `recompute`, for a value whose computation gives the same result
/// wherever it runs (a constant, `(int)get_local_id(0)`): where definitions
/// meet, it computes the value again at the start of that block (and
/// returns it) instead of the block receiving a parameter.
pub(crate) fn redefine(
    func: &mut Function,
    a: &Analyses,
    value: Value,
    new_defs: &[(Block, Value)],
    mut recompute: Option<&mut dyn FnMut(&mut Function, Block) -> Value>,
) {
    let home = match func.values[value].def {
        ValueDef::Result(inst) => func.inst_block[inst],
        ValueDef::Param(block, _) => Some(block),
        ValueDef::Unused => None,
    };
    let Some(home) = home else {
        return;
    };
    let defining: Vec<Block> = std::iter::once(home)
        .chain(new_defs.iter().map(|&(b, _)| b))
        .collect();
    let ty = func.value_type(value);
    // Where definitions meet: a parameter for each, or the value computed again.
    let mut phis: SecondaryMap<Block, Option<Value>> = SecondaryMap::new();
    let mut defined_at: SecondaryMap<Block, Option<Value>> = SecondaryMap::new();
    let mut all_defs = new_defs.to_vec();
    for b in a.frontiers.iterated(a.cfg, &defining) {
        if !a.liveness.live_in(b).contains(value) {
            continue;
        }
        match recompute.as_mut() {
            Some(compute) => {
                let v = compute(func, b);
                all_defs.push((b, v));
            }
            None => phis[b] = Some(func.append_block_param(b, ty)),
        }
    }
    for &(b, v) in &all_defs {
        defined_at[b] = Some(v);
    }
    let new_insts: Vec<Inst> = all_defs
        .iter()
        .filter_map(|&(_, v)| match func.values[v].def {
            ValueDef::Result(inst) => Some(inst),
            _ => None,
        })
        .collect();
    // Down the dominator tree from the home block (every use is below it),
    // carrying the definition that reaches each block's entry.
    let mut work = vec![(home, value)];
    while let Some((b, inherited)) = work.pop() {
        let current = if b == home {
            value
        } else {
            defined_at[b].or(phis[b]).unwrap_or(inherited)
        };
        for i in 0..func.blocks[b].insts.len() {
            let inst = func.blocks[b].insts[i];
            if new_insts.contains(&inst) {
                continue;
            }
            let data = &mut func.insts[inst];
            data.map_args(|v| if v == value { current } else { v });
            for dest in data.branch_dests_mut() {
                if phis[dest.block].is_some() {
                    dest.args.push(current);
                }
            }
        }
        for &child in a.domtree.children(b) {
            work.push((child, current));
        }
    }
}

/// Removes the block parameters that receive only one value (or only
/// themselves and one value) on every incoming edge, replacing their uses
/// by that value, until none is left (the trivial phis of Braun et al.).
/// The parameters of the entry block, of blocks no branch reaches and of
/// resume blocks (a suspend point's arguments are the state it keeps) stay.
pub(crate) fn remove_redundant_params(func: &mut Function) {
    // The edges into each block: (terminator, index among its dests).
    let mut incoming: SecondaryMap<Block, Vec<(Inst, usize)>> = SecondaryMap::new();
    let mut resumes: SecondaryMap<Block, bool> = SecondaryMap::new();
    for &block in &func.layout {
        if let Some(term) = func.terminator(block) {
            for (k, dest) in func.insts[term].branch_dests().into_iter().enumerate() {
                incoming[dest.block].push((term, k));
            }
            if let InstData::Suspend { dest, .. } = &func.insts[term] {
                resumes[dest.block] = true;
            }
        }
    }
    let mut replaced: SecondaryMap<Value, Option<Value>> = SecondaryMap::new();
    let resolve = |replaced: &SecondaryMap<Value, Option<Value>>, mut v: Value| {
        while let Some(r) = replaced[v] {
            v = r;
        }
        v
    };
    let mut removed: SecondaryMap<Value, bool> = SecondaryMap::new();
    let mut changed = true;
    while changed {
        changed = false;
        for &block in &func.layout {
            if incoming[block].is_empty() || resumes[block] {
                continue;
            }
            for (n, &p) in func.blocks[block].params.iter().enumerate() {
                if removed[p] {
                    continue;
                }
                let mut only = None;
                let mut trivial = true;
                for &(term, k) in &incoming[block] {
                    let a = resolve(&replaced, func.insts[term].branch_dests()[k].args[n]);
                    if a == p || Some(a) == only {
                        continue;
                    }
                    if only.is_some() {
                        trivial = false;
                        break;
                    }
                    only = Some(a);
                }
                if let (true, Some(v)) = (trivial, only) {
                    replaced[p] = Some(v);
                    removed[p] = true;
                    changed = true;
                }
            }
        }
    }
    // Drop the removed parameters and their arguments, then rename uses.
    for &block in &func.layout.clone() {
        let keep: Vec<bool> = func.blocks[block]
            .params
            .iter()
            .map(|&p| !removed[p])
            .collect();
        if keep.iter().all(|&k| k) {
            continue;
        }
        for &(term, k) in &incoming[block] {
            let dest = &mut func.insts[term].branch_dests_mut()[k];
            let mut i = 0;
            dest.args.retain(|_| {
                i += 1;
                keep[i - 1]
            });
        }
        func.blocks[block].params.retain(|&p| !removed[p]);
        for (n, &p) in func.blocks[block].params.clone().iter().enumerate() {
            func.values[p].def = ValueDef::Param(block, n as u32);
        }
    }
    for &block in &func.layout {
        for &inst in &func.blocks[block].insts {
            func.insts[inst].map_args(|v| resolve(&replaced, v));
        }
    }
}
