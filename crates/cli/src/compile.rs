//! `lockstep compile`: builds an OpenCL C file and prints what the compiler made of it.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use lockstep_frontend::{compile, BuildOptions, CompileError, Source};
use lockstep_ir::print::write_function;

#[derive(Args)]
pub struct CompileArgs {
    /// The OpenCL C source file.
    file: PathBuf,
    /// Show only this kernel.
    #[arg(short = 'k', long = "kernel")]
    kernel: Option<String>,
    /// What to print.
    #[arg(long, value_enum, default_value_t = Emit::Ir)]
    emit: Emit,
    /// Build options as one string (as clBuildProgram takes them).
    #[arg(long = "build-options", default_value = "")]
    build_options: String,
    /// Further build options (-D, -I, -cl-std=…), after the file.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    options: Vec<String>,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum Emit {
    /// Lockstep IR after import (verified).
    Ir,
    /// The optimized LLVM module the importer reads.
    LlvmInput,
}

pub fn run(args: CompileArgs) -> Result<()> {
    let source = Source::from_file(&args.file)?;
    let mut option_text = args.build_options.clone();
    for o in &args.options {
        option_text.push(' ');
        option_text.push_str(&shell_quote(o));
    }
    let options = BuildOptions::parse(&option_text)?;
    if args.emit == Emit::LlvmInput {
        print!(
            "{}",
            lockstep_frontend::optimized_llvm_text(&source, &options)?
        );
        return Ok(());
    }
    let compiled = match compile(&source, &options) {
        Ok(c) => c,
        Err(CompileError::Clang { log, .. }) => {
            eprint!("{log}");
            bail!("{} failed to compile", args.file.display());
        }
        Err(e) => return Err(e).with_context(|| format!("compiling {}", args.file.display())),
    };
    eprint!("{}", compiled.log);
    let module = &compiled.module;
    let mut out = String::new();
    let mut found = false;
    for (_, g) in module.globals.iter() {
        if args.kernel.is_none() {
            out.push_str(&lockstep_ir::module_to_string(&single_global(module, g)));
        }
    }
    for (_, f) in module.functions.iter() {
        if args.kernel.as_deref().is_some_and(|k| k != f.name) {
            continue;
        }
        found = true;
        if !out.is_empty() {
            out.push('\n');
        }
        write_function(&mut out, Some(module), f)?;
    }
    if let Some(k) = &args.kernel {
        if !found {
            let names: Vec<&str> = module.kernels().map(|(_, f)| f.name.as_str()).collect();
            bail!(
                "no kernel named '{k}' in {} (kernels: {})",
                args.file.display(),
                names.join(", ")
            );
        }
    }
    print!("{out}");
    Ok(())
}

/// A module holding only `g`, to print it with the module printer.
fn single_global(
    _module: &lockstep_ir::Module,
    g: &lockstep_ir::GlobalData,
) -> lockstep_ir::Module {
    let mut m = lockstep_ir::Module::new();
    m.globals.push(g.clone());
    m
}

fn shell_quote(s: &str) -> String {
    if s.contains(char::is_whitespace) {
        format!("\"{s}\"")
    } else {
        s.to_string()
    }
}
