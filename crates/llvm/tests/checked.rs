//! Checked mode on the kernel corpus, on both engines.
//!
//! * `clean/kernels/…`: every correct corpus kernel runs checked on the
//!   SIMD engine and on the interpreter without a single report (no false
//!   positives), and its output still matches its `.ref`.
//! * `bugs/kernels/checked/…`: each kernel of `tests/kernels/checked/` has
//!   a bug of one class checked mode diagnoses; its `.ref` lists the
//!   expected reports as `ERROR <text>` lines: each must be a part of a
//!   line of the reports, in order. The interpreter must find them all; the
//!   SIMD engine too, unless the `.ref` says `SIMD-UNDETECTED` (data races,
//!   uninitialized memory, division by zero: the interpreter's alone), in
//!   which case it must run without reports. The
//!   fixed twin (`NAME_fixed`) is a correct corpus kernel, run by `clean/`.
//!   Reports are read from `LaunchReport::diagnostics`; a launch that
//!   stops with an error counts its message as one.

mod common;

use std::path::Path;

use libtest_mimic::{Arguments, Failed, Trial};
use lockstep_runtime::sim::Simulation;
use lockstep_runtime::{Context, Engine};

/// The reports and output of one checked run (a launch error is a report).
fn run_checked(ctx: &Context, sim: &Path) -> Result<(Vec<String>, String), String> {
    let options = std::fs::read_to_string(sim.with_extension("options")).unwrap_or_default();
    let s = Simulation::load(ctx, sim, options.trim()).map_err(|e| e.to_string())?;
    match s.run(ctx) {
        // (A SIMD launch with a NULL buffer the kernel may access runs on
        // the interpreter, checked the same way.)
        Ok(report) => Ok((
            report.diagnostics,
            format!("{}{}", report.printf_output, s.dump()),
        )),
        Err(e) => Ok((vec![e.to_string()], String::new())),
    }
}

fn context(engine: Engine) -> Context {
    let mut ctx = lockstep_llvm::context().with_engine(engine);
    ctx.set_checked(true);
    ctx
}

/// A correct kernel: no reports on either engine, the expected output.
fn clean(sim: &Path) -> Result<(), Failed> {
    let reference = std::fs::read_to_string(sim.with_extension("ref")).unwrap_or_default();
    for engine in [Engine::Simd, Engine::Interpreter] {
        let ctx = context(engine);
        let (reports, output) = run_checked(&ctx, sim).map_err(|e| format!("{engine}: {e}"))?;
        if let Some(r) = reports.first() {
            return Err(format!(
                "{engine}: checked mode reported {} problem(s) in a correct kernel; the first:\n{r}",
                reports.len()
            )
            .into());
        }
        let expected = common::reference_for(&reference, ctx.width()).unwrap_or_default();
        common::compare(&output, &expected).map_err(|e| format!("{engine}: {e}"))?;
    }
    Ok(())
}

/// The `ERROR` lines of a reference, each found in order in the reports.
fn expect_reports(reports: &[String], reference: &str) -> Result<(), String> {
    let lines: Vec<&str> = reports.iter().flat_map(|r| r.lines()).collect();
    let mut at = 0;
    for want in reference.lines().filter_map(|l| l.strip_prefix("ERROR ")) {
        match lines[at..].iter().position(|l| l.contains(want)) {
            Some(i) => at += i + 1,
            None => {
                return Err(format!(
                    "expected a report with `{want}` (in order); the reports:\n{}",
                    reports.join("\n\n")
                ))
            }
        }
    }
    Ok(())
}

/// A kernel with a bug: the expected reports.
fn bug(sim: &Path) -> Result<(), Failed> {
    let reference = std::fs::read_to_string(sim.with_extension("ref")).unwrap_or_default();
    let simd_undetected = reference.lines().any(|l| l.trim() == "SIMD-UNDETECTED");
    let (reports, _) = run_checked(&context(Engine::Interpreter), sim)?;
    expect_reports(&reports, &reference).map_err(|e| format!("interpreter: {e}"))?;
    let (reports, _) = run_checked(&context(Engine::Simd), sim)?;
    if simd_undetected {
        if let Some(r) = reports.first() {
            return Err(format!("SIMD: expected no report (SIMD-UNDETECTED), got:\n{r}").into());
        }
    } else {
        expect_reports(&reports, &reference).map_err(|e| format!("SIMD: {e}"))?;
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    let mut bugs = 0;
    for (name, sim) in common::all_kernels() {
        if common::has_errors(&sim) {
            bugs += 1;
            trials.push(Trial::test(format!("bugs/{name}"), move || bug(&sim)));
        } else {
            trials.push(Trial::test(format!("clean/{name}"), move || clean(&sim)));
        }
    }
    trials.push(Trial::test("at_least_ten_bug_kernels", move || {
        if bugs >= 10 {
            Ok(())
        } else {
            Err(format!("expected at least 10 kernels with ERROR lines, found {bugs}").into())
        }
    }));
    libtest_mimic::run(&args, trials).exit();
}
