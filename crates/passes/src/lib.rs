//! Lockstep analyses and transforms over Lockstep IR: CFG, dominance, loops, uniformity, liveness, and the passes that linearize divergent control flow.
//!
//! [`analysis`] holds the analyses (noun structs with `compute`, results in
//! dense maps beside the IR); [`transform`] the passes, each IR → IR;
//! [`pipeline`] runs the passes in order for one kernel specialization and
//! verifies after each; [`present`] prints analyses for people (annotated
//! listings, Graphviz).

pub mod analysis;
mod filetest;
pub mod pipeline;
pub mod present;
pub mod transform;

pub use analysis::{
    ControlFlowGraph, DominanceFrontiers, DominatorTree, Liveness, Loop, LoopForest,
    PostDominatorTree, Shape, SyncDependence, Uniformity, UniformityConfig, ValueSet,
};
pub use present::{cfg_dot, uniformity_listing};

/// A filetest check: takes the parsed (and verified) module, returns the
/// text to compare with the file's expected output, or an error message.
pub type FiletestCheck = fn(&lockstep_ir::Module) -> Result<String, String>;

/// The filetest checks this crate provides, as `(test kind, check)`.
pub fn filetest_checks() -> &'static [(&'static str, FiletestCheck)] {
    &[
        ("domtree", filetest::domtree),
        ("postdom", filetest::postdom),
        ("loops", filetest::loops),
        ("liveness", filetest::liveness),
        ("uniformity", filetest::uniformity),
        ("uniformity-w1", filetest::uniformity_w1),
        ("uniformity-w4", filetest::uniformity_w4),
        ("uniformity-w8", filetest::uniformity_w8),
        ("uniformity-w32", filetest::uniformity_w32),
        ("remove_unreachable", filetest::transform::<0>),
        ("unify_returns", filetest::transform::<1>),
        ("lower_switch", filetest::transform::<2>),
        ("split_critical_edges", filetest::transform::<3>),
        ("split_barriers", filetest::transform::<4>),
        ("refill", filetest::transform::<5>),
        ("linearize", filetest::transform::<6>),
        ("linearize-block-ip", filetest::linearize_block_ip),
        ("layout_private", filetest::transform::<7>),
        ("pipeline", filetest::pipeline),
    ]
}
