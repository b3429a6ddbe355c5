//! `lockstep`: the command line. Wires the stages together; all the work is
//! in the library crates.

mod compile;
mod demo;
mod info;
mod run;

use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use lockstep_runtime::Engine;

/// Lockstep: an OpenCL C compiler and CPU runtime that runs every work-item
/// in a SIMD lane.
#[derive(Parser)]
#[command(name = "lockstep", version, about, long_about = None)]
struct Cli {
    /// Compile kernels for this CPU instead of the host's (LLVM's name, same
    /// architecture: znver3, haswell, x86-64-v3, …): its features and SIMD
    /// width. The same as LOCKSTEP_CPU=NAME.
    #[arg(long, global = true, value_name = "NAME")]
    cpu: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a kernel described by a .sim file (oclgrind-kernel format) and print the dumped buffers.
    Run(run::RunArgs),
    /// Compile an OpenCL C file and show what the compiler did.
    Compile(compile::CompileArgs),
    /// Describe the device: CPU, SIMD width, cores, features.
    Info,
    /// Run the bundled example kernels on built-in inputs.
    Demo(demo::DemoArgs),
}

/// `--engine`: which engine runs kernels.
#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    /// The reference interpreter.
    Interp,
    /// The SIMD engine.
    Simd,
}

impl EngineArg {
    /// The runtime's engine of this name, or why this build has none.
    pub fn engine(self) -> anyhow::Result<Engine> {
        let name = self.to_possible_value().expect("no skipped values");
        Ok(name.get_name().parse::<Engine>()?)
    }
}

fn main() -> ExitCode {
    // Like other Unix tools, end quietly when the reader of our output goes
    // away (`lockstep run x.sim | head`) instead of failing to print.
    // SAFETY: restoring the default action of SIGPIPE before any thread starts.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    let cli = Cli::parse();
    if let Some(cpu) = &cli.cpu {
        // Before anything reads it: the code generator detects its target
        // once, from the environment (no thread has started yet).
        std::env::set_var(lockstep_codegen::backend::target::CPU_ENV, cpu);
    }
    if lockstep_codegen::backend::target::requested_cpu().is_some() {
        // A CPU name that is wrong is an error now, not at the first launch.
        if let Err(e) = lockstep_codegen::target() {
            eprintln!("lockstep: {e}");
            return ExitCode::FAILURE;
        }
    }
    let result = match cli.command {
        Command::Compile(args) => compile::run(args),
        Command::Run(args) => run::run(args),
        Command::Info => info::run(),
        Command::Demo(args) => demo::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lockstep: {e:#}");
            ExitCode::FAILURE
        }
    }
}
