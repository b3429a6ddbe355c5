//! `lockstep run FILE.sim`: runs a kernel described by a simulation file and
//! prints its `printf` output and dumped buffers (oclgrind-kernel's format).

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Result};
use clap::Args;
use lockstep_runtime::sim::Simulation;
use lockstep_runtime::MAX_THREADS;

use crate::EngineArg;

#[derive(Args)]
pub struct RunArgs {
    /// The .sim file.
    file: PathBuf,
    /// Which engine runs the kernel.
    #[arg(long, value_enum, default_value_t = EngineArg::Simd)]
    engine: EngineArg,
    /// Build options for the program (as clBuildProgram takes them).
    #[arg(long = "build-options", default_value = "", allow_hyphen_values = true)]
    build_options: String,
    /// Checked mode. SIMD engine: out-of-bounds accesses (skipped),
    /// misaligned accesses and writes to read-only (reads of write-only)
    /// buffers, at full speed. Interpreter: also data races, uses of
    /// uninitialized values, division by zero and barrier divergence.
    #[arg(long)]
    check: bool,
    /// SIMD width: work-items per gang (4, 8, 16 or 32; default: the host's best).
    #[arg(long)]
    width: Option<u32>,
    /// Worker threads (default: one per core, or LOCKSTEP_THREADS).
    #[arg(long)]
    threads: Option<usize>,
    /// How the linearize pass turns divergent control flow into masks:
    /// masks (per-block masks) or block-ip (a block pointer per lane).
    #[arg(long, default_value = "masks")]
    linearize: lockstep_runtime::Linearization,
    /// Lane refill (lanes take new work-items as theirs finish): on for
    /// every eligible kernel, off, or auto where the cost model expects a
    /// gain (default: LOCKSTEP_REFILL, else auto).
    #[arg(long)]
    refill: Option<lockstep_runtime::RefillMode>,
    /// With --engine interp: run the kernel as the pass pipeline leaves it
    /// (for the .sim's local size and the SIMD width), not as imported.
    #[arg(long = "after-passes")]
    after_passes: bool,
    /// Print the kernel's execution time (no compile) after the output.
    #[arg(long)]
    time: bool,
    /// Run the kernel this many times (with --time: min and median).
    #[arg(long, default_value_t = 1)]
    repeat: u32,
    /// Do not print the dumped buffers.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: RunArgs) -> Result<()> {
    let engine = args.engine.engine()?;
    let mut ctx = lockstep_llvm::context().with_engine(engine);
    ctx.set_checked(args.check);
    if let Some(w) = args.width {
        if !matches!(w, 1 | 4 | 8 | 16 | 32) {
            anyhow::bail!("--width must be 4, 8, 16 or 32");
        }
        ctx.set_width(w);
    }
    if let Some(t) = args.threads {
        if !(1..=MAX_THREADS).contains(&t) {
            bail!("--threads must be between 1 and {MAX_THREADS}, not {t}");
        }
        ctx.set_threads(t);
    }
    ctx.set_linearization(args.linearize);
    if let Some(mode) = args.refill {
        ctx.set_refill(mode);
    }
    if args.after_passes && engine != lockstep_runtime::Engine::Interpreter {
        bail!("--after-passes needs --engine interp");
    }
    ctx.set_interpret_after_passes(args.after_passes);
    if args.repeat == 0 {
        bail!("--repeat must be at least 1");
    }
    if args.check && engine == lockstep_runtime::Engine::Simd {
        eprintln!("note: {}", lockstep_runtime::SIMD_CHECK_SCOPE);
    }
    let sim = Simulation::load(&ctx, &args.file, &args.build_options)?;
    let mut times = Vec::with_capacity(args.repeat as usize);
    let mut printed = String::new();
    let mut diagnostics = Vec::new();
    for i in 0..args.repeat {
        let start = Instant::now();
        let report = sim.run(&ctx)?;
        times.push(start.elapsed().as_secs_f64() * 1e3);
        if i == 0 {
            if let Some(note) = &report.fallback {
                eprintln!("note: {note}");
            }
            printed = report.printf_output;
            diagnostics = report.diagnostics;
        }
    }
    print!("{printed}");
    if !args.quiet {
        print!("{}", sim.dump());
    }
    for d in &diagnostics {
        eprintln!("{d}");
    }
    if args.time {
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        println!("time: min={:.3} ms median={:.3} ms", times[0], median);
    }
    if args.check && !diagnostics.is_empty() {
        bail!("checked mode found {} problem(s)", diagnostics.len());
    }
    Ok(())
}
