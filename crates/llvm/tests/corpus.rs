//! The kernel corpus on the interpreter: every `tests/kernels/**/NAME.sim`
//! runs and its output matches `NAME.ref` (`EXACT` lines, in order, with
//! nothing else printed; a kernel whose output depends on the subgroup
//! size has a `WIDTH w` section for each width, and runs at each).
//!
//! One test per kernel, named for its path under `tests/` without the
//! extension (`kernels/barrier/scan_divergent_load`), so a failure names the
//! kernel and `cargo test -p lockstep-runtime --test corpus -- barrier/`
//! runs a part of the corpus. A second test per kernel
//! (`after-passes/kernels/…`) runs it as the pass pipeline leaves it
//! (specialized for SIMD widths 4 and 16), on the same interpreter against
//! the same reference: every pass is checked on the whole corpus without
//! code generation.

mod common;

use common::{compare, run};

use std::path::Path;

use libtest_mimic::{Arguments, Failed, Trial};

use lockstep_runtime::{Engine, Linearization, RefillMode};

/// One corpus kernel on the interpreter against its `.ref` (at each width
/// the file has a section for, for kernels whose output depends on the
/// subgroup size).
fn check(sim: &Path) -> Result<(), Failed> {
    // A `Context` is a handful of settings; each test has its own.
    let mut ctx = lockstep_llvm::context().with_engine(Engine::Interpreter);
    let reference = std::fs::read_to_string(sim.with_extension("ref")).unwrap_or_default();
    let widths = common::reference_widths(&reference);
    if widths.is_empty() {
        run(&ctx, sim).and_then(|out| compare(&out, &reference))?;
    }
    for width in widths {
        ctx.set_width(width);
        let expected = common::reference_for(&reference, width).unwrap_or_default();
        run(&ctx, sim)
            .and_then(|out| compare(&out, &expected))
            .map_err(|e| format!("width {width}: {e}"))?;
    }
    Ok(())
}

/// One corpus kernel, as the pass pipeline leaves it (widths 4 and 16, both
/// linearizations; lane refill forced on at width 8 with masks and at width
/// 16 with block-IP), on the interpreter against its `.ref`.
fn check_after_passes(sim: &Path) -> Result<(), Failed> {
    let reference = std::fs::read_to_string(sim.with_extension("ref")).unwrap_or_default();
    let mut configs = Vec::new();
    for width in [4, 16] {
        for linearization in Linearization::ALL {
            configs.push((width, linearization, RefillMode::Auto));
        }
    }
    configs.push((8, Linearization::Masks, RefillMode::On));
    configs.push((16, Linearization::BlockIp, RefillMode::On));
    for (width, linearization, refill) in configs {
        let mut ctx = lockstep_llvm::context().with_engine(Engine::Interpreter);
        ctx.set_interpret_after_passes(true);
        ctx.set_width(width);
        ctx.set_linearization(linearization);
        ctx.set_refill(refill);
        let reference = common::reference_for(&reference, width)
            .ok_or_else(|| format!("the reference has no section for width {width}"))?;
        run(&ctx, sim)
            .and_then(|out| compare(&out, &reference))
            .map_err(|e| {
                format!(
                    "after the passes for width {width}, linearized by {linearization}, refill {refill}: {e}"
                )
            })?;
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let all = common::corpus_kernels();
    let count = all.len();
    let mut trials = vec![Trial::test("corpus_has_at_least_80_kernels", move || {
        if count >= 80 {
            Ok(())
        } else {
            Err(format!("the corpus should have at least 80 kernels, found {count}").into())
        }
    })];
    for (name, sim) in all {
        let again = sim.clone();
        trials.push(Trial::test(format!("after-passes/{name}"), move || {
            check_after_passes(&again)
        }));
        trials.push(Trial::test(name, move || check(&sim)));
    }
    libtest_mimic::run(&args, trials).exit();
}
