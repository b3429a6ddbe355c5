//! What the corpus tests (`corpus`, `differential`) share.

use std::path::{Path, PathBuf};

use lockstep_runtime::sim::{simulation_files, Simulation};
use lockstep_runtime::Context;

/// The `.sim` files of the kernel corpus (`tests/kernels/**`), each with its
/// test name: its path under `tests/` without the extension
/// (`kernels/barrier/scan_divergent_load`). Kernels with a bug checked mode
/// finds (a `.ref` with `ERROR` lines, `tests/kernels/checked/`) are left
/// out: their behaviour is undefined; the `checked` test runs them.
#[allow(dead_code)]
pub fn corpus_kernels() -> Vec<(String, PathBuf)> {
    all_kernels()
        .into_iter()
        .filter(|(_, sim)| !has_errors(sim))
        .collect()
}

/// Whether a kernel's `.ref` expects checked-mode reports (`ERROR` lines).
pub fn has_errors(sim: &Path) -> bool {
    std::fs::read_to_string(sim.with_extension("ref"))
        .is_ok_and(|r| r.lines().any(|l| l.starts_with("ERROR ")))
}

/// Every `.sim` of `tests/kernels/**`, named as [`corpus_kernels`] names them.
pub fn all_kernels() -> Vec<(String, PathBuf)> {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests");
    simulation_files(&tests.join("kernels"))
        .into_iter()
        .map(|sim| {
            let name = sim
                .strip_prefix(&tests)
                .unwrap_or(&sim)
                .with_extension("")
                .display()
                .to_string();
            (name, sim)
        })
        .collect()
}

/// The widths a `.ref` file has sections for: a kernel whose output
/// depends on the subgroup size (the SIMD width) has its expected lines
/// under `WIDTH w` headers, one section per width; other files have none.
#[allow(dead_code)]
pub fn reference_widths(reference: &str) -> Vec<u32> {
    reference
        .lines()
        .filter_map(|l| l.strip_prefix("WIDTH "))
        .filter_map(|w| w.trim().parse().ok())
        .collect()
}

/// The part of a `.ref` file that holds for `width`: its `WIDTH width`
/// section, or the whole file when it has no sections; `None` when it has
/// sections but none for `width`.
#[allow(dead_code)]
pub fn reference_for(reference: &str, width: u32) -> Option<String> {
    if reference_widths(reference).is_empty() {
        return Some(reference.to_string());
    }
    let mut out = None::<String>;
    let mut inside = false;
    for line in reference.lines() {
        if let Some(w) = line.strip_prefix("WIDTH ") {
            inside = w.trim().parse() == Ok(width);
            if inside {
                out = Some(String::new());
            }
            continue;
        }
        if let (true, Some(text)) = (inside, out.as_mut()) {
            text.push_str(line);
            text.push('\n');
        }
    }
    out
}

/// Runs one simulation and returns its full output (printf text, then dumps).
#[allow(dead_code)]
pub fn run(ctx: &Context, sim: &Path) -> Result<String, String> {
    let options = std::fs::read_to_string(sim.with_extension("options")).unwrap_or_default();
    let s = Simulation::load(ctx, sim, options.trim()).map_err(|e| e.to_string())?;
    let report = s.run(ctx).map_err(|e| e.to_string())?;
    Ok(format!("{}{}", report.printf_output, s.dump()))
}

/// Compares the output's non-blank lines with the `EXACT` lines of the reference.
#[allow(dead_code)]
pub fn compare(output: &str, reference: &str) -> Result<(), String> {
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
