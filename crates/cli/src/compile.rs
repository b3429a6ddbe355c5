//! `lockstep compile`: builds an OpenCL C file, or a SPIR-V module (a
//! `.spv` file, or any file starting with SPIR-V's magic number), and
//! prints what the compiler made of it: the imported IR, the uniformity
//! analysis, the CFG as Graphviz, the vectorization report, the generated
//! LLVM IR or assembly.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use lockstep_codegen::{kernel_listing, Listing, Spec};
use lockstep_frontend::{compile, timing, BuildOptions, CompileError, Source};
use lockstep_ir::print::write_function;
use lockstep_passes::analysis::{Uniformity, UniformityConfig};
use lockstep_passes::pipeline::{self, Pass};

#[derive(Args)]
pub struct CompileArgs {
    /// The OpenCL C source file, or a SPIR-V module (`.spv`).
    file: PathBuf,
    /// Show only this kernel.
    #[arg(short = 'k', long = "kernel")]
    kernel: Option<String>,
    /// What to print.
    #[arg(long, value_enum, default_value_t = Emit::Ir)]
    emit: Emit,
    /// The work-group size to specialize for (X[,Y[,Z]]; default: the
    /// kernel's reqd_work_group_size, else 64).
    #[arg(long = "local-size", value_parser = parse_local_size)]
    local_size: Option<[u32; 3]>,
    /// SIMD width (default: the host's best for 32-bit lanes).
    #[arg(long)]
    width: Option<u32>,
    /// How the linearize pass turns divergent control flow into masks:
    /// masks (per-block masks) or block-ip (a block pointer per lane).
    #[arg(long, default_value = "masks")]
    linearize: lockstep_codegen::Linearization,
    /// Lane refill (lanes take new work-items as theirs finish): on for
    /// every eligible kernel, off, or auto where the cost model expects a
    /// gain (default: LOCKSTEP_REFILL, else auto).
    #[arg(long)]
    refill: Option<pipeline::RefillMode>,
    /// Print each kernel's IR after this pass of the pipeline instead
    /// (`all`: after every pass), specialized like --emit report; the text
    /// parses back with the IR parser. Passes, in order:
    /// remove_unreachable, unify_returns, lower_switch, split_barriers,
    /// refill, linearize, layout_private.
    #[arg(long = "dump-after", value_name = "PASS", value_parser = parse_dump_after)]
    dump_after: Option<DumpAfter>,
    /// With --emit cfg-dot: also render FILE.png with Graphviz's `dot`.
    #[arg(long, value_name = "FILE")]
    png: Option<PathBuf>,
    /// Print each build stage's CPU and wall time to stderr (clang or the
    /// SPIR-V translator, library
    /// load, link, optimize, import, verify; with --emit llvm, llvm-opt or
    /// asm also each kernel's code generation). The same as
    /// LOCKSTEP_TIME_BUILD=1.
    #[arg(long)]
    time: bool,
    /// Compile checked code (what `lockstep run --check` runs on the SIMD
    /// engine: every memory access checked against its object), for
    /// --emit report, llvm, llvm-opt and asm.
    #[arg(long)]
    check: bool,
    /// Build options as one string (as clBuildProgram takes them).
    #[arg(long = "build-options", default_value = "", allow_hyphen_values = true)]
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
    /// The IR annotated with each value's shape and each branch's divergence.
    Uniformity,
    /// The CFG as Graphviz: divergent branches, loops, irreducible regions.
    CfgDot,
    /// What the SIMD engine did: width, shapes, linearized branches, memory accesses.
    Report,
    /// The generated SIMD LLVM IR (before LLVM's optimizer).
    Llvm,
    /// The SIMD LLVM IR after LLVM's -O3 for the host.
    LlvmOpt,
    /// Host assembly of the SIMD code.
    Asm,
}

/// Which passes `--dump-after` prints after.
#[derive(Copy, Clone)]
enum DumpAfter {
    All,
    Pass(Pass),
}

fn parse_dump_after(s: &str) -> Result<DumpAfter, String> {
    if s == "all" {
        return Ok(DumpAfter::All);
    }
    Pass::from_name(s).map(DumpAfter::Pass).ok_or_else(|| {
        let names: Vec<&str> = Pass::ALL.iter().map(|p| p.name()).collect();
        format!("unknown pass '{s}' (passes: {}, or all)", names.join(", "))
    })
}

/// Runs the pass pipeline on `module`'s kernel `id` and returns its IR after
/// the passes `dump` names, each as a module that parses back.
fn dump_passes(
    module: &lockstep_ir::Module,
    id: lockstep_ir::FuncId,
    config: &UniformityConfig,
    settings: pipeline::Settings,
    dump: DumpAfter,
) -> Result<String> {
    let mut out = String::new();
    let mut observe = |pass: Pass, func: &lockstep_ir::Function| {
        if matches!(dump, DumpAfter::Pass(p) if p != pass) {
            return;
        }
        let mut stage = lockstep_ir::Module::new();
        stage.globals = module.globals.clone();
        stage.functions.push(func.clone());
        out.push_str(&format!("; after {pass} ({config})\n"));
        out.push_str(&lockstep_ir::module_to_string(&stage));
        out.push('\n');
    };
    let options = pipeline::Options {
        verify: true,
        observe: Some(&mut observe),
        stop_after: None,
        settings,
    };
    pipeline::run(module, &module.functions[id], config, options)?;
    Ok(out)
}

fn parse_local_size(s: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = s.split([',', 'x']).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err("give 1 to 3 sizes, like 16,16".into());
    }
    let mut out = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        out[i] = p
            .trim()
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("'{p}' is not a positive size"))?;
    }
    Ok(out)
}

pub fn run(args: CompileArgs) -> Result<()> {
    if args.time {
        timing::enable();
    }
    let mut option_text = args.build_options.clone();
    for o in &args.options {
        option_text.push(' ');
        option_text.push_str(&shell_quote(o));
    }
    let options = BuildOptions::parse(&option_text)?;
    let input = Input::read(&args.file)?;
    if args.emit == Emit::LlvmInput {
        let text = match &input {
            Input::OpenCl(source) => lockstep_frontend::optimized_llvm_text(source, &options)?,
            Input::Spirv(module, name) => {
                lockstep_frontend::spirv_optimized_llvm_text(module, &options, name)?
            }
        };
        print!("{text}");
        return Ok(());
    }
    let result = match &input {
        Input::OpenCl(source) => compile(source, &options),
        Input::Spirv(module, name) => lockstep_frontend::compile_spirv(module, &[], &options, name),
    };
    let compiled = match result {
        Ok(c) => c,
        Err(CompileError::Clang { log, .. } | CompileError::SpirvTranslation { log }) => {
            eprintln!("{}", log.trim_end());
            bail!("{} failed to compile", args.file.display());
        }
        Err(e) => return Err(e).with_context(|| format!("compiling {}", args.file.display())),
    };
    eprint!("{}", compiled.log);
    let module = &compiled.module;
    let kernels: Vec<_> = module
        .kernels()
        .filter(|(_, f)| args.kernel.as_deref().is_none_or(|k| k == f.name))
        .map(|(id, _)| id)
        .collect();
    if let (Some(k), true) = (&args.kernel, kernels.is_empty()) {
        let names: Vec<&str> = module.kernels().map(|(_, f)| f.name.as_str()).collect();
        bail!(
            "no kernel named '{k}' in {} (kernels: {})",
            args.file.display(),
            names.join(", ")
        );
    }
    let host_width = lockstep_codegen::host_width();
    let mut out = String::new();
    if args.emit == Emit::Ir && args.dump_after.is_none() {
        if args.kernel.is_none() {
            for (_, g) in module.globals.iter() {
                let mut m = lockstep_ir::Module::new();
                m.globals.push(g.clone());
                out.push_str(&lockstep_ir::module_to_string(&m));
            }
        }
        for &id in &kernels {
            if !out.is_empty() {
                out.push('\n');
            }
            write_function(&mut out, Some(module), &module.functions[id])?;
        }
        print!("{out}");
        return Ok(());
    }
    let refill_mode = match args.refill {
        Some(mode) => mode,
        None => match std::env::var("LOCKSTEP_REFILL") {
            Ok(v) => v
                .parse()
                .map_err(|e: String| anyhow::anyhow!("LOCKSTEP_REFILL: {e}"))?,
            Err(_) => pipeline::RefillMode::Auto,
        },
    };
    for &id in &kernels {
        let func = &module.functions[id];
        let reqd = func.kernel.as_ref().and_then(|k| k.reqd_work_group_size);
        let local_size = args.local_size.or(reqd).unwrap_or([64, 1, 1]);
        let chosen = match args.width {
            Some(width) => lockstep_passes::analysis::GangWidth {
                width,
                reason: format!("{width}, from --width"),
                one_lane: None,
                wider: None,
                wider_within_rows: false,
            },
            None => lockstep_passes::analysis::gang_width(func, host_width),
        };
        let width = chosen.width;
        let spec = Spec {
            linearization: args.linearize,
            refill: if args.check {
                pipeline::RefillMode::Off
            } else {
                refill_mode
            },
            checked: args.check,
            // As a launch whose buffers are below 2 GiB (nearly all) has it.
            small_buffers: true,
            ..Spec::new(local_size, width)
        };
        let config = UniformityConfig { local_size, width };
        if let Some(dump) = args.dump_after {
            out.push_str(&dump_passes(module, id, &config, spec.settings(), dump)?);
            continue;
        }
        let text = match args.emit {
            Emit::Uniformity => {
                let info = Uniformity::for_function(func, &config);
                format!(
                    "; {config}\n{}",
                    lockstep_passes::uniformity_listing(module, id, &info)
                )
            }
            Emit::CfgDot => {
                let info = Uniformity::for_function(func, &config);
                let dot = lockstep_passes::cfg_dot(module, id, &info);
                if let Some(png) = &args.png {
                    render_png(&dot, png)?;
                    eprintln!("wrote {}", png.display());
                }
                dot
            }
            Emit::Report => format!(
                "; gang width {}\n{}{}{}",
                chosen.reason,
                match &chosen.one_lane {
                    Some(why) => format!(
                        "; one lane per gang also tried at the first launches, the faster kept: {why}\n"
                    ),
                    None => String::new(),
                },
                match &chosen.wider {
                    Some(why) => format!(
                        "; also tried at the first launches, the faster kept: width {why}\n"
                    ),
                    None => String::new(),
                },
                kernel_listing(module, id, &spec, Listing::Report)?
            ),
            Emit::Llvm => timed_listing(&args, module, id, &spec, Listing::Llvm)?,
            Emit::LlvmOpt => timed_listing(&args, module, id, &spec, Listing::OptimizedLlvm)?,
            Emit::Asm => timed_listing(&args, module, id, &spec, Listing::Asm)?,
            Emit::Ir | Emit::LlvmInput => unreachable!("handled above"),
        };
        out.push_str(&text);
    }
    print!("{out}");
    Ok(())
}

/// What `lockstep compile` builds.
enum Input {
    OpenCl(Source),
    /// A checked SPIR-V module and the file's name.
    Spirv(lockstep_frontend::spirv::Module, String),
}

impl Input {
    /// Reads `path`: SPIR-V if it is named `*.spv` or starts with SPIR-V's
    /// magic number, else OpenCL C.
    fn read(path: &std::path::Path) -> Result<Input> {
        use lockstep_frontend::spirv;
        let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        if path.extension().is_some_and(|e| e == "spv") || spirv::is_spirv(&bytes) {
            let module = spirv::Module::parse(&bytes)
                .map_err(CompileError::SpirvInvalid)
                .with_context(|| format!("reading {}", path.display()))?;
            let name = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            return Ok(Input::Spirv(module, name));
        }
        Ok(Input::OpenCl(Source::from_file(path)?))
    }
}

/// [`kernel_listing`], reported as the stage "codegen KERNEL" when build
/// times are on: the SIMD emitter, plus LLVM's -O3 for the host
/// (`llvm-opt`) and the assembly printer (`asm`).
fn timed_listing(
    args: &CompileArgs,
    module: &lockstep_ir::Module,
    id: lockstep_ir::FuncId,
    spec: &Spec,
    listing: Listing,
) -> Result<String> {
    let unit = args.file.file_name().map_or_else(
        || args.file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let stage = format!("codegen {}", module.functions[id].name);
    Ok(timing::stage(&unit, &stage, timing::Clock::Thread, || {
        kernel_listing(module, id, spec, listing)
    })?)
}

fn render_png(dot: &str, png: &PathBuf) -> Result<()> {
    use std::io::Write;
    let mut child = std::process::Command::new("dot")
        .args(["-Tpng", "-o"])
        .arg(png)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .context("running Graphviz's `dot` (install the graphviz package)")?;
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(dot.as_bytes())?;
    if !child.wait()?.success() {
        bail!("`dot` failed to render {}", png.display());
    }
    Ok(())
}

fn shell_quote(s: &str) -> String {
    if s.contains(char::is_whitespace) {
        format!("\"{s}\"")
    } else {
        s.to_string()
    }
}
