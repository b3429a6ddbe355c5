//! Which work-items of a subgroup meet at a subgroup collective, in the
//! scalar interpreter that runs them one at a time.
//!
//! A subgroup runs as a gang, and the lanes a gang runs a block with are
//! those waiting for it at that point of the gang's schedule: blocks in a
//! topological order in which each loop's blocks are contiguous (the order
//! `linearize` runs them in), a loop's blocks again while lanes wait in it.
//! So two work-items take part in the same collective when they reach the
//! same instruction in the same iteration of every loop around it (and,
//! through calls, from the same call sites), and of the places work-items
//! wait at, the first in that schedule is the next one the gang runs: the
//! one whose *position* is least. A position lists, outermost first, for
//! each loop around the instruction the loop's place in the order and the
//! iteration the work-item is in (back edges taken to its header since it
//! entered the loop), then the instruction's block's place and the
//! instruction itself; frame after frame for calls.
//!
//! Each work-item keeps, per frame, the loops it is in with their
//! iteration counts, updated on every branch of a function with a
//! collective.

use cranelift_entity::EntityRef;
use lockstep_ir::Function;
use lockstep_passes::analysis::{loop_contiguous_order, ControlFlowGraph, LoopForest};

/// A function's blocks and loops, for positions.
pub struct Convergence {
    /// Per block (by index): its place in the loop-contiguous order.
    order: Vec<u32>,
    /// Per block: the loops containing it, outermost first.
    chain: Vec<Vec<u32>>,
    /// Per loop: its header (block index) and the first place of its
    /// blocks in the order.
    header: Vec<u32>,
    start: Vec<u32>,
}

/// The loops a frame is in, outermost first, with the iteration it is in.
pub type LoopStack = Vec<(u32, u32)>;

impl Convergence {
    pub fn compute(func: &Function) -> Convergence {
        let cfg = ControlFlowGraph::compute(func);
        let loops = LoopForest::compute(&cfg);
        let n = func.blocks.len();
        let mut order = vec![u32::MAX; n];
        for (i, b) in loop_contiguous_order(func, &cfg, &loops)
            .into_iter()
            .enumerate()
        {
            order[b.index()] = i as u32;
        }
        let ids: Vec<_> = loops.loops().collect();
        let index = |l| ids.iter().position(|&x| x == l).expect("listed") as u32;
        let mut chain = vec![Vec::new(); n];
        for (b, c) in chain.iter_mut().enumerate() {
            let mut inner: Vec<u32> = loops
                .loops_containing(lockstep_ir::Block::new(b))
                .into_iter()
                .map(index)
                .collect();
            inner.reverse();
            *c = inner;
        }
        let header = ids
            .iter()
            .map(|&l| loops.header(l).index() as u32)
            .collect();
        let start = ids
            .iter()
            .map(|&l| {
                loops
                    .blocks(l)
                    .iter()
                    .map(|b| order[b.index()])
                    .min()
                    .unwrap_or(u32::MAX)
            })
            .collect();
        Convergence {
            order,
            chain,
            header,
            start,
        }
    }

    /// Updates `stack` for a branch to `block`: loops left are dropped,
    /// loops entered start at iteration 0, and a branch back to the header
    /// of a loop the frame was in starts its next iteration.
    pub fn enter(&self, stack: &mut LoopStack, block: u32) {
        let chain = &self.chain[block as usize];
        let kept = stack
            .iter()
            .zip(chain)
            .take_while(|((l, _), c)| l == *c)
            .count();
        stack.truncate(kept);
        for (l, count) in stack.iter_mut() {
            if self.header[*l as usize] == block {
                *count += 1;
            }
        }
        stack.extend(chain[kept..].iter().map(|&l| (l, 0)));
    }

    /// Appends the position of instruction `pc` of block `block` in a
    /// frame whose loops are `stack` (see the module docs).
    pub fn position(&self, stack: &LoopStack, block: u32, pc: u32, out: &mut Vec<(u32, u32)>) {
        out.extend(stack.iter().map(|&(l, n)| (self.start[l as usize], n)));
        out.push((self.order[block as usize], pc));
    }
}
