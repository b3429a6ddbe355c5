//! `remove_unreachable`: drops the blocks the entry cannot reach from the
//! layout (Cranelift's `unreachable_code.rs`).
//!
//! Such blocks never run, but they still name values and targets, so every
//! later pass would have to skip them; without them, each block of the
//! layout is reachable and every analysis covers the whole function.
//!
//! Computes the CFG itself; the dropped blocks stay allocated (value and
//! block numbers are stable) but are no longer part of the function.

use lockstep_ir::Function;

use crate::analysis::ControlFlowGraph;

/// Removes the unreachable blocks of `func` from its layout.
pub fn remove_unreachable(func: &mut Function) {
    let cfg = ControlFlowGraph::compute(func);
    func.layout.retain(|&b| cfg.is_reachable(b));
}
