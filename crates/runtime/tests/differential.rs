//! Differential tests: every corpus kernel (`tests/kernels/**.sim`) runs on
//! the SIMD engine at widths 4, 8, 16 and 32, with both linearizations
//! (per-block masks and block-IP), at the `.sim`'s local size and at a
//! second one that is not a multiple of the width, and its output (printf
//! text and dumped buffers) must equal the interpreter's — the oracle.
//!
//! A kernel the SIMD engine hands to the interpreter (none, today) is listed,
//! not skipped silently. At the second local size, a
//! kernel whose behaviour the checked interpreter finds undefined (reads of
//! local memory nothing wrote, races: e.g. a tile size fixed in the source)
//! is listed and not compared.

use std::path::Path;

use lockstep_runtime::sim::{simulation_files, Simulation};
use lockstep_runtime::{Context, Engine, LaunchError, Linearization};

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

#[test]
fn simd_engine_matches_the_interpreter() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/kernels");
    let all = simulation_files(&root);
    let interp = Context::with_engine(Engine::Interpreter);
    let mut checked = Context::with_engine(Engine::Interpreter);
    checked.set_checked(true);
    let mut undefined = Vec::new();
    let mut failures = Vec::new();
    let mut refused = Vec::new();
    let mut compared = 0;
    for path in &all {
        let name = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .display()
            .to_string();
        let options = std::fs::read_to_string(path.with_extension("options")).unwrap_or_default();
        let options = options.trim();
        let uniform_required = options.contains("CL1.");
        let mut sim = match Simulation::load(&interp, path, options) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{name}: does not load: {e}"));
                continue;
            }
        };
        let original = sim.range;
        for width in [4u32, 8, 16, 32] {
            let mut simd = Context::with_engine(Engine::Simd);
            simd.set_width(width);
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
                for linearization in [Linearization::Masks, Linearization::BlockIp] {
                    simd.set_linearization(linearization);
                    let lin = linearization.name();
                    match output(&simd, &sim) {
                        Ok(Ok(actual)) if actual == expected => compared += 1,
                        Ok(Err(_)) => {
                            refused.push(name.clone());
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
            if refused.last() == Some(&name) {
                break;
            }
        }
    }
    eprintln!(
        "{compared} runs compared; {} kernels the SIMD engine handed to the interpreter: {}",
        refused.len(),
        refused.join(", ")
    );
    undefined.sort();
    undefined.dedup();
    eprintln!(
        "undefined behaviour at the second local size (checked interpreter), not compared: {}",
        undefined.join(", ")
    );
    assert!(compared > 0, "nothing was compared");
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
