//! `split_barriers`: every `barrier` becomes a suspend point, and the gang
//! state kept across it is exactly the values live there (pocl's barrier
//! regions and context arrays; Karrenberg & Hack's continuations).
//!
//! A block with a barrier is split after it: the instructions that follow
//! move to a fresh *resume block*, and the barrier becomes the block's
//! terminator `suspend flags, scope, resume(live…)`. The resume block gets
//! one parameter per value live into it (liveness, computed on the split
//! function), except the function's parameters, which stay available, and
//! values that are cheaper to compute again than to keep (constants,
//! work-item queries, the addresses of private and program-scope memory):
//! those are recomputed at the start of the resume block (and where such a
//! value's definitions meet, instead of a block parameter). Each such new
//! definition of a value is then threaded to the uses it reaches, with block
//! parameters where it meets the old definition (SSA repair): in a loop
//! around a barrier, the loop header receives the value from the entry edge
//! and the resumed one from the back edge.
//!
//! The result is in the `split` phase: no `barrier` remains, and nothing
//! defined before a suspend point is used after it except through its
//! arguments ([`check_split`] verifies this). A gang can stop at a suspend
//! point keeping only those arguments, and resume later.
//!
//! Needs a function in the `normalized` phase with no unreachable block;
//! changes the CFG and computes the analyses it needs itself.

use lockstep_ir::{Block, BlockCall, Function, InstData, Phase, Value, ValueDef};

use super::ssa::{self, Analyses};
use crate::analysis::{ControlFlowGraph, DominanceFrontiers, DominatorTree, Liveness};

/// Turns the barriers of `func` into suspend points keeping only live values.
pub fn split_barriers(func: &mut Function) {
    let resume_blocks = split_blocks(func);
    func.phase = func.phase.max(Phase::Split);
    if resume_blocks.is_empty() {
        return;
    }
    let cfg = ControlFlowGraph::compute(func);
    let domtree = DominatorTree::compute(&cfg);
    let frontiers = DominanceFrontiers::compute(&cfg, &domtree);
    let liveness = Liveness::compute(func, &cfg);
    let analyses = Analyses {
        cfg: &cfg,
        domtree: &domtree,
        frontiers: &frontiers,
        liveness: &liveness,
    };
    let params = func.params().to_vec();
    // Per value kept across some suspend point, or computed again after it:
    // its new definitions.
    let mut redefined: Vec<(Value, Vec<(Block, Value)>)> = Vec::new();
    for &(suspend_block, resume) in &resume_blocks {
        if !cfg.is_reachable(resume) {
            continue;
        }
        let live: Vec<Value> = liveness
            .live_in(resume)
            .iter()
            .filter(|v| !params.contains(v))
            .collect();
        let mut recomputed = 0;
        for v in live {
            let new = match recompute(func, v) {
                Some(data) => {
                    let inst = func.create_inst(data, Some(func.value_type(v)));
                    func.insert_inst(resume, recomputed, inst);
                    recomputed += 1;
                    func.inst_result(inst).expect("created with a result")
                }
                None => {
                    let p = func.append_block_param(resume, func.value_type(v));
                    let term = func.terminator(suspend_block).expect("ends in its suspend");
                    func.insts[term].branch_dests_mut()[0].args.push(v);
                    p
                }
            };
            match redefined.iter_mut().find(|(value, _)| *value == v) {
                Some((_, defs)) => defs.push((resume, new)),
                None => redefined.push((v, vec![(resume, new)])),
            }
        }
    }
    for (value, defs) in redefined {
        let again = recompute(func, value);
        ssa::redefine(func, &analyses, value, &defs, again.as_ref());
    }
}

/// Splits each block after each of its barriers; the barrier becomes a
/// `suspend` to the rest of the block. Returns each suspending block with
/// its resume block.
fn split_blocks(func: &mut Function) -> Vec<(Block, Block)> {
    let mut resume_blocks = Vec::new();
    let mut position = 0;
    while position < func.layout.len() {
        let block = func.layout[position];
        position += 1;
        let barrier = func.blocks[block]
            .insts
            .iter()
            .position(|&inst| matches!(func.insts[inst], InstData::Barrier { .. }));
        let Some(at) = barrier else {
            continue;
        };
        let inst = func.blocks[block].insts[at];
        let InstData::Barrier { flags, scope } = func.insts[inst] else {
            unreachable!("found a barrier");
        };
        let rest = func.blocks[block].insts.split_off(at + 1);
        let resume = func.create_block();
        for &moved in &rest {
            func.inst_block[moved] = Some(resume);
        }
        func.blocks[resume].insts = rest;
        func.layout.insert(position, resume);
        func.insts[inst] = InstData::Suspend {
            flags,
            scope,
            dest: BlockCall {
                block: resume,
                args: Vec::new(),
            },
        };
        resume_blocks.push((block, resume));
    }
    resume_blocks
}

/// The instruction that computes `v` again after a suspend point, if that
/// is cheaper than keeping it: one without operands whose result is the
/// same wherever it runs in the work-item.
fn recompute(func: &Function, v: Value) -> Option<InstData> {
    let ValueDef::Result(inst) = func.values[v].def else {
        return None;
    };
    let data = &func.insts[inst];
    matches!(
        data,
        InstData::Iconst { .. }
            | InstData::Fconst { .. }
            | InstData::WorkItem { .. }
            | InstData::StackAddr { .. }
            | InstData::GlobalAddr { .. }
    )
    .then(|| data.clone())
}

/// Checks the `split` phase's rule for `func`: no value other than the
/// function's parameters is live into a resume block (the target of a
/// `suspend`), so the suspend's arguments are the whole gang state.
pub fn check_split(func: &Function) -> Result<(), String> {
    let cfg = ControlFlowGraph::compute(func);
    let liveness = Liveness::compute(func, &cfg);
    let params = func.params();
    for &b in cfg.rpo() {
        let Some(term) = func.terminator(b) else {
            continue;
        };
        if let InstData::Suspend { dest, .. } = &func.insts[term] {
            if let Some(v) = liveness
                .live_in(dest.block)
                .iter()
                .find(|v| !params.contains(v))
            {
                return Err(format!(
                    "{v} is used after the suspend point in {b} but not passed to {}",
                    dest.block
                ));
            }
        }
    }
    Ok(())
}
