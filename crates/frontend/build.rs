//! Builds the OpenCL C builtin library (`builtins/*.cl`) into LLVM bitcode
//! units, `$OUT_DIR/builtins/*.bc`, which `src/builtins.rs` embeds with an
//! index of the symbols each defines (`$OUT_DIR/builtin_units.rs`), and
//! compiles `src/link_builtins.cpp`, which links them into programs
//! (LLVM's C++ API, with headers found like llvm-sys finds LLVM:
//! `$LLVM_SYS_191_PREFIX/bin/llvm-config`, else `llvm-config-19` on PATH,
//! else `llvm-config`; the symbols come from the libLLVM that llvm-sys
//! links).
//!
//! Every unit `#include`d by `builtins/lockstep_builtins.cl` is compiled on
//! its own, and `builtins/convert.cl` once per destination type (its
//! conversion hooks share names across return types, which one translation
//! unit cannot declare). Units compile in parallel with clang 19; llvm-nm
//! 19 lists what each defines. llvm-link 19 also joins them into one
//! module, `$OUT_DIR/lockstep_builtins.bc`: that checks that no two units
//! define the same symbol, and is the library the scripts in `builtins/`
//! check.
//!
//! Tools: `$LOCKSTEP_CLANG` (if set, it must exist), else `clang-19` on PATH, else
//! `$(llvm-config-19 --bindir)/clang`; `$LOCKSTEP_LLVM_LINK` (likewise), else
//! `llvm-link-19` on PATH, else `llvm-link` beside the chosen clang, else
//! `$(llvm-config-19 --bindir)/llvm-link`; `$LOCKSTEP_LLVM_NM`, `llvm-nm-19`,
//! `llvm-nm` likewise.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::Mutex;
use std::thread;

/// Destination types `convert.cl` is compiled for.
const CONVERT_DESTINATIONS: [&str; 11] = [
    "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double", "half",
];

/// Flags for every unit. `__opencl_c_named_address_space_builtins` makes
/// OpenCL 3.0 declare the named-address-space overloads (what OpenCL 1.2
/// kernels call) next to the generic ones (what 2.0/3.0 kernels call).
/// No vectorizers: the importer scalarizes vectors anyway, and scalar code
/// keeps exotic vector shuffles and reductions out of the library.
const CLANG_FLAGS: &[&str] = &[
    "-x",
    "cl",
    "-cl-std=CL3.0",
    "-target",
    "spir64",
    "-emit-llvm",
    "-c",
    "-O2",
    "-Xclang",
    "-finclude-default-header",
    "-D__opencl_c_named_address_space_builtins=1",
    "-ffp-contract=off",
    "-fno-vectorize",
    "-fno-slp-vectorize",
    "-Wall",
    "-Wno-atomic-alignment",
];

/// One clang invocation: a source file, extra defines, an output name.
struct Unit {
    source: PathBuf,
    defines: Vec<String>,
    output: PathBuf,
}

include!("../build-support/llvm_shim.rs");

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: building the OpenCL builtin library failed: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").map_err(|e| e.to_string())?);
    let out_dir = PathBuf::from(env::var("OUT_DIR").map_err(|e| e.to_string())?);
    let src_dir = manifest_dir.join("builtins");

    compile_llvm_shim("link_builtins")?;

    println!("cargo:rerun-if-env-changed=LOCKSTEP_CLANG");
    println!("cargo:rerun-if-env-changed=LOCKSTEP_LLVM_LINK");
    println!("cargo:rerun-if-env-changed=LOCKSTEP_LLVM_NM");
    let mut sources: Vec<PathBuf> = fs::read_dir(&src_dir)
        .map_err(|e| format!("cannot read {}: {e}", src_dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("cl" | "h")))
        .collect();
    sources.sort();
    for source in &sources {
        println!("cargo:rerun-if-changed={}", source.display());
    }

    let clang = find_clang()?;
    let llvm_link = find_llvm_tool("llvm-link", "LOCKSTEP_LLVM_LINK", &clang)?;
    let llvm_nm = find_llvm_tool("llvm-nm", "LOCKSTEP_LLVM_NM", &clang)?;

    let unit_dir = out_dir.join("builtins");
    fs::create_dir_all(&unit_dir)
        .map_err(|e| format!("cannot create {}: {e}", unit_dir.display()))?;
    let units = plan_units(&src_dir, &unit_dir)?;
    compile_all(&clang, &units)?;

    let output = out_dir.join("lockstep_builtins.bc");
    let mut link = Command::new(&llvm_link);
    link.arg("-o").arg(&output);
    link.args(units.iter().map(|u| &u.output));
    run_tool(&mut link, &llvm_link)?;

    let index = out_dir.join("builtin_units.rs");
    let text = unit_index(&llvm_nm, &units)?;
    fs::write(&index, text).map_err(|e| format!("cannot write {}: {e}", index.display()))?;
    Ok(())
}

/// `builtin_units.rs`: the units (name and bitcode) and, sorted by name,
/// the symbols they define with the index of the unit that defines each.
fn unit_index(llvm_nm: &Path, units: &[Unit]) -> Result<String, String> {
    let mut units_rs = String::new();
    let mut symbols: Vec<(String, usize)> = Vec::new();
    for (i, unit) in units.iter().enumerate() {
        let name = unit
            .output
            .file_stem()
            .and_then(|s| s.to_str())
            .ok_or_else(|| format!("unit name of {}", unit.output.display()))?;
        let path = unit
            .output
            .to_str()
            .ok_or_else(|| format!("{} is not UTF-8", unit.output.display()))?;
        units_rs.push_str(&format!(
            "    Unit {{ name: {name:?}, bitcode: include_bytes!({path:?}) }},\n"
        ));
        let mut nm = Command::new(llvm_nm);
        nm.args(["--defined-only", "--extern-only", "--just-symbol-name"])
            .arg(&unit.output);
        let listed = run_tool(&mut nm, llvm_nm)?;
        symbols.extend(
            listed
                .lines()
                .filter(|l| !l.is_empty())
                .map(|l| (l.to_string(), i)),
        );
    }
    symbols.sort();
    if let Some(pair) = symbols.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(format!(
            "{} is defined by two units, {} and {}",
            pair[0].0,
            units[pair[0].1].output.display(),
            units[pair[1].1].output.display()
        ));
    }
    let mut out = String::from(
        "// Generated by build.rs: the builtin library's units and what they define.\n\n",
    );
    out.push_str(&format!("pub const UNITS: &[Unit] = &[\n{units_rs}];\n\n"));
    out.push_str("/// Each symbol a unit defines, sorted, with the unit's index in [`UNITS`].\n");
    out.push_str("pub const SYMBOLS: &[(&str, u16)] = &[\n");
    for (name, unit) in &symbols {
        out.push_str(&format!("    ({name:?}, {unit}),\n"));
    }
    out.push_str("];\n");
    Ok(out)
}

/// The units: every `#include "X.cl"` of lockstep_builtins.cl, and
/// convert.cl once per destination type.
fn plan_units(src_dir: &Path, unit_dir: &Path) -> Result<Vec<Unit>, String> {
    let top = src_dir.join("lockstep_builtins.cl");
    let text =
        fs::read_to_string(&top).map_err(|e| format!("cannot read {}: {e}", top.display()))?;
    let mut units = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("#include") else {
            continue;
        };
        let name = rest.trim().trim_matches('"');
        let Some(stem) = name.strip_suffix(".cl") else {
            continue;
        };
        units.push(Unit {
            source: src_dir.join(name),
            defines: Vec::new(),
            output: unit_dir.join(format!("{stem}.bc")),
        });
    }
    if units.is_empty() {
        return Err(format!("{} includes no .cl units", top.display()));
    }
    for dst in CONVERT_DESTINATIONS {
        units.push(Unit {
            source: src_dir.join("convert.cl"),
            defines: vec![format!("-DLS_CONVERT_DST={dst}")],
            output: unit_dir.join(format!("convert_{dst}.bc")),
        });
    }
    Ok(units)
}

/// Compiles the units on as many threads as cargo allows (largest first).
fn compile_all(clang: &Path, units: &[Unit]) -> Result<(), String> {
    let jobs = env::var("NUM_JOBS")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
        .or_else(|| thread::available_parallelism().ok().map(|n| n.get()))
        .unwrap_or(1)
        .clamp(1, units.len());
    let queue = Mutex::new(units.iter().collect::<Vec<_>>().into_iter());
    let errors = Mutex::new(Vec::new());
    thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| loop {
                let next = queue.lock().unwrap().next();
                let Some(unit) = next else { break };
                let mut cmd = Command::new(clang);
                cmd.args(CLANG_FLAGS)
                    .args(&unit.defines)
                    .arg(&unit.source)
                    .arg("-o")
                    .arg(&unit.output);
                if let Err(e) = run_tool(&mut cmd, clang) {
                    errors.lock().unwrap().push(e);
                }
            });
        }
    });
    let errors = errors.into_inner().unwrap();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("\n"))
    }
}

/// Runs a tool, forwarding its warnings, and returns what it printed; an
/// error names the tool and shows its output.
fn run_tool(cmd: &mut Command, tool: &Path) -> Result<String, String> {
    let output = cmd
        .output()
        .map_err(|e| format!("cannot run {}: {e}", tool.display()))?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Err(format!("{:?} failed ({}):\n{stderr}", cmd, output.status));
    }
    for line in stderr.lines().filter(|l| l.contains("warning:")) {
        println!("cargo:warning={line}");
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

fn find_clang() -> Result<PathBuf, String> {
    if let Some(path) = env::var_os("LOCKSTEP_CLANG") {
        let path = PathBuf::from(path);
        if is_runnable(&path) {
            return Ok(path);
        }
        return Err(format!(
            "$LOCKSTEP_CLANG = {} is not an executable file",
            path.display()
        ));
    }
    let mut tried = Vec::new();
    if let Some(path) = find_on_path("clang-19") {
        return Ok(path);
    }
    tried.push("clang-19 on PATH".to_string());
    match llvm_config_bindir() {
        Some(bin) if is_runnable(&bin.join("clang")) => return Ok(bin.join("clang")),
        Some(bin) => tried.push(format!("{}", bin.join("clang").display())),
        None => {
            tried.push("$(llvm-config-19 --bindir)/clang (llvm-config-19 not found)".to_string())
        }
    }
    Err(format!(
        "clang 19 is needed to compile the builtin library; tried: {}. Install clang-19 or set LOCKSTEP_CLANG.",
        tried.join(", ")
    ))
}

/// An LLVM 19 tool (`llvm-link`, `llvm-nm`): `$ENV` (if set, it must
/// exist), else `TOOL-19` on PATH, else `TOOL` beside the chosen clang,
/// else `$(llvm-config-19 --bindir)/TOOL`.
fn find_llvm_tool(tool: &str, env_var: &str, clang: &Path) -> Result<PathBuf, String> {
    if let Some(path) = env::var_os(env_var) {
        let path = PathBuf::from(path);
        if is_runnable(&path) {
            return Ok(path);
        }
        return Err(format!(
            "${env_var} = {} is not an executable file",
            path.display()
        ));
    }
    let mut tried = Vec::new();
    if let Some(path) = find_on_path(&format!("{tool}-19")) {
        return Ok(path);
    }
    tried.push(format!("{tool}-19 on PATH"));
    let clang_real = if clang.components().count() > 1 {
        Some(clang.to_path_buf())
    } else {
        find_on_path(&clang.to_string_lossy())
    };
    if let Some(dir) = clang_real
        .and_then(|c| fs::canonicalize(c).ok())
        .and_then(|c| c.parent().map(Path::to_path_buf))
    {
        let candidate = dir.join(tool);
        if is_runnable(&candidate) {
            return Ok(candidate);
        }
        tried.push(candidate.display().to_string());
    }
    match llvm_config_bindir() {
        Some(bin) if is_runnable(&bin.join(tool)) => return Ok(bin.join(tool)),
        Some(bin) => tried.push(bin.join(tool).display().to_string()),
        None => tried.push(format!(
            "$(llvm-config-19 --bindir)/{tool} (llvm-config-19 not found)"
        )),
    }
    Err(format!(
        "{tool} 19 is needed to build the builtin library; tried: {}. Install llvm-19 or set {env_var}.",
        tried.join(", ")
    ))
}

fn llvm_config_bindir() -> Option<PathBuf> {
    let output = Command::new("llvm-config-19")
        .arg("--bindir")
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    let dir = String::from_utf8(output.stdout).ok()?;
    Some(PathBuf::from(dir.trim()))
}

fn find_on_path(name: &str) -> Option<PathBuf> {
    env::split_paths(&env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|p| is_runnable(p))
}

fn is_runnable(path: &Path) -> bool {
    path.is_file()
}
