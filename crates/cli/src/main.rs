//! `lockstep`: the command line. Wires the stages together; all the work is
//! in the library crates.

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
    Run {
        /// The .sim file.
        file: std::path::PathBuf,
    },
    /// Compile an OpenCL C file and show what the compiler did.
    Compile {
        /// The .cl file.
        file: std::path::PathBuf,
    },
    /// Describe the device: CPU, SIMD width, cores, features.
    Info,
    /// Run the bundled example kernels on built-in inputs.
    Demo,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let (name, issue) = match cli.command {
        Command::Run { .. } => ("run", "#4"),
        Command::Compile { .. } => ("compile", "#3"),
        Command::Info => ("info", "#6"),
        Command::Demo => ("demo", "#4"),
    };
    eprintln!("lockstep {name}: not available yet in this build (planned in issue {issue})");
    ExitCode::FAILURE
}
