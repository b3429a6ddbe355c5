//! The analyses on real kernels: every corpus kernel, imported at -O2, is
//! analysed at widths 4, 8 and 16 and two local sizes, and the results are
//! consistent: every reachable branch is divergent exactly when its
//! condition is not uniform where it is used, work-item ids have the shapes
//! the local size implies, and liveness covers every barrier.
//!
//! One test per file, named for its path under `tests/` without the
//! extension (`kernels/barrier/scan_divergent_load`).

mod common;

use std::path::Path;

use common::*;
use lockstep_ir::{InstData, WorkItemQuery};
use lockstep_passes::analysis::{ControlFlowGraph, Liveness, Shape, Uniformity, UniformityConfig};

/// The analyses of every kernel in one corpus file, in every configuration.
fn check(cl: &Path) {
    let mut checked = 0;
    let compiled = compile_file(cl, "").unwrap_or_else(|e| panic!("{}: {e}", cl.display()));
    for (_, func) in compiled.module.kernels() {
        let cfg = ControlFlowGraph::compute(func);
        let live = Liveness::compute(func, &cfg);
        for (_, inst) in func.insts_in_layout() {
            if matches!(func.insts[inst], InstData::Barrier { .. }) {
                assert!(
                    live.barriers().iter().any(|(b, _)| *b == inst),
                    "{}: barrier without liveness",
                    cl.display()
                );
            }
        }
        for width in [4u32, 8, 16] {
            for local_size in [[16, 1, 1], [8, 8, 1]] {
                let config = UniformityConfig { local_size, width };
                let info = Uniformity::for_function(func, &config);
                for &b in &func.layout {
                    if !info.is_reachable(b) {
                        continue;
                    }
                    let term = func.terminator(b).expect("verified");
                    let cond = match &func.insts[term] {
                        InstData::Brif { cond, .. } => Some(*cond),
                        InstData::Switch { arg, .. } => Some(*arg),
                        _ => None,
                    };
                    if let Some(c) = cond {
                        let uniform = info.operand_shape(c, b).is_uniform();
                        assert_eq!(
                            info.is_divergent(b),
                            !uniform,
                            "{} @{} {config}: {b} divergence disagrees with its condition's shape",
                            cl.display(),
                            func.name
                        );
                    }
                    for &i in &func.blocks[b].insts {
                        if let InstData::WorkItem {
                            query: WorkItemQuery::LocalId,
                            dim: 0,
                        } = func.insts[i]
                        {
                            let r = func.results[i].expect("queries have results");
                            let expected = if local_size[0] % width == 0 || local_size[1] == 1 {
                                Shape::Consecutive { stride: 1 }
                            } else {
                                Shape::Varying
                            };
                            assert_eq!(
                                info.shape(r),
                                expected,
                                "{} {config}: local_id(0)",
                                cl.display()
                            );
                        }
                    }
                }
                checked += 1;
            }
        }
    }
    // Every corpus file has a kernel (see corpus_import), so at least 3
    // widths x 2 local sizes.
    assert!(checked >= 6, "analysed {checked} kernel configurations");
}

fn main() {
    run_corpus(|cl| {
        check(cl);
        Ok(())
    })
}
