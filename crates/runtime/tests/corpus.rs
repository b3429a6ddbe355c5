//! The kernel corpus on the interpreter: every `tests/kernels/**/NAME.sim`
//! runs and its output matches `NAME.ref` (`EXACT` lines, in order, with
//! nothing else printed).

use std::path::Path;

use lockstep_runtime::sim::{simulation_files, Simulation};
use lockstep_runtime::{Context, Engine};

/// Runs one simulation and returns its full output (printf text, then dumps).
fn run(ctx: &Context, sim: &Path) -> Result<String, String> {
    let options = std::fs::read_to_string(sim.with_extension("options")).unwrap_or_default();
    let s = Simulation::load(ctx, sim, options.trim()).map_err(|e| e.to_string())?;
    let report = s.run(ctx).map_err(|e| e.to_string())?;
    Ok(format!("{}{}", report.printf_output, s.dump()))
}

/// Compares the output's non-blank lines with the `EXACT` lines of the reference.
fn compare(output: &str, reference: &str) -> Result<(), String> {
    let expected: Vec<&str> = reference
        .lines()
        .filter_map(|l| l.strip_prefix("EXACT "))
        .collect();
    let actual: Vec<&str> = output.lines().filter(|l| !l.trim().is_empty()).collect();
    for (i, want) in expected.iter().enumerate() {
        match actual.get(i) {
            Some(got) if got == want => {}
            Some(got) => return Err(format!("line {}: expected `{want}`, got `{got}`", i + 1)),
            None => {
                return Err(format!(
                    "output ended before expected line {}: `{want}`",
                    i + 1
                ))
            }
        }
    }
    if actual.len() > expected.len() {
        return Err(format!(
            "unexpected extra output: `{}`",
            actual[expected.len()]
        ));
    }
    Ok(())
}

#[test]
fn corpus_matches_references_on_the_interpreter() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/kernels");
    let all = simulation_files(&root);
    assert!(
        all.len() >= 80,
        "the corpus should have at least 80 kernels, found {}",
        all.len()
    );
    let ctx = Context::with_engine(Engine::Interpreter);
    let mut failures = Vec::new();
    for sim in &all {
        let reference = std::fs::read_to_string(sim.with_extension("ref")).unwrap_or_default();
        let name = sim.strip_prefix(&root).unwrap_or(sim).display().to_string();
        match run(&ctx, sim).and_then(|out| compare(&out, &reference)) {
            Ok(()) => {}
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} corpus kernels failed:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}
