//! `lockstep`: the command line. Wires the stages together; all the work is
//! in the library crates.

mod compile;
mod run;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Lockstep: an OpenCL C compiler and CPU runtime that runs every work-item
/// in a SIMD lane.
#[derive(Parser)]
#[command(name = "lockstep", version, about, long_about = None)]
struct Cli {
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
    Demo,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Compile(args) => compile::run(args),
        Command::Run(args) => run::run(args),
        Command::Info => Err(anyhow::anyhow!(
            "'lockstep info' is not available yet in this build (issue #6)"
        )),
        Command::Demo => Err(anyhow::anyhow!(
            "'lockstep demo' is not available yet in this build (issue #4)"
        )),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lockstep: {e:#}");
            ExitCode::FAILURE
        }
    }
}
