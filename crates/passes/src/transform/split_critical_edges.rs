//! `split_critical_edges`: no edge leaves a block with several successors
//! for a block with several predecessors (NIR's rule).
//!
//! Each such edge gets a block of its own holding only a jump that passes
//! the edge's arguments on; the branch targets the new block instead. A
//! later pass then has a place for the work of one edge alone (a mask
//! update, a blend) without touching the other edges of its branch or its
//! target. Edges are counted with repeats: a `brif` whose two targets are
//! the same block has two edges into it, and both are split.
//!
//! Computes the CFG itself (edges from unreachable blocks do not count);
//! changes the CFG. New blocks go right after their source in the layout.

use lockstep_ir::{Block, BlockCall, Function, InstData};

use crate::analysis::ControlFlowGraph;

/// Splits every critical edge of `func`.
pub fn split_critical_edges(func: &mut Function) {
    let cfg = ControlFlowGraph::compute(func);
    let mut edges_into = cranelift_entity::SecondaryMap::<Block, u32>::new();
    for &b in cfg.rpo() {
        for s in func.successors(b) {
            edges_into[s] += 1;
        }
    }
    let mut position = 0;
    while position < func.layout.len() {
        let b = func.layout[position];
        position += 1;
        if !cfg.is_reachable(b) {
            continue;
        }
        let Some(term) = func.terminator(b) else {
            continue;
        };
        if func.insts[term].successors().len() < 2 {
            continue;
        }
        let mut data = func.insts[term].clone();
        let mut inserted = 0;
        for dest in data.branch_dests_mut() {
            if edges_into[dest.block] < 2 {
                continue;
            }
            let edge = func.create_block();
            let jump = func.create_inst(
                InstData::Jump {
                    dest: std::mem::replace(
                        dest,
                        BlockCall {
                            block: edge,
                            args: Vec::new(),
                        },
                    ),
                },
                None,
            );
            func.append_inst(edge, jump);
            func.layout.insert(position + inserted, edge);
            inserted += 1;
        }
        func.insts[term] = data;
        position += inserted;
    }
}
