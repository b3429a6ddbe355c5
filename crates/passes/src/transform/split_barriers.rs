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
//! work-item queries, addresses of private and program-scope memory, and
//! short integer and address computations on them and on the parameters):
//! those are computed again at the start of the resume block (and, for
//! those without operands, also where their definitions meet, instead of a
//! block parameter). Each such new
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

use lockstep_ir::{Block, BlockCall, Function, Inst, InstData, Phase, Value, ValueDef};

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
        let mut again = Recompute::new(resume);
        for v in live {
            let new = match again.value(func, &params, v) {
                Some(new) => new,
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
        // Where definitions of a value computed again meet, it is computed
        // once more instead of passed (a parameter would hide that it is,
        // say, the local id).
        let recomputable =
            Recompute::new(resume_blocks[0].1).plan(func, &params, value, &mut Vec::new());
        let mut again = |func: &mut Function, block: Block| {
            Recompute::new(block)
                .value(func, &params, value)
                .expect("planned to be computed again")
        };
        let recompute: Option<&mut dyn FnMut(&mut Function, Block) -> Value> =
            if recomputable { Some(&mut again) } else { None };
        ssa::redefine(func, &analyses, value, &defs, recompute);
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
            arriving: None,
            dest: BlockCall {
                block: resume,
                args: Vec::new(),
            },
        };
        resume_blocks.push((block, resume));
    }
    resume_blocks
}

/// Values computed again at the start of one resume block, rather than
/// kept across its suspend point: those whose instructions are cheap, pure
/// and depend only on the function's parameters and other such values
/// (constants, work-item queries, addresses of private and program-scope
/// memory, and short integer and address computations on them — `a + 4 *
/// get_local_id(0)`), so they give the same result wherever they run.
struct Recompute {
    block: Block,
    /// Instructions inserted at the start of the block so far.
    inserted: usize,
    /// Values already computed again in the block.
    done: Vec<(Value, Value)>,
}

/// The most instructions one value may take to compute again.
const MAX_RECOMPUTE: usize = 8;

impl Recompute {
    fn new(block: Block) -> Recompute {
        Recompute {
            block,
            inserted: 0,
            done: Vec::new(),
        }
    }

    /// `v` computed again in the block (with whatever it depends on), or
    /// `None` if it is not worth it.
    fn value(&mut self, func: &mut Function, params: &[Value], v: Value) -> Option<Value> {
        let mut chain = Vec::new();
        if !self.plan(func, params, v, &mut chain) {
            return None;
        }
        for inst in chain {
            let old = func
                .inst_result(inst)
                .expect("pure instructions have results");
            if self.done.iter().any(|&(o, _)| o == old) {
                continue;
            }
            let mut data = func.insts[inst].clone();
            data.map_args(|a| self.map(a));
            let copy = func.create_inst(data, Some(func.value_type(old)));
            func.srclocs[copy] = func.srclocs[inst];
            func.insert_inst(self.block, self.inserted, copy);
            self.inserted += 1;
            let new = func.inst_result(copy).expect("created with a result");
            self.done.push((old, new));
        }
        Some(self.map(v))
    }

    fn map(&self, v: Value) -> Value {
        self.done
            .iter()
            .find(|&&(old, _)| old == v)
            .map_or(v, |&(_, new)| new)
    }

    /// Appends to `chain`, operands first, the instructions that compute
    /// `v` and are not computed in the block yet; false if some cannot be.
    fn plan(&self, func: &Function, params: &[Value], v: Value, chain: &mut Vec<Inst>) -> bool {
        if params.contains(&v) || self.done.iter().any(|&(old, _)| old == v) {
            return true;
        }
        let ValueDef::Result(inst) = func.values[v].def else {
            return false;
        };
        if chain.contains(&inst) {
            return true;
        }
        if !is_cheap_and_pure(&func.insts[inst]) {
            return false;
        }
        for a in func.insts[inst].args() {
            if !self.plan(func, params, a, chain) {
                return false;
            }
        }
        chain.push(inst);
        chain.len() <= MAX_RECOMPUTE
    }
}

/// Instructions that cost about one machine instruction, read no memory,
/// and give the same result for the same operands anywhere in a work-item.
pub(crate) fn is_cheap_and_pure(data: &InstData) -> bool {
    use lockstep_ir::{BinaryOp as B, ConvertOp as C};
    match data {
        InstData::Iconst { .. }
        | InstData::Fconst { .. }
        | InstData::WorkItem { .. }
        | InstData::StackAddr { .. }
        | InstData::GlobalAddr { .. }
        | InstData::PtrAdd { .. }
        | InstData::Icmp { .. }
        | InstData::Select { .. } => true,
        InstData::Binary { op, .. } => matches!(
            op,
            B::Iadd
                | B::Isub
                | B::Imul
                | B::Band
                | B::Bor
                | B::Bxor
                | B::Ishl
                | B::Ushr
                | B::Sshr
                | B::Smin
                | B::Smax
                | B::Umin
                | B::Umax
        ),
        InstData::Convert { op, .. } => matches!(
            op,
            C::Zext
                | C::Sext
                | C::Trunc
                | C::Bitcast
                | C::PtrToInt
                | C::IntToPtr
                | C::AddrSpaceCast
        ),
        _ => false,
    }
}

/// Checks the `split` phase's rule for `func`: no value other than the
/// function's parameters is live into a resume block (the target of a
/// `suspend`), so the suspend's arguments are the whole gang state.
pub fn check_split(func: &Function) -> Result<(), String> {
    let suspends = func.layout.iter().any(|&b| {
        func.terminator(b)
            .is_some_and(|t| matches!(func.insts[t], InstData::Suspend { .. }))
    });
    if !suspends {
        // Nothing to check; liveness would cost blocks × values bits.
        return Ok(());
    }
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
