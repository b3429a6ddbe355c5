//! Differential tests: every corpus kernel (`tests/kernels/**.sim`) runs on
//! the SIMD engine at widths 4, 8, 16 and 32 and one lane per gang (width
//! 1), with both linearizations
//! (per-block masks and block-IP), with lane refill as the cost model
//! chooses and forced on (every eligible kernel; masks at every width,
//! block-IP at width 16), at the `.sim`'s local size and at a second one
//! that is not a multiple of the width, and its output (printf text and
//! dumped buffers) must equal the interpreter's — the oracle.
//!
//! A kernel the SIMD engine hands to the interpreter (none, today) is listed,
//! not skipped silently. At the second local size, a
//! kernel whose behaviour the checked interpreter finds undefined (reads of
//! local memory nothing wrote, races: e.g. a tile size fixed in the source)
//! is listed and not compared.
//!
//! One test per kernel, named for its path under `tests/` without the
//! extension (`kernels/barrier/scan_divergent_load`); it runs every
//! configuration of that kernel and a mismatch names the configuration
//! (width, linearization, local size).

mod common;

use std::path::Path;
use std::sync::Mutex;

use libtest_mimic::{Arguments, Failed, Trial};
use lockstep_runtime::sim::Simulation;
use lockstep_runtime::{Context, Engine, LaunchError, Linearization, RefillMode};

/// The run's output, or the reason the SIMD engine handed it to the interpreter.
fn output(ctx: &Context, sim: &Simulation) -> Result<Result<String, String>, LaunchError> {
    sim.reset();
    let report = ctx.launch(&sim.kernel, &sim.range)?;
    Ok(match report.fallback {
        Some(why) => Err(why),
        None => Ok(format!("{}{}", report.printf_output, sim.dump())),
    })
}

/// A local size whose first dimension is not a multiple of `width`, valid
/// for the kernel (`None` when the kernel fixes its local size, or when an
/// OpenCL 1.x program has no such divisor of the global size).
fn second_local_size(sim: &Simulation, width: u32, uniform_required: bool) -> Option<[u64; 3]> {
    if sim.kernel.required_work_group_size().is_some() {
        return None;
    }
    let local = sim.range.local_size()?;
    let global = sim.range.global_size();
    (1..local[0])
        .rev()
        .find(|&l| l % width as u64 != 0 && (!uniform_required || global[0] % l == 0))
        .map(|l| [l, local[1], local[2]])
}

/// What the tests saw besides mismatches, summed over all of them and
/// printed at the end.
#[derive(Default)]
struct Summary {
    compared: usize,
    /// Kernels the SIMD engine handed to the interpreter.
    refused: Vec<String>,
    /// Kernel and local size where the checked interpreter found undefined
    /// behaviour, so nothing was compared.
    undefined: Vec<String>,
}

static SUMMARY: Mutex<Summary> = Mutex::new(Summary {
    compared: 0,
    refused: Vec::new(),
    undefined: Vec::new(),
});

/// Every configuration of one kernel on the SIMD engine against the
/// interpreter.
fn check(path: &Path, name: &str) -> Result<(), Failed> {
    // A `Context` is a handful of settings: each test makes its own.
    let mut interp = lockstep_llvm::context().with_engine(Engine::Interpreter);
    let mut checked = lockstep_llvm::context().with_engine(Engine::Interpreter);
    checked.set_checked(true);
    let mut undefined = Vec::new();
    let mut failures = Vec::new();
    let mut refused = false;
    let mut compared = 0;
    let options = std::fs::read_to_string(path.with_extension("options")).unwrap_or_default();
    let options = options.trim();
    let uniform_required = options.contains("CL1.");
    let mut sim = Simulation::load(&interp, path, options)
        .map_err(|e| format!("{name}: does not load: {e}"))?;
    let original = sim.range;
    // Width 1: one lane per gang, the scalar form the runtime may pick.
    for width in [1u32, 4, 8, 16, 32] {
        let mut simd = lockstep_llvm::context().with_engine(Engine::Simd);
        simd.set_width(width);
        // The interpreter's subgroups are as wide as the SIMD engine's.
        interp.set_width(width);
        checked.set_width(width);
        let mut ranges = vec![original];
        if let Some(l) = second_local_size(&sim, width, uniform_required) {
            ranges.push(original.local(l));
        }
        for range in ranges {
            sim.range = range;
            // At the second local size a kernel may read local memory no
            // work-item wrote (e.g. a tile size fixed in the source): the
            // checked interpreter says so, and there is nothing to compare.
            if range != original {
                sim.reset();
                match checked.launch(&sim.kernel, &sim.range) {
                    Ok(r) if !r.diagnostics.is_empty() => {
                        undefined.push(format!(
                            "{name} local {:?}",
                            range.local_size().unwrap_or_default()
                        ));
                        continue;
                    }
                    _ => {}
                }
            }
            let expected = match output(&interp, &sim) {
                Ok(Ok(o)) => o,
                Ok(Err(why)) => panic!("the interpreter fell back: {why}"),
                // A second local size the kernel cannot run with (e.g. its
                // local buffers were sized for the first): nothing to compare.
                Err(_) if range != original => continue,
                Err(e) => {
                    failures.push(format!("{name}: interpreter: {e}"));
                    break;
                }
            };
            let mut configs = vec![
                (Linearization::Masks, RefillMode::Auto),
                (Linearization::BlockIp, RefillMode::Auto),
                (Linearization::Masks, RefillMode::On),
            ];
            if width == 1 {
                // Every branch is uniform: nothing to linearize or refill.
                configs.truncate(1);
            }
            if width == 16 {
                configs.push((Linearization::BlockIp, RefillMode::On));
            }
            for (linearization, refill) in configs {
                simd.set_linearization(linearization);
                simd.set_refill(refill);
                let lin = format!("{} refill {refill}", linearization.name());
                match output(&simd, &sim) {
                    Ok(Ok(actual)) if actual == expected => compared += 1,
                    Ok(Err(_)) => {
                        refused = true;
                        break;
                    }
                    Ok(Ok(actual)) => {
                        let diff = expected
                            .lines()
                            .zip(actual.lines())
                            .find(|(e, a)| e != a)
                            .map(|(e, a)| format!("expected `{e}`, got `{a}`"))
                            .unwrap_or_else(|| "outputs differ in length".into());
                        failures.push(format!(
                            "{name} width {width} {lin} local {:?}: {diff}",
                            range.local_size().unwrap_or_default()
                        ));
                    }
                    Err(e) => failures.push(format!(
                        "{name} width {width} {lin} local {:?}: {e}",
                        range.local_size().unwrap_or_default()
                    )),
                }
            }
        }
        sim.range = original;
        if refused {
            break;
        }
    }
    {
        let mut summary = SUMMARY.lock().unwrap_or_else(|e| e.into_inner());
        summary.compared += compared;
        summary.undefined.extend(undefined);
        if refused {
            summary.refused.push(name.to_string());
        }
    }
    if !failures.is_empty() {
        return Err(format!("{} mismatches:\n{}", failures.len(), failures.join("\n")).into());
    }
    // A kernel that runs and is not handed to the interpreter is compared at
    // its own local size at least.
    if compared == 0 && !refused {
        return Err("nothing was compared".into());
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let all = common::corpus_kernels();
    let count = all.len();
    let mut trials = vec![Trial::test("corpus_is_not_empty", move || {
        if count > 0 {
            Ok(())
        } else {
            Err("no corpus kernels found: nothing was compared".into())
        }
    })];
    trials.extend(
        all.into_iter()
            .map(|(name, path)| Trial::test(name.clone(), move || check(&path, &name))),
    );
    let conclusion = libtest_mimic::run(&args, trials);
    if !args.list {
        let mut summary = SUMMARY.lock().unwrap_or_else(|e| e.into_inner());
        eprintln!(
            "{} runs compared; {} kernels the SIMD engine handed to the interpreter: {}",
            summary.compared,
            summary.refused.len(),
            summary.refused.join(", ")
        );
        summary.undefined.sort();
        summary.undefined.dedup();
        eprintln!(
            "undefined behaviour at the second local size (checked interpreter), not compared: {}",
            summary.undefined.join(", ")
        );
    }
    conclusion.exit();
}
